/** The VS Code client's own logic, without VS Code: quick-fix companions, gate status, restarts. */

import { describe, expect, it } from 'vitest';
import { ClientCommands, defineInSpecArgs, definitionCompanions, draftDefineArgs, isCommandResult, validateDefinition, withDefinitionTitle, type ActionLike } from '../../client/src/commands';
import { DOCUMENT_SELECTOR, GLOSSARY_LANGUAGE_ID, isSpecDocument } from '../../client/src/documents';
import { gateIcon, gateLensTitle, gateStatusText } from '../../client/src/gateStatus';
import { needsRestart, readClientSettings, RESTART_SETTINGS } from '../../client/src/settings';
import { codeActionsFor } from '../../server/src/service/codeActions';
import { Commands, type FindingData } from '../../server/src/shared/protocol';

const uri = 'file:///ws/kitty-specs/001/spec.md';
const finding: FindingData = {
  kind: 'finding',
  missionId: '001',
  stepId: 'spec',
  term: 'workspace',
  conflictType: 'ambiguous',
  severity: 'high',
  scope: 'team_domain',
  candidates: [
    { surface: 'workspace', scope: 'team_domain', definition: 'Git worktree directory for a work package', confidence: 0.9 },
    { surface: 'workspace', scope: 'team_domain', definition: 'VS Code workspace configuration file', confidence: 0.7 },
  ],
};
const range = { start: { line: 5, character: 5 }, end: { line: 5, character: 14 } };
/** The server's own quick fixes for an ambiguous term, as the client receives them. */
const serverActions = codeActionsFor(uri, [{ range, message: 'x', source: 'spec-glossary', code: 'ambiguous', data: finding }]) as ActionLike[];

describe('"Define … with a definition…" companions', () => {
  it('follow each draft "Define …" action of the server, once per scope', () => {
    const companions = definitionCompanions([...serverActions, ...serverActions]);
    const titles = serverActions.map((a) => a.title);
    expect(companions.map(([index]) => titles[index])).toEqual(["Define 'workspace' in the mission glossary", "Define 'workspace' in the team glossary"]);
    expect(companions.map(([, args]) => withDefinitionTitle(args))).toEqual([
      "Define 'workspace' in the mission glossary with a definition…",
      "Define 'workspace' in the team glossary with a definition…",
    ]);
    expect(companions[1]![1]).toMatchObject({ uri, missionId: '001', stepId: 'spec', term: 'workspace', scope: 'team_domain' });
  });

  it('are not offered for actions that already carry a definition, or other commands', () => {
    const withDefinition: ActionLike = { title: 'x', command: { command: Commands.defineTerm, arguments: [{ uri, missionId: '001', term: 't', scope: 'team_domain', definition: 'd' }] } };
    expect(draftDefineArgs(withDefinition)).toBeUndefined();
    expect(draftDefineArgs({ title: 'x', command: { command: Commands.selectSense, arguments: [{ uri }] } })).toBeUndefined();
    expect(draftDefineArgs({ title: 'x', command: Commands.defineTerm })).toBeUndefined();
    expect(draftDefineArgs({ title: 'x', command: { command: Commands.defineTerm, arguments: [{ uri, missionId: '001', term: 't', scope: 'audience_domain' }] } })).toBeUndefined();
  });

  it('"Define … in this spec\'s Domain Language" asks for the definition only when the server action has none', () => {
    const args = { uri, specUri: 'file:///ws/kitty-specs/001/spec.md', missionId: '001', term: 'Quarkle' };
    expect(defineInSpecArgs({ title: "Define 'Quarkle' in this spec's Domain Language", command: { command: Commands.defineInSpec, arguments: [args] } })).toEqual(args);
    expect(defineInSpecArgs({ title: 'x', command: { command: Commands.defineInSpec, arguments: [{ ...args, definition: 'a card' }] } })).toBeUndefined();
    expect(defineInSpecArgs({ title: 'x', command: { command: Commands.defineTerm, arguments: [args] } })).toBeUndefined();
  });

  it('need a non-blank definition', () => {
    expect(validateDefinition('   ')).toMatch(/definition/);
    expect(validateDefinition('A git worktree')).toBeUndefined();
  });

  it('use client command ids in the specGlossary namespace that the server does not own', () => {
    for (const id of Object.values(ClientCommands)) {
      expect(id.startsWith('specGlossary.')).toBe(true);
      expect(Object.values(Commands)).not.toContain(id);
    }
  });

  it('recognize command results', () => {
    expect(isCommandResult({ ok: false, message: 'no' })).toBe(true);
    expect(isCommandResult(null)).toBe(false);
    expect(isCommandResult({ ok: 'yes' })).toBe(false);
  });
});

describe('gate status', () => {
  it('is the title of the code lens on the first line', () => {
    const lens = { range: { start: { line: 0 } }, command: { title: 'Glossary: 1 high · 0 medium · 0 low — generation blocked (strictness medium)' } };
    expect(gateLensTitle([{ range: { start: { line: 3 } }, command: { title: 'other' } }, lens])).toBe(lens.command.title);
    expect(gateLensTitle([])).toBeUndefined();
    expect(gateLensTitle(null)).toBeUndefined();
  });

  it('gets its icon from the diagnostics', () => {
    expect(gateIcon({ errors: 1, warnings: 2, others: 0 })).toBe('$(error)');
    expect(gateIcon({ errors: 0, warnings: 2, others: 0 })).toBe('$(warning)');
    expect(gateIcon({ errors: 0, warnings: 0, others: 3 })).toBe('$(info)');
    expect(gateStatusText('Glossary: no conflicts', { errors: 0, warnings: 0, others: 0 })).toBe('$(check) Glossary: no conflicts');
  });
});

describe('documents and settings', () => {
  it('hands markdown, seed glossaries, config and event logs to the server', () => {
    expect(DOCUMENT_SELECTOR).toContainEqual({ scheme: 'file', language: 'markdown' });
    expect(DOCUMENT_SELECTOR).toContainEqual({ scheme: 'file', language: GLOSSARY_LANGUAGE_ID });
    expect(DOCUMENT_SELECTOR).toContainEqual({ scheme: 'file', pattern: '**/.kittify/glossaries/*.yaml' });
    expect(isSpecDocument({ languageId: 'markdown', uri: { scheme: 'file', path: '/w/spec.md' } })).toBe(true);
    expect(isSpecDocument({ languageId: 'mdx', uri: { scheme: 'file', path: '/w/spec.MDX' } })).toBe(true);
    expect(isSpecDocument({ languageId: GLOSSARY_LANGUAGE_ID, uri: { scheme: 'file', path: '/w/.kittify/glossaries/team_domain.yaml' } })).toBe(false);
  });

  it('restarts the server only for the settings that decide how it runs', () => {
    expect(RESTART_SETTINGS).toEqual(['specGlossary.enable', 'specGlossary.server.path']);
    expect(needsRestart((section) => section === 'specGlossary.server.path')).toBe(true);
    expect(needsRestart((section) => section === 'specGlossary.strictness')).toBe(false);
    expect(readClientSettings(() => undefined)).toEqual({ enable: true, serverPath: '' });
    expect(readClientSettings((key) => (key === 'enable' ? false : '  /opt/server.cjs '))).toEqual({ enable: false, serverPath: '/opt/server.cjs' });
  });
});
