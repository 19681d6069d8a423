/**
 * `spec-glossary resolve <term> --mission M (--sense N | --custom "definition" [--scope S])`
 * (SPEC §8): pins a sense of a term for a mission by appending GlossaryClarificationResolved
 * (resolution_mode `async`: decided outside the prompt), after a GlossarySenseUpdated for a
 * custom definition. Closes every clarification still open for that mission and term.
 */

import { randomUUID } from 'node:crypto';
import { resolutionsAgainst } from '../../core/events/decisions';
import { normalizeSurface, termNamed } from '../../core/normalize';
import { isPlaceholderDefinition } from '../../core/placeholder';
import { isScopeId, SCOPE_ORDER, type ScopeId } from '../../core/types';
import { eventLogPath } from '../../node/eventStore';
import { loadWorkspace } from '../../node/workspace';
import { EXIT_OK, UsageError } from '../errors';
import { choicesFor, conflictIdsToClose, DEFAULT_CUSTOM_SCOPE, customDrafts, openClarificationsOf, pickDrafts, type TermChoices } from '../events/decisions';
import { newRunContext } from '../events/runContext';
import { appendOrFail, assertUsableConfig, assertUsableGlossaries, missionArgument, requireWorkspaceRoot } from '../events/workspace';
import { relativePath } from '../output/json';
import { formatProblems, PLAIN } from '../output/text';
import { eventLogProblems } from '../runCheck';
import { shown } from '../output/terminal';
import type { CliIo, ParsedCommand } from '../types';

export const RESOLVE_OPTIONS = {
  mission: { type: 'string' },
  sense: { type: 'string' },
  custom: { type: 'string' },
  scope: { type: 'string' },
  root: { type: 'string' },
} as const;

