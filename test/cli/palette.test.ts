/** When text output is coloured: at a terminal only, and never when the user or the terminal says no. */
import { describe, expect, test } from 'vitest';
import { ANSI, paletteFor, PLAIN } from '../../server/src/cli/output/text';

describe('the palette of text output', () => {
  test('colours at a terminal; plain when piped, with --no-color, NO_COLOR or TERM=dumb', () => {
    const tty = { isTTY: true, env: { TERM: 'xterm-256color' } };
    expect(paletteFor(tty, false)).toBe(ANSI);
    expect(paletteFor({ ...tty, isTTY: false }, false)).toBe(PLAIN);
    expect(paletteFor(tty, true)).toBe(PLAIN);
    expect(paletteFor({ isTTY: true, env: { NO_COLOR: '1' } }, false)).toBe(PLAIN);
    expect(paletteFor({ isTTY: true, env: { TERM: 'dumb' } }, false)).toBe(PLAIN);
  });
});
