/**
 * JSON written piece by piece. `JSON.stringify` of a whole `check` result builds one string, and
 * V8 cannot hold a string longer than about 2^29 characters (512 MiB): half a million findings
 * ended in `RangeError: Invalid string length`. Here the big arrays (documents, findings, SARIF
 * results) are marked `StreamedArray` and their items are made and serialized one at a time, so
 * the longest string ever built is one item's JSON; everything else goes through
 * `JSON.stringify` as before. Joined, the pieces are byte-identical to
 * `JSON.stringify(value, null, 2)` of the same value with the streamed parts filled in
 * (test/property/jsonStream.property.test.ts checks it on arbitrary values).
 */

const INDENT = '  ';

/** An array whose items are produced while it is written (an iterable, read once). */
export class StreamedArray {
  constructor(readonly items: Iterable<unknown>) {}

  /** A streamed value inside a plain one would be serialized as `{}` by JSON.stringify: refuse. */
  toJSON(): never {
    throw new TypeError('a StreamedArray must sit inside a StreamedArray or StreamedObject');
  }
}

/** An object written key by key, so a streamed value can sit inside it. Key order is entry order. */
export class StreamedObject {
  constructor(readonly entries: Iterable<readonly [string, unknown]>) {}

  toJSON(): never {
    throw new TypeError('a StreamedObject must sit inside a StreamedArray or StreamedObject');
  }
}

export const streamArray = (items: Iterable<unknown>): StreamedArray => new StreamedArray(items);

/** The properties of `record`, in its own key order (the order JSON.stringify would use). */
export const streamObject = (record: Record<string, unknown>): StreamedObject => new StreamedObject(Object.entries(record));

/**
 * The text of `JSON.stringify(value, null, 2)`, in pieces. `indent` is the indentation of the line
 * `value` starts on (for nested calls).
 */
export function* jsonPieces(value: unknown, indent = ''): Generator<string, void, undefined> {
  if (value instanceof StreamedArray) {
    const inner = indent + INDENT;
    let first = true;
    for (const item of value.items) {
      yield (first ? '[\n' : ',\n') + inner;
      first = false;
      // In an array, what JSON.stringify cannot represent (undefined, a function) is `null`.
      yield* isStreamed(item) ? jsonPieces(item, inner) : [leaf(item, inner) ?? 'null'];
    }
    yield first ? '[]' : `\n${indent}]`;
  } else if (value instanceof StreamedObject) {
    const inner = indent + INDENT;
    let first = true;
    for (const [key, item] of value.entries) {
      // In an object, such a property is left out.
      const text = isStreamed(item) ? undefined : leaf(item, inner);
      if (!isStreamed(item) && text === undefined) continue;
      yield `${first ? '{\n' : ',\n'}${inner}${JSON.stringify(key)}: `;
      first = false;
      if (text !== undefined) yield text;
      else yield* jsonPieces(item, inner);
    }
    yield first ? '{}' : `\n${indent}}`;
  } else {
    yield leaf(value, indent) ?? 'null';
  }
}

function isStreamed(value: unknown): value is StreamedArray | StreamedObject {
  return value instanceof StreamedArray || value instanceof StreamedObject;
}

/**
 * `JSON.stringify(value, null, 2)` as it reads when `value` starts on a line indented by `indent`
 * (two spaces per level). Undefined when JSON has no text for the value (undefined, a function).
 * Nested values are indented by JSON.stringify itself: the value is wrapped in one array per
 * level and the wrappers' brackets are sliced off again, which costs less than re-indenting the
 * text line by line (half a million findings spend most of their time here).
 */
function leaf(value: unknown, indent: string): string | undefined {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  const levels = indent.length / INDENT.length;
  if (levels === 0) return JSON.stringify(value, null, INDENT.length) as string | undefined;
  let wrapped: unknown = value;
  for (let i = 0; i < levels; i++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, INDENT.length);
  // Level i (0-based) opens with `[` + newline after 2i spaces and closes with a newline, 2i
  // spaces and `]`: 2i + 2 characters each side. The value's own first line is then indented by
  // `indent`, which the caller has written already.
  const brackets = levels * (levels + 1);
  return text.slice(brackets + indent.length, text.length - brackets);
}
