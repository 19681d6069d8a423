/**
 * Commands of the VS Code client itself. The server's commands (`Commands` in the shared
 * protocol module) are registered by vscode-languageclient from the server's
 * `executeCommandProvider`; these ids are the client's own and never reach the server.
 */

import { Commands, type CommandResult, type DefineInSpecArgs, type DefineScope, type DefineTermArgs } from '../../server/src/shared/protocol';

export const ClientCommands = {
  /** Asks for a definition in an input box, then runs the server's defineTerm with it. */
  defineTermWithDefinition: 'specGlossary.defineTermWithDefinition',
  /** Asks for a definition in an input box, then runs the server's defineInSpec with it. */
  defineInSpecWithDefinition: 'specGlossary.defineInSpecWithDefinition',
  /** Lists the workspace's glossary candidates in a quick pick (the server's listCandidates). */
  showCandidates: 'specGlossary.showCandidates',
  restartServer: 'specGlossary.restartServer',
  showOutput: 'specGlossary.showOutput',
} as const;

/** Context key for `when` clauses (package.json `enablement`): the server is running. */
export const RUNNING_CONTEXT_KEY = 'specGlossary.serverRunning';

export const ALL_CLIENT_COMMANDS: readonly string[] = Object.values(ClientCommands);

const GLOSSARY_LABEL: Record<DefineScope, string> = { mission_local: 'mission glossary', team_domain: 'team glossary' };

export function scopeLabel(scope: DefineScope): string {
  return GLOSSARY_LABEL[scope];
}

/** The term as the document writes it (PCI), as the server's titles show it. */
export function writtenTerm(args: Pick<DefineTermArgs, 'term' | 'written'>): string {
  return typeof args.written === 'string' && args.written.trim() !== '' ? args.written : args.term;
}

/** "Define 'PCI' in the team glossary with a definition…" */
export function withDefinitionTitle(args: Pick<DefineTermArgs, 'term' | 'written' | 'scope'>): string {
  return `Define '${writtenTerm(args)}' in the ${scopeLabel(args.scope)} with a definition…`;
}

/** A code action or a bare command, as the client library hands them to the middleware. */
export interface ActionLike {
  title: string;
  command?: string | { command: string; arguments?: unknown[] };
}

function isDefineScope(value: unknown): value is DefineScope {
  return value === 'mission_local' || value === 'team_domain';
}

/** The arguments of a server "Define …" action that inserts a draft entry (no definition yet). */
export function draftDefineArgs(item: ActionLike): DefineTermArgs | undefined {
  const command = typeof item.command === 'object' ? item.command : undefined;
  if (!command || command.command !== Commands.defineTerm) return undefined;
  const arg: unknown = command.arguments?.[0];
  if (!arg || typeof arg !== 'object') return undefined;
  const args = arg as Partial<DefineTermArgs>;
  if (typeof args.uri !== 'string' || typeof args.term !== 'string' || typeof args.missionId !== 'string' || !isDefineScope(args.scope)) return undefined;
  if (typeof args.definition === 'string') return undefined;
  return args as DefineTermArgs;
}

/**
 * Where to put a "… with a definition…" companion in a list of code actions: after each draft
 * "Define …" action, once per (term, scope). Returns `[index to insert after, args]` pairs.
 */
export function definitionCompanions(items: readonly ActionLike[]): Array<[number, DefineTermArgs]> {
  const out: Array<[number, DefineTermArgs]> = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const args = draftDefineArgs(item);
    if (!args) return;
    const key = `${args.uri}\u0000${args.term}\u0000${args.scope}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push([index, args]);
  });
  return out;
}

/** The arguments of a server "Define … in this spec's Domain Language" action without a definition. */
export function defineInSpecArgs(item: ActionLike): DefineInSpecArgs | undefined {
  const command = typeof item.command === 'object' ? item.command : undefined;
  if (!command || command.command !== Commands.defineInSpec) return undefined;
  const arg: unknown = command.arguments?.[0];
  if (!arg || typeof arg !== 'object') return undefined;
  const args = arg as Partial<DefineInSpecArgs>;
  if (typeof args.uri !== 'string' || typeof args.term !== 'string' || typeof args.missionId !== 'string' || typeof args.definition === 'string') return undefined;
  return args as DefineInSpecArgs;
}

/** Input-box validation: a definition must not be blank. */
export function validateDefinition(value: string): string | undefined {
  return value.trim() === '' ? 'Type a definition, or press Escape to cancel.' : undefined;
}

export function isCommandResult(value: unknown): value is CommandResult {
  return !!value && typeof value === 'object' && typeof (value as CommandResult).ok === 'boolean' && typeof (value as CommandResult).message === 'string';
}
