/** Placeholder definitions (SPEC §3), and terms whose own names begin with a marker word. */
import { describe, expect, it } from 'vitest';
import { placeholderKind } from '../../server/src/core/placeholder';

describe('placeholderKind', () => {
  it('a marker at the start, alone or before punctuation or words, is a placeholder of any other term', () => {
    for (const text of ['TODO', 'tbd.', 'TODO: define pci', 'FIXME - later', 'TBA', 'TODO define it']) {
      expect(placeholderKind(text, 'pci')).toBe('marker');
      expect(placeholderKind(text)).toBe('marker');
    }
    expect(placeholderKind('Todos are kept in the tracker', 'todo')).toBeUndefined();
  });

  it('a term named by a marker word is defined by a sentence beginning with its name; the marker alone is still a placeholder', () => {
    expect(placeholderKind('Todo item — one entry of a checklist', 'todo item')).toBeUndefined();
    expect(placeholderKind('FIXME comment: a source comment that flags code to repair', 'fixme comment')).toBeUndefined();
    expect(placeholderKind('TBD-2 test bench, the rig of lab 2', 'tbd-2 test bench')).toBeUndefined();
    expect(placeholderKind('TODO', 'todo item')).toBe('marker');
    expect(placeholderKind('tbd.', 'tbd-2 test bench')).toBe('marker');
    // A marker that is not the term's name is still a placeholder of it; so is the bare name.
    expect(placeholderKind('TODO: fill this in', 'todo item')).toBe('marker');
    expect(placeholderKind('TBD — ask Ana', 'todo list')).toBe('marker');
    expect(placeholderKind('TODO write this later', 'fixme comment')).toBe('marker');
    expect(placeholderKind('Todo item', 'todo item')).toBe('marker');
    expect(placeholderKind('todo item.', 'todo item')).toBe('marker');
    expect(placeholderKind('Todo items are kept on one page', 'todo item')).toBeUndefined();
    expect(placeholderKind('TODO itemize this later', 'todo item')).toBe('marker');
    expect(placeholderKind('TODO items', 'todo item')).toBe('marker');
    // Without the term, a definition beginning with a marker word reads as a placeholder.
    expect(placeholderKind('Todo item — one entry of a checklist')).toBe('marker');
  });

  it('empty, punctuation and a bracketed template hint', () => {
    expect(placeholderKind('  ', 'x')).toBe('empty');
    expect(placeholderKind('…', 'x')).toBe('empty');
    expect(placeholderKind('[What it represents]', 'x')).toBe('template');
    expect(placeholderKind('A real definition', 'x')).toBeUndefined();
  });
});
