/**
 * Completion of glossary surfaces in markdown: one item per surface of the document's glossary,
 * label = surface, detail = scope, documentation = definition(s).
 *
 * What is replaced is what the user typed of the surface: the word being typed, or the last
 * words when a multi-word surface starts with them ("release tr" completes to "release train",
 * never "release release train"). Every item of a list replaces the same text (the longest typed
 * phrase some surface starts with), so clients that take one start column for the whole list
 * (Neovim's omnifunc) insert it right too; items carry no `filterText` for the same reason.
 */

import { CompletionItemKind, CompletionItemTag, MarkupKind, type CompletionItem, type CompletionList, type Position } from 'vscode-languageserver-types';
import type { GlossaryIndex } from '../core/glossary';
import { matchCase } from './caseStyle';

const MAX_ITEMS = 500;
/** The longest typed phrase looked at, in words (glossary surfaces are short). */
const MAX_PHRASE_WORDS = 6;
const WORD = /[\p{L}\p{M}\p{N}_-]+/gu;

/** `lineText`: the text of the cursor's line up to the cursor. */
export function completeSurfaces(glossary: GlossaryIndex, lineText: string, position: Position, markdown = true): CompletionList {
  const phrases = typedPhrases(lineText);
  // The longest phrase some surface starts with (one word: or has a word that starts with it).
  let chosen = 0;
  for (const surface of glossary.surfaces()) {
    for (let k = phrases.length - 1; k > chosen; k--) {
      if (surface.startsWith(phrases[k]!.key)) {
        chosen = k;
        break;
      }
    }
    if (chosen === phrases.length - 1) break;
  }
  const { typed, key } = phrases[chosen]!;
  const range = { start: { line: position.line, character: position.character - typed.length }, end: position };
  const items: CompletionItem[] = [];
  let incomplete = false;
  for (const surface of glossary.surfaces()) {
    const fits = chosen > 0 ? surface.startsWith(key) : !key || surface.startsWith(key) || surface.includes(' ' + key);
    if (!fits) continue;
    if (items.length >= MAX_ITEMS) {
      incomplete = true;
      break;
    }
    const senses = glossary.sensesOf(surface);
    const live = senses.filter((s) => s.status !== 'deprecated');
    const shown = live.length > 0 ? live : senses;
    const scopes = [...new Set(shown.map((s) => s.scope))];
    const detail = shown.length > 1 ? `${scopes.join(', ')} · ${shown.length} senses` : `${shown[0]!.scope}`;
    const documentation = shown.map((s, i) => (shown.length > 1 ? `${i + 1}. ` : '') + `${s.definition} (${s.scope}, ${s.status})`).join('\n');
    items.push({
      label: surface,
      kind: CompletionItemKind.Text,
      detail,
      documentation: { kind: markdown ? MarkupKind.Markdown : MarkupKind.PlainText, value: documentation },
      textEdit: { range, newText: matchCase(typed, surface) },
      ...(live.length === 0 ? { tags: [CompletionItemTag.Deprecated] } : {}),
    });
  }
  return { isIncomplete: incomplete, items };
}

/**
 * What may have been typed of a surface, shortest first: index 0 is the word being typed (maybe
 * empty), index k that word with the k words before it on the line. `typed` is the text as it
 * is (it is what gets replaced), `key` the same lowercased with single spaces.
 */
function typedPhrases(lineText: string): { typed: string; key: string }[] {
  const last = /[\p{L}\p{M}\p{N}_-]*$/u.exec(lineText)![0];
  const phrases = [{ typed: last, key: last.toLowerCase() }];
  const before = lineText.slice(0, lineText.length - last.length);
  // Words before the one being typed, separated from it and each other by spaces or tabs only.
  const head = /(?:[\p{L}\p{N}_-]+[ \t]+)*$/u.exec(before)![0];
  const words = [...head.matchAll(WORD)].map((m) => m[0]);
  let typed = last;
  for (let k = 1; k <= Math.min(words.length, MAX_PHRASE_WORDS - 1); k++) {
    const start = lineText.length - typed.length;
    // Back to the start of the k-th word before the cursor.
    const from = lineText.lastIndexOf(words[words.length - k]!, start - 1);
    typed = lineText.slice(from);
    phrases.push({ typed, key: typed.toLowerCase().replace(/\s+/g, ' ') });
  }
  return phrases;
}
