/**
 * What the language server's cache keys read of the missions' spec vocabularies
 * (node/specVocabularies.ts): a change of one mission's spec changes that mission's version only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NODE_FILE_SYSTEM } from '../../server/src/node/fileSystem';
import { SpecVocabularies, specCandidates } from '../../server/src/node/specVocabularies';
import { tempWorkspace, type TempWorkspace } from '../helpers/workspace';

const spec = (entity: string) => `# Spec\n\n## Key Entities\n\n- **${entity}**: a thing this mission defines\n`;

let ws: TempWorkspace;
afterEach(() => ws?.remove());

function setUp(): { vocabularies: SpecVocabularies; read: () => void } {
  ws = tempWorkspace({ 'kitty-specs/001-a/spec.md': spec('Quarkle'), 'kitty-specs/001-a/plan.md': '# Plan\n', 'kitty-specs/002-b/spec.md': spec('Zorblax'), 'kitty-specs/002-b/plan.md': '# Plan\n' });
  const vocabularies = new SpecVocabularies();
  const read = () => {
    expect(vocabularies.forDocument(ws.root, ws.path('kitty-specs/001-a/plan.md'), '001-a', new Map())).toHaveLength(1);
    expect(vocabularies.forDocument(ws.root, ws.path('kitty-specs/002-b/plan.md'), '002-b', new Map())).toHaveLength(1);
  };
  read();
  return { vocabularies, read };
}

describe('SpecVocabularies.versionFor', () => {
  it("a spec changed on disk: its mission's version moves, the other mission's stays", () => {
    const { vocabularies } = setUp();
    const a = vocabularies.versionFor('001-a');
    const b = vocabularies.versionFor('002-b');
    ws.write('kitty-specs/001-a/spec.md', spec('Flumph'));
    expect(vocabularies.reread(ws.root, ws.path('kitty-specs/001-a/spec.md'), new Map())).toBe(true);
    expect(vocabularies.versionFor('001-a')).not.toBe(a);
    expect(vocabularies.versionFor('002-b')).toBe(b);
    // Read again as it was: nothing changes.
    const after = vocabularies.versionFor('001-a');
    expect(vocabularies.reread(ws.root, ws.path('kitty-specs/001-a/spec.md'), new Map())).toBe(false);
    expect(vocabularies.versionFor('001-a')).toBe(after);
  });

  it("an open spec's buffer that says something else: its mission's version only", () => {
    const { vocabularies } = setUp();
    const b = vocabularies.versionFor('002-b');
    const a = vocabularies.versionFor('001-a');
    const current = vocabularies.current(ws.path('kitty-specs/001-a/spec.md'))!;
    const edited = new SpecVocabularies();
    ws.write('kitty-specs/001-a/spec.md', spec('Flumph'));
    const source = edited.forDocument(ws.root, ws.path('kitty-specs/001-a/plan.md'), '001-a', new Map())[0]!;
    expect(vocabularies.update({ ...source, missionId: current.missionId }, 2, undefined)).toBe(true);
    expect(vocabularies.versionFor('001-a')).not.toBe(a);
    expect(vocabularies.versionFor('002-b')).toBe(b);
  });

  it('specs forgotten (a meta.json changed) or one whose mission was not known: every mission', () => {
    const { vocabularies } = setUp();
    const a = vocabularies.versionFor('001-a');
    const b = vocabularies.versionFor('002-b');
    vocabularies.clear(ws.root);
    expect(vocabularies.versionFor('001-a')).not.toBe(a);
    expect(vocabularies.versionFor('002-b')).not.toBe(b);
    expect(vocabularies.versionFor('003-never-read')).not.toBe('0.0');
  });

  it("a folder loaded again: a kept spec whose meta.json now names another mission is forgotten, a change for both missions", () => {
    const { vocabularies } = setUp();
    const b = vocabularies.versionFor('002-b');
    const a = vocabularies.versionFor('001-a');
    // Nothing moved: nothing changes.
    vocabularies.recheckMissions(ws.root, new Map());
    expect([vocabularies.versionFor('001-a'), vocabularies.versionFor('002-b')]).toEqual([a, b]);
    const moved = vocabularies.versionFor('01MOVED');
    ws.write('kitty-specs/001-a/meta.json', JSON.stringify({ mission_id: '01MOVED' }));
    vocabularies.recheckMissions(ws.root, new Map());
    expect(vocabularies.versionFor('001-a')).not.toBe(a);
    expect(vocabularies.versionFor('01MOVED')).not.toBe(moved);
    expect(vocabularies.versionFor('002-b')).toBe(b);
    expect(vocabularies.current(ws.path('kitty-specs/001-a/spec.md'))).toBeUndefined();
    // Read again, it is the moved mission's.
    expect(vocabularies.forDocument(ws.root, ws.path('kitty-specs/001-a/plan.md'), '01MOVED', new Map())).toMatchObject([{ missionId: '01MOVED' }]);
  });
});

describe('SpecVocabularies: every change told (`changed`)', () => {
  it('a newer buffer read for another document, a spec read before and let go, a change on disk: each told with the spec, nothing told for a read that changes nothing', () => {
    ws = tempWorkspace({ 'kitty-specs/001-a/spec.md': spec('Quarkle'), 'kitty-specs/001-a/plan.md': '# Plan\n' });
    const specFile = ws.path('kitty-specs/001-a/spec.md');
    const plan = ws.path('kitty-specs/001-a/plan.md');
    let buffer: { text: string; version: number } | undefined;
    const told: string[] = [];
    const vocabularies = new SpecVocabularies({ openText: (file) => (file === specFile ? buffer : undefined), changed: (file) => told.push(file) });
    const forPlan = () => vocabularies.forDocument(ws.root, plan, '001-a', new Map());

    expect(forPlan()).toHaveLength(1);
    expect(told).toEqual([]);
    // The spec's buffer, edited: read first for the plan (before the spec's own check).
    buffer = { text: spec('Flumph'), version: 2 };
    forPlan();
    expect(told).toEqual([specFile]);
    // Its own check then reads what was already taken: no second change.
    const flumph = vocabularies.current(specFile)!;
    expect(vocabularies.update(flumph, 2, undefined)).toBe(false);
    expect(told).toEqual([specFile]);

    // Closed (the file counts again: it says something else), then opened and edited.
    buffer = undefined;
    expect(vocabularies.reread(ws.root, specFile, new Map())).toBe(true);
    expect(told).toEqual([specFile, specFile]);
    expect(vocabularies.current(specFile), 'not kept once closed').toBeUndefined();
    const reopened = new SpecVocabularies({ openText: () => ({ text: spec('Blorpt'), version: 5 }) });
    const blorpt = reopened.forDocument(ws.root, plan, '001-a', new Map())[0]!;
    expect(vocabularies.update(blorpt, 5, undefined), 'what it says now against what was read before it closed').toBe(true);
    expect(told).toEqual([specFile, specFile, specFile]);
  });
});

describe('SpecVocabularies: changes after a spec was let go, or while it was missing', () => {
  it('a spec changed on disk twice after it was let go: each change compared with what was read before', () => {
    ws = tempWorkspace({ 'kitty-specs/001-a/spec.md': spec('Quarkle'), 'kitty-specs/001-a/plan.md': '# Plan\n' });
    const specFile = ws.path('kitty-specs/001-a/spec.md');
    const told: string[] = [];
    const vocabularies = new SpecVocabularies({ changed: (file) => told.push(file) });
    expect(vocabularies.forDocument(ws.root, ws.path('kitty-specs/001-a/plan.md'), '001-a', new Map())).toHaveLength(1);
    // A change that says the same (a line elsewhere): read, compared, let go.
    ws.write('kitty-specs/001-a/spec.md', `${spec('Quarkle')}\nMore words.\n`);
    expect(vocabularies.reread(ws.root, specFile, new Map())).toBe(false);
    expect(vocabularies.current(specFile)).toBeUndefined();
    const version = vocabularies.versionFor('001-a');
    // The next one says something else: still compared, and told.
    ws.write('kitty-specs/001-a/spec.md', spec('Flumph'));
    expect(vocabularies.reread(ws.root, specFile, new Map())).toBe(true);
    expect(vocabularies.versionFor('001-a')).not.toBe(version);
    expect(told).toEqual([specFile]);
  });

  it('a spec the checks found missing, then written with a Domain Language section and read for another document: told', () => {
    ws = tempWorkspace({ 'kitty-specs/001-a/plan.md': '# Plan\n' });
    const specFile = ws.path('kitty-specs/001-a/spec.md');
    const told: string[] = [];
    let buffer: { text: string; version: number } | undefined;
    const vocabularies = new SpecVocabularies({ openText: (file) => (file === specFile ? buffer : undefined), changed: (file) => told.push(file) });
    const forPlan = () => vocabularies.forDocument(ws.root, ws.path('kitty-specs/001-a/plan.md'), '001-a', new Map());
    expect(forPlan()).toEqual([]);
    buffer = { text: spec('Blorpt'), version: 1 };
    expect(forPlan()).toHaveLength(1);
    expect(told).toEqual([specFile]);
  });
});

describe('mission ids that name no folder', () => {
  it('an id of 300 characters or with a NUL (front matter, meta.json) is looked up nowhere and breaks nothing', () => {
    ws = tempWorkspace({ 'docs/notes.md': '# Notes\n', 'kitty-specs/001-a/spec.md': spec('Quarkle') });
    const vocabularies = new SpecVocabularies();
    for (const id of ['x'.repeat(300), 'a\u0000b', 'é'.repeat(200)]) {
      expect(specCandidates(ws.root, ws.path('docs/notes.md'), id)).toEqual([ws.path('docs/spec.md'), ws.path('spec.md')]);
      expect(vocabularies.forDocument(ws.root, ws.path('docs/notes.md'), id, new Map())).toEqual([]);
    }
    // The file system answers "no such file" for such names rather than throwing.
    expect(NODE_FILE_SYSTEM.stat(ws.path(`kitty-specs/${'x'.repeat(300)}/spec.md`))).toBeUndefined();
    expect(NODE_FILE_SYSTEM.stat(ws.path('kitty-specs/a\u0000b/spec.md'))).toBeUndefined();
  });
});
