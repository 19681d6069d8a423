/**
 * The block scanner's state at a line start, as a small number: the open containers (block
 * quotes, list items with their content indent) and the open leaf that spans lines (a fence, an
 * indented code block, an HTML block, a table). Equal numbers are equal states, so the incremental
 * checker can tell where masking after an edit meets the previous masking again. A document keeps
 * one table of them across edits (`BlockStates`); the numbers mean nothing outside it.
 */

/** Kinds of container. */
export const QUOTE = 1;
export const ITEM = 2;

/** Kinds of open leaf. */
export const NO_LEAF = 0;
export const PARAGRAPH = 1;
export const FENCE = 2;
export const INDENTED_CODE = 3;
export const HTML = 4;
export const TABLE = 5;
/** A paragraph that may start with link reference definitions (see definitions.ts). */
export const DEFINITION = 6;

/** A state spelled out. */
export interface BlockStateParts {
  /**
   * Per open container, outermost first: its kind, and for a list item its content indent, whether
   * it holds a block yet and its marker's last character (the bullet, or the `.` or `)` of a number).
   */
  kinds: number[];
  widths: number[];
  hasChild: boolean[];
  markers: number[];
  leaf: number;
  /** Fence: the character and the opening's length; HTML block: its kind; table: its columns. */
  leafA: number;
  leafB: number;
}

/** The state with nothing open (a document's start). */
export const EMPTY_STATE = 0;

export class BlockStates {
  private readonly ids = new Map<string, number>([['', EMPTY_STATE]]);
  private readonly keys: string[] = [''];

  /** The number of a state. */
  idOf(parts: BlockStateParts, depth: number): number {
    let key = '';
    for (let i = 0; i < depth; i++) {
      key += parts.kinds[i] === QUOTE ? 'q' : `i${parts.widths[i]}${parts.hasChild[i] ? '+' : '-'}${parts.markers[i]}`;
      key += ',';
    }
    if (parts.leaf !== NO_LEAF) key += `${parts.leaf}:${parts.leafA}:${parts.leafB}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.ids.set(key, id);
      this.keys.push(key);
    }
    return id;
  }

  /** The state numbered `id` (by `idOf` of this table), written into `parts`; returns its depth. */
  restore(id: number, parts: BlockStateParts): number {
    const key = this.keys[id];
    if (key === undefined) throw new Error(`Unknown block state ${id}`);
    const fields = key.split(',');
    const leaf = fields.pop()!;
    fields.forEach((field, i) => {
      if (field === 'q') {
        parts.kinds[i] = QUOTE;
        parts.widths[i] = 0;
        parts.hasChild[i] = true;
        parts.markers[i] = 0;
      } else {
        parts.kinds[i] = ITEM;
        const sign = field.search(/[+-]/);
        parts.widths[i] = Number(field.slice(1, sign));
        parts.hasChild[i] = field[sign] === '+';
        parts.markers[i] = Number(field.slice(sign + 1));
      }
    });
    if (leaf) {
      const [kind, a, b] = leaf.split(':').map(Number);
      parts.leaf = kind!;
      parts.leafA = a!;
      parts.leafB = b!;
    } else {
      parts.leaf = NO_LEAF;
      parts.leafA = parts.leafB = 0;
    }
    return fields.length;
  }
}