export async function resolveCommand(command: ParsedCommand, io: CliIo): Promise<number> {
  const { values, positionals } = command;
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'which term? usage: resolve <term> --mission M (--sense N | --custom "definition" [--scope S])' : `one term at a time (got ${positionals.length}: ${positionals.join(', ')}); quote a multi-word term`);
  const written = positionals[0]!;
  if (normalizeSurface(written) === '') throw new UsageError('the term must not be blank');
  const givenMission = (values['mission'] as string | undefined)?.trim();
  if (!givenMission) throw new UsageError('--mission M is required (the mission whose log records the decision)');
  const senseArg = values['sense'] as string | undefined;
  const custom = values['custom'] as string | undefined;
  const scopeArg = values['scope'] as string | undefined;
  if (senseArg !== undefined && custom !== undefined) throw new UsageError('give either --sense N or --custom "definition", not both');
  if (scopeArg !== undefined && custom === undefined) throw new UsageError('--scope goes with --custom (the scope of the new sense)');
  if (scopeArg !== undefined && !isScopeId(scopeArg)) throw new UsageError(`--scope must be one of ${SCOPE_ORDER.join(', ')} (got '${scopeArg}')`);
  if (custom !== undefined && custom.trim() === '') throw new UsageError('--custom needs a definition (it must not be blank)');
  // (SPEC §3: a placeholder defines nothing and resolves nothing; recorded, it would close the term's questions unanswered.)
  if (custom !== undefined && isPlaceholderDefinition(custom, normalizeSurface(written))) throw new UsageError(shown`--custom "${custom.trim()}" is a placeholder, not a definition: write what the term means. Nothing was recorded.`);

  const root = requireWorkspaceRoot(values['root'] as string | undefined, io.cwd);
  // (A mission's folder name stands for the id its meta.json gives: its documents are checked as that mission.)
  // (A mission nothing names is said after the decision is recorded: one named only in front matter is possible.)
  const { missionId, known } = missionArgument(root, givenMission, io);
  const snapshot = await loadWorkspace(root);
  assertUsableConfig(snapshot, io.cwd);
  assertUsableGlossaries(snapshot, io.cwd);
  // (A skipped log line may be a decision: said, as check, replay and validate say it.)
  const skipped = eventLogProblems(snapshot);
  if (skipped.length > 0) io.stderr(formatProblems(skipped, io.cwd, PLAIN));
  // ("Cafés" names `café` where the mission's glossary holds that, as the word does in its documents.)
  const glossary = snapshot.glossaryFor(missionId);
  const term = termNamed(written, (named) => glossary.has(named) || openClarificationsOf(snapshot.replay, missionId, named).length > 0);
  const choices = choicesFor(snapshot, missionId, term);
  if (senseArg === undefined && custom === undefined) {
    throw new UsageError('give --sense N (one of the candidates below) or --custom "definition"', formatChoices(choices));
  }
  const open = openClarificationsOf(snapshot.replay, missionId, term);
  const conflictIds = conflictIdsToClose(open);
  const run = newRunContext();

  let drafts;
  let summary: string;
  if (senseArg !== undefined) {
    const index = parseSenseNumber(senseArg, choices);
    const sense = choices.candidates[index - 1]!;
    drafts = pickDrafts(run, missionId, conflictIds, term, sense, 'async');
    summary = shown`'${term}' now means "${sense.definition}" (${sense.scope}, sense ${index} of ${choices.candidates.length}) in mission ${missionId}.`;
  } else {
    const scope = (scopeArg as ScopeId | undefined) ?? DEFAULT_CUSTOM_SCOPE;
    const made = customDrafts(run, missionId, conflictIds, term, scope, custom!.trim(), 'async');
    drafts = made.drafts;
    summary = shown`'${term}' now means "${made.sense.definition}" (new sense in ${scope}) in mission ${missionId}.`;
  }

  // (Planned again inside the writers' lock: a clarification another writer closed meanwhile is not
  // closed twice, and one opened meanwhile is closed too.)
  const plannedOpen = new Set(open.map((o) => o.conflictId));
  let closed: string[] = [];
  const events = await appendOrFail(root, missionId, drafts, {
    underLock: (current) => {
      const now = resolutionsAgainst(drafts, current, plannedOpen, randomUUID);
      const openNow = new Set(openClarificationsOf(current, missionId, term).map((o) => o.conflictId));
      closed = now.flatMap((d) => (d.event_type === 'GlossaryClarificationResolved' && openNow.has(d.conflict_id) ? [d.conflict_id] : []));
      return now;
    },
  });
  const lines = [summary];
  if (closed.length > 0) lines.push(`Closed ${closed.length === 1 ? 'clarification' : 'clarifications'} ` + shown`${closed.join(', ')}.`);
  lines.push(shown`Recorded ${events.map((e) => e.event_type).join(', ')} in ${relativePath(io.cwd, eventLogPath(root, missionId))}.`);
  io.stdout(lines.join('\n'));
  if (!known) io.stderr(shown`warning: nothing here names mission ${missionId} (no kitty-specs/${missionId}/, no meta.json giving it, no event log before this one): check the name; check prints each spec's mission.`);
  return EXIT_OK;
}

function parseSenseNumber(raw: string, choices: TermChoices): number {
  const list = formatChoices(choices);
  if (choices.candidates.length === 0) {
    throw new UsageError(`'${choices.term}' has no sense in any glossary scope to pick from; define one with --custom "definition"`);
  }
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`--sense must be a number from 1 to ${choices.candidates.length} (got '${raw}')`, list);
  const n = Number(raw.trim());
  if (n < 1 || n > choices.candidates.length) throw new UsageError(`--sense ${raw} is out of range: '${choices.term}' has ${choices.candidates.length} candidate sense${choices.candidates.length === 1 ? '' : 's'}`, list);
  return n;
}

/** The numbered candidates, as the prompt and `check` list them. */
export function formatChoices(choices: TermChoices): string {
  if (choices.candidates.length === 0) return shown`'${choices.term}' has no candidate senses.`;
  const lines = [shown`Candidate senses of '${choices.term}' (${choices.scope}):`];
  const pinned = choices.pin?.sense;
  choices.candidates.forEach((s, i) => {
    const isPin = pinned !== undefined && pinned.scope === s.scope && pinned.definition === s.definition;
    lines.push(shown`  ${i + 1}. [${s.scope}] ${s.definition} (confidence: ${s.confidence})` + (isPin ? ' (pinned for this mission)' : ''));
  });
  return lines.join('\n');
}
