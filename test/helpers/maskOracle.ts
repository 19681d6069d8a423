/**
 * Masking compared with markdown-it's reading (markdownOracle.ts): every character markdown-it
 * reads as code, a link's destination, an autolink, HTML or a reference definition must be
 * masked, and every character it reads as prose must not be — on CommonMark's masking alone
 * (`proseExclusions: false`), which the SPEC's exclusions of paths, URLs and ids only add to.
 */

import { MASK, maskMarkdown } from '../../server/src/core/markdown/mask';
import { READING_NAMES, Reading, readMarkdown } from './markdownOracle';

export interface Disagreement {
  offset: number;
  /** What markdown-it reads there. */
  reading: string;
  /** Whether masking masked it. */
  masked: boolean;
  /** The line, with the character marked. */
  context: string;
}

/** Where masking and markdown-it disagree on `text` (the first `limit`). */
export function disagreements(text: string, limit = 5): Disagreement[] {
  const readings = readMarkdown(text);
  const masked = maskMarkdown(text, { proseExclusions: false }).masked;
  const out: Disagreement[] = [];
  for (let i = 0; i < text.length && out.length < limit; i++) {
    const reading = readings[i]!;
    if (reading === Reading.NONE) continue;
    const isMasked = masked[i] === MASK;
    if (reading === Reading.PROSE ? !isMasked : isMasked) continue;
    const lineStart = Math.max(text.lastIndexOf('\n', i - 1) + 1, 0);
    let lineEnd = text.indexOf('\n', i);
    if (lineEnd === -1) lineEnd = text.length;
    out.push({ offset: i, reading: READING_NAMES[reading]!, masked: isMasked, context: `${text.slice(lineStart, i)}⟦${text[i]}⟧${text.slice(i + 1, lineEnd)}` });
  }
  return out;
}

/** The masked copy with a visible mask character (`█`), for test expectations and messages. */
export function visibleMask(text: string, options: { proseExclusions?: boolean } = {}): string {
  return maskMarkdown(text, options).masked.replaceAll(MASK, '█');
}
