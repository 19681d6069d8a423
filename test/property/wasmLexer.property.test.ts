/**
 * The WebAssembly lexer (extract/wasm) must give exactly the JavaScript lexer's tokens — extent,
 * word, shape, the lists of shaped tokens and quotes — and make the lexicon intern the same words
 * in the same order, on any text and any range; and its bytes must be what lexer.wat assembles to.
 */

import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { Lexicon } from '../../server/src/core/extract/lexicon';
import { lexWord, tokenize, tokenizeInJs, type Tokens } from '../../server/src/core/extract/tokens';
import { LEXER_WASM_BASE64 } from '../../server/src/core/extract/wasm/lexerBytes';
import { WASM_MIN_CHARS, wasmLexer } from '../../server/src/core/extract/wasm/wasmLexer';

// Pieces that reach every branch: case mixes (acronyms, "APIs", camelCase, PascalCase), digits,
// underscores, apostrophes (possessives, contractions, before a digit), Latin letters, characters
// past U+024F (and past U+7FFF), quotes, the mask, words of 15–17 characters, separators.
const PIECES = [
  'a', 'Z', 'word', 'Word', 'WORD', 'API', 'ABCDE', 'ABCDEF', 'APIs', 'APIS', 'ABCDEs', 'ABCDEFs', 'camelCase', 'PascalCase', 'HTTPServer', 'iOS', 'x1', 'A1', 'Ab1',
  '42', '_', '__init__', 'snake_case', "'", '\u2019', "mission's", "don't", "it's9", "ab'_", 'élan', 'CAFÉ', 'ÿ', '\u0100', '\u024f', '\u0250',
  '\u2014', '\uac00', '\ud83d\ude00', '"', '\u201c', '\u201d', '\u001f', ' ', '  ', '\n', '\t', '.', ',', '-', '/',
  'abcdefghijklmno', 'abcdefghijklmnop', 'abcdefghijklmnopq', 'ABCDEFGHIJKLMNOPQ', 'Internationalization',
];

function codesOf(text: string): Uint16Array {
  const codes = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) codes[i] = text.charCodeAt(i);
  return codes;
}

/** Tokens as plain data, words as text (ids differ between lexicons). */
function plain(tokens: Tokens, lexicon: Lexicon) {
  const rows: [number, number, string, number][] = [];
  for (let i = 0; i < tokens.count; i++) rows.push([tokens.start[i]!, tokens.end[i]!, lexicon.words[tokens.word[i]!]!, tokens.shape[i]!]);
  return { rows, shaped: tokens.shaped, quotes: tokens.quotes };
}

function compare(text: string, from: number, to: number, lexicons = { js: new Lexicon(), wasm: new Lexicon() }): void {
  const codes = codesOf(text);
  const expected = tokenizeInJs(codes, text, lexicons.js, from, to);
  const lexer = wasmLexer();
  expect(lexer, 'WebAssembly with SIMD is available in Node 20').toBeDefined();
  const actual = lexer!.tokenize(codes, text, lexicons.wasm, from, to, lexWord)!;
  expect(plain(actual, lexicons.wasm)).toEqual(plain(expected, lexicons.js));
  expect(lexicons.wasm.words).toEqual(lexicons.js.words);
}

describe('WebAssembly lexer', () => {
  it('gives the JavaScript lexer’s tokens on any text and range', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 120, size: 'max' }), fc.nat(), fc.nat(), (pieces, a, b) => {
        const text = pieces.join('');
        // Ranges start and end at line starts or the ends, as the scanner's do.
        const starts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1), text.length];
        const from = starts[a % starts.length]!;
        const to = Math.max(from, starts[b % starts.length]!);
        compare(text, from, to);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps its table across calls, grows it, and switches it between lexicons', () => {
    const lexicons = { js: new Lexicon(), wasm: new Lexicon() };
    let text = '';
    for (let i = 0; i < 60_000; i++) text += `w${i.toString(36)}${i % 7 === 0 ? 'X' : ''} ${i % 50 === 0 ? "o'k \n" : ''}`;
    compare(text, 0, text.length, lexicons);
    // A second document over the same lexicons: known words come from the table.
    const again = text.split('\n').reverse().join('\n') + ' "quoted" new words';
    compare(again, 0, again.length, lexicons);
    // The module's one table follows the lexicon in use: another one, then the first again.
    compare(again, 0, again.length);
    compare(text + ' later', 0, text.length + 6, lexicons);
    // Words met again after a switch are no new spellings (the count decides when the shared
    // lexicon is started afresh).
    expect(lexicons.wasm.spellings).toBeLessThanOrEqual(lexicons.js.spellings);
  });

  it('lists every quote, however many', () => {
    const text = '"a","b","c","d" and “e”\n'.repeat(400);
    compare(text, 0, text.length);
  });

  it('lexes a document of several megabytes in chunks cut at line starts', () => {
    // (Mostly plain words: a text of mostly accented ones is left to JavaScript, see below.)
    const line = 'The mission’s "WorkPackage" API and APIs keep each lane of the plan in step with its reviews: x1 é don\'t.\n';
    const text = line.repeat(Math.ceil((3 << 20) / line.length));
    compare(text, 0, text.length);
    // No line break at all to cut at: tokenize lexes it in JavaScript.
    const flat = text.replace(/\n/g, ' ');
    const codes = codesOf(flat);
    const wasm = new Lexicon();
    const js = new Lexicon();
    expect(plain(tokenize(codes, flat, wasm), wasm)).toEqual(plain(tokenizeInJs(codes, flat, js), js));
  });

  it('leaves a text whose words are mostly not plain ASCII to the JavaScript lexer', () => {
    const text = 'Élan du café, façade naïve; the API déjà vu.\n'.repeat(2000);
    const codes = codesOf(text);
    // The module gives up (each word handed back would cost more than lexing it in JavaScript)…
    expect(wasmLexer()!.tokenize(codes, text, new Lexicon(), 0, text.length, lexWord)).toBeUndefined();
    // … and tokenize gives the JavaScript lexer's tokens, the lexicon's words in the same order.
    const a = new Lexicon();
    const b = new Lexicon();
    expect(plain(tokenize(codes, text, a), a)).toEqual(plain(tokenizeInJs(codes, text, b), b));
    expect(a.words).toEqual(b.words);
  });

  it('is what tokenize uses for a whole document', () => {
    const text = 'The Mission’s API and "WorkPackage" docs.\n'.repeat(Math.ceil(WASM_MIN_CHARS / 40) + 1);
    const codes = codesOf(text);
    const lexicon = new Lexicon();
    // New words reach the lexicon through idOfAscii only from the WebAssembly lexer.
    const fromWasm = vi.spyOn(lexicon, 'idOfAscii');
    const js = new Lexicon();
    expect(plain(tokenize(codes, text, lexicon), lexicon)).toEqual(plain(tokenizeInJs(codes, text, js), js));
    expect(fromWasm).toHaveBeenCalled();
    // Edits re-tokenize a few lines: in JavaScript.
    fromWasm.mockClear();
    tokenize(codesOf('Other words.\n'), 'Other words.\n', lexicon);
    expect(fromWasm).not.toHaveBeenCalled();
  });

  it('is the assembly of lexer.wat', () => {
    const base64 = execFileSync(process.execPath, ['scripts/wasm.mjs', '--print'], { encoding: 'utf8' }).trim();
    expect(LEXER_WASM_BASE64, 'run `node scripts/wasm.mjs` after editing lexer.wat').toBe(base64);
  });
});
