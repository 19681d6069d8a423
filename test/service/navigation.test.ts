import { afterEach, describe, expect, it } from 'vitest';
import { gateStatusLens, gateStatusTitle } from '../../server/src/service/codeLens';
import { completeSurfaces } from '../../server/src/service/completion';
import { definitionAt } from '../../server/src/service/definition';
import { checkDocument, makeWorkspace, RANGES, SPEC, SPEC_MD, TEAM, settingsWith, type TempWorkspace } from './fixtures';

let ws: TempWorkspace;
afterEach(() => ws?.remove());

describe('go to definition', () => {
  it('goes from a term to its entries in the seed YAML, in resolution order', async () => {
    ws = makeWorkspace();
    const doc = await checkDocument(ws);
    const locations = definitionAt(doc, RANGES.workspace2.start);
    expect(locations.slice(0, 2)).toEqual([
      { uri: ws.uri(TEAM), range: { start: { line: 2, character: 4 }, end: { line: 6, character: 0 } } },
      { uri: ws.uri(TEAM), range: { start: { line: 7, character: 4 }, end: { line: 11, character: 0 } } },
    ]);
    expect(locations[2]!.uri).toMatch(/glossaries\/spec_kitty_core\.yaml$/);
  });

  it('goes from a synonym to avoid to the preferred term, and nowhere from an unknown term', async () => {
    ws = makeWorkspace();
    const doc = await checkDocument(ws);
    expect(definitionAt(doc, RANGES.workDir.start)).toEqual([{ uri: ws.uri(TEAM), range: { start: { line: 12, character: 4 }, end: { line: 17, character: 0 } } }]);
    expect(definitionAt(doc, RANGES.qzx.start)).toEqual([]);
    expect(definitionAt(doc, { line: 4, character: 1 })).toEqual([]);
  });
});

describe('completion', () => {
  it('offers glossary surfaces that start with the word being typed, with scope and definitions', async () => {
    ws = makeWorkspace();
    const doc = await checkDocument(ws);
    const list = completeSurfaces(doc.glossary, 'Use the Wor', { line: 9, character: 11 });
    const workspace = list.items.find((i) => i.label === 'workspace')!;
    expect(workspace).toMatchObject({
      detail: 'team_domain, spec_kitty_core · 3 senses',
      textEdit: { range: { start: { line: 9, character: 8 }, end: { line: 9, character: 11 } }, newText: 'Workspace' },
    });
    expect(workspace.documentation).toMatchObject({ kind: 'markdown' });
    expect((workspace.documentation as { value: string }).value.split('\n')[0]).toBe('1. Git worktree directory for a work package (team_domain, active)');
    expect(list.items.map((i) => i.label)).toContain('work package');
    expect(list.items.every((i) => String(i.label).startsWith('wor') || String(i.label).includes(' wor'))).toBe(true);
    const single = completeSurfaces(doc.glossary, 'work', { line: 0, character: 4 }).items.find((i) => i.label === 'worktree')!;
    expect(single.detail).toBe('team_domain, spec_kitty_core · 2 senses');
  });

  it('replaces the words typed of a multi-word surface ("work pa" → "work package", never "work work package"), every item from one start', async () => {
    ws = makeWorkspace();
    const doc = await checkDocument(ws);
    const line = 'Each Work pa';
    const list = completeSurfaces(doc.glossary, line, { line: 3, character: line.length });
    expect(list.items.map((i) => i.label)).toContain('work package');
    expect(list.items.every((i) => String(i.label).startsWith('work pa'))).toBe(true);
    const item = list.items.find((i) => i.label === 'work package')!;
    expect(item.textEdit).toEqual({ range: { start: { line: 3, character: 5 }, end: { line: 3, character: 12 } }, newText: 'Work package' });
    expect(item.filterText).toBeUndefined(); // Neovim's omnifunc takes the start from the edits only without it
    const completed = line.slice(0, 5) + (item.textEdit as { newText: string }).newText;
    expect(completed).toBe('Each Work package');
    // After a space, the words before it still count.
    const spaced = completeSurfaces(doc.glossary, 'a work ', { line: 0, character: 7 }).items.find((i) => i.label === 'work package')!;
    expect(spaced.textEdit).toMatchObject({ range: { start: { line: 0, character: 2 } }, newText: 'work package' });
    // One word still matches a later word of a surface, replacing only that word.
    const later = completeSurfaces(doc.glossary, 'the pack', { line: 0, character: 8 }).items.find((i) => i.label === 'work package')!;
    expect(later.textEdit).toMatchObject({ range: { start: { line: 0, character: 4 } }, newText: 'work package' });
  });

  it('offers every surface on an empty prefix', async () => {
    ws = makeWorkspace();
    const doc = await checkDocument(ws);
    const all = completeSurfaces(doc.glossary, '', { line: 0, character: 0 });
    expect(all.items.length).toBe([...doc.glossary.surfaces()].length);
    expect(all.isIncomplete).toBe(false);
  });
});

describe('gate status code lens', () => {
  it('counts conflicts by severity and says generation is blocked', async () => {
    ws = makeWorkspace();
    const doc = await checkDocument(ws);
    expect(gateStatusLens(doc)).toEqual([
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, command: { title: 'Glossary: 2 high · 0 medium · 2 low — generation blocked (strictness medium)', command: '' } },
    ]);
  });

  it('says generation is allowed under strictness off, with no conflicts, and when checking is disabled', async () => {
    ws = makeWorkspace();
    expect(gateStatusTitle(await checkDocument(ws, SPEC, undefined, settingsWith({ strictness: 'off' })))).toBe('Glossary: 2 high · 0 medium · 2 low — generation allowed (strictness off)');
    expect(gateStatusTitle(await checkDocument(ws, SPEC, '# Clean\n\nNothing special here.\n'))).toBe('Glossary: no conflicts — generation allowed (strictness medium)');
    expect(gateStatusTitle(await checkDocument(ws, SPEC, SPEC_MD.replace('critical_step: true', 'glossary_check: disabled')))).toBe('Glossary: checking disabled for this document');
  });
});
