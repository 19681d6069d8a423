import { afterEach, describe, expect, it } from 'vitest';
import type { MarkupContent } from 'vscode-languageserver-types';
import { hoverAt } from '../../server/src/service/hover';
import type { CheckedDocument } from '../../server/src/service/types';
import { checkDocument, makeWorkspace, MISSION, RANGES, SPEC, SPEC_MD, TEAM, type TempWorkspace } from './fixtures';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

const text = (doc: CheckedDocument, at: { line: number; character: number }) => (hoverAt(doc, at)!.contents as MarkupContent).value;

describe('hover', () => {
  it('lists every sense in every scope with status, confidence and provenance, and says the term is ambiguous', async () => {
    ws = makeWorkspace();
    const doc = await checkDocument(ws);
    const hover = hoverAt(doc, { line: 5, character: 42 })!;
    expect(hover.range).toEqual(RANGES.workspace1);
    expect((hover.contents as MarkupContent).kind).toBe('markdown');
    const lines = (hover.contents as MarkupContent).value.split('\n');
    expect(lines.slice(0, 3)).toEqual(['### workspace', '', `**Ambiguous**: 2 active senses in team_domain and no pin for mission 041-mission (${MISSION}); pick one with a quick fix.`]);
    expect(lines).toContain('- **team_domain** · active · confidence 0.9 — **candidate 1**  ');
    expect(lines).toContain('  Git worktree directory for a work package  ');
    expect(lines).toContain(`  _[.kittify/glossaries/team_domain.yaml:3](${ws.uri(TEAM)}#L3)_`);
    expect(lines).toContain('- **team_domain** · active · confidence 0.7 — **candidate 2**  ');
    expect(lines).toContain(`  _[.kittify/glossaries/team_domain.yaml:8](${ws.uri(TEAM)}#L8)_`);
    expect(lines).toContain('- **spec_kitty_core** · active · confidence 0.85 — **shadowed by team_domain**  ');
    expect(lines.some((l) => l.startsWith('  _[bundled core glossary spec_kitty_core.yaml:'))).toBe(true);
  });

  it('shows the pin: who chose which sense and when; the other sense is not chosen', async () => {
    ws = makeWorkspace();
    ws.write(
      `.kittify/events/glossary/${MISSION}.events.jsonl`,
      JSON.stringify({
        actor: { actor_id: 'user:alice', actor_type: 'human', display_name: 'alice' },
        conflict_id: 'c-1',
        event_id: '09f7283a-b4c5-40d1-a2f3-6475819a0b13',
        event_type: 'GlossaryClarificationResolved',
        lamport_clock: 1,
        mission_id: MISSION,
        provenance: { actor_id: 'user:alice', source: 'user_clarification', timestamp: '2026-02-16T12:20:00.000Z' },
        resolution_mode: 'interactive',
        run_id: 'lsp-x',
        selected_sense: { confidence: 0.7, definition: 'VS Code workspace configuration file', scope: 'team_domain', surface: 'workspace' },
        term_surface: 'workspace',
        timestamp: '2026-02-16T12:06:00.000Z',
      }) + '\n',
    );
    const doc = await checkDocument(ws);
    expect(doc.report.findings.map((f) => f.term)).toEqual(['work dir', 'qzx']);
    const value = text(doc, RANGES.workspace1.start);
    // Who decided what, when, for which mission (its folder name, then its id), and the event.
    expect(value).toContain(`**Pinned** for mission 041-mission (${MISSION}) by user:alice on 2026-02-16 12:06 UTC: "VS Code workspace configuration file" (team_domain).`);
    expect(value).toContain('Recorded by event 09f7283a-b4c5-40d1-a2f3-6475819a0b13 (conflict c-1).');
    expect(value).toContain('- **team_domain** · active · confidence 0.7 — **pinned**  ');
    expect(value).toContain('- **team_domain** · active · confidence 0.9 — **not chosen**  ');
  });

  it('explains resolution by scope precedence and lists shadowed and deprecated senses', async () => {
    ws = makeWorkspace({
      '.kittify/glossaries/mission_local.yaml': 'terms:\n  - surface: workspace\n    definition: The checkout team folder\n    status: draft\n  - surface: workspace\n    definition: Old meaning\n    status: deprecated\n',
    });
    const value = text(await checkDocument(ws), RANGES.workspace1.start);
    expect(value).toContain('**Active**: the mission_local sense, resolved by scope precedence (mission_local is the first scope with a non-deprecated sense).');
    expect(value).toContain('- **mission_local** · draft · confidence 1 — **active**  ');
    expect(value).toContain('- **mission_local** · deprecated · confidence 1  ');
    expect(value).toContain('- **team_domain** · active · confidence 0.9 — **shadowed by mission_local**  ');
  });

  it('shows the preferred term for a synonym to avoid, and says when a term is unknown', async () => {
    ws = makeWorkspace();
    const doc = await checkDocument(ws);
    const synonym = text(doc, RANGES.workDir.start);
    expect(synonym).toContain("**Synonym to avoid**: write 'worktree' instead (team_domain).");
    expect(synonym).toContain("Senses of 'worktree':");
    expect(synonym).toContain('- **team_domain** · active · confidence 0.95 — **use this term instead**  ');
    expect(text(doc, RANGES.qzx.end)).toContain("**Unknown**: no glossary scope defines 'qzx'.");
    expect(text(doc, RANGES.qzx.end)).toContain('Extracted by acronym (confidence 0.8)');
  });

  it('shows a sense added by an event with its actor and time', async () => {
    ws = makeWorkspace({ [SPEC]: SPEC_MD + 'The frobnicator hums.\n' });
    ws.write(
      `.kittify/events/glossary/${MISSION}.events.jsonl`,
      JSON.stringify({
        actor: { actor_id: 'user:alice', actor_type: 'human', display_name: 'alice' },
        event_id: '1a08394b-c5d6-41e2-b304-75869a0b1c24',
        event_type: 'GlossarySenseUpdated',
        lamport_clock: 1,
        mission_id: MISSION,
        new_sense: { confidence: 1.0, definition: 'A device that frobs widgets', scope: 'team_domain', status: 'active', surface: 'frobnicator' },
        provenance: { actor_id: 'user:alice', source: 'user_clarification', timestamp: '2026-02-16T12:25:00.000Z' },
        run_id: 'lsp-x',
        scope: 'team_domain',
        term_surface: 'frobnicator',
        timestamp: '2026-02-16T12:07:00.000Z',
        update_type: 'create',
      }) + '\n',
    );
    const doc = await checkDocument(ws);
    const at = doc.report.candidates.find((c) => c.surface === 'frobnicator')!.occurrences[0]!.start;
    expect(text(doc, at)).toContain('  _added by user:alice at 2026-02-16T12:07:00.000Z (user_clarification, event 1a08394b)_');
  });

  it('answers null away from any term, and plain text for clients without markdown', async () => {
    ws = makeWorkspace();
    const doc = await checkDocument(ws);
    expect(hoverAt(doc, { line: 4, character: 0 })).toBeNull();
    const plain = hoverAt(doc, RANGES.workspace1.start, false)!;
    expect(plain.contents).toMatchObject({ kind: 'plaintext' });
    expect((plain.contents as MarkupContent).value).toContain('Ambiguous: 2 active senses in team_domain');
  });
});
