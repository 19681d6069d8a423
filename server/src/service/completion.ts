/**
 * Completion of glossary surfaces in markdown: one item per surface of the document's glossary,
 * label = surface, detail = scope, documentation = definition(s). The word being typed is
 * replaced; only surfaces that start with it (or have a word that does) are offered.
 */

import { CompletionItemKind, CompletionItemTag, MarkupKind, type CompletionItem, type CompletionList, type Position } from 'vscode-languageserver-types';
import type { GlossaryIndex } from '../core/glossary';
import { matchCase } from './caseStyle';

const MAX_ITEMS = 500;

/** `lineText`: the text of the cursor's line up to the cursor. */
export function completeSurfaces(glossary: GlossaryIndex, lineText: string, position: Position, markdown = true): CompletionList {
  const prefix = /[\p{L}\p{N}_-]*$/u.exec(lineText)?.[0] ?? '';
  const lower = prefix.toLowerCase();
  const range = { start: { line: position.line, character: position.character - prefix.length }, end: position };
  const items: CompletionItem[] = [];
  let incomplete = false;
  for (const surface of glossary.surfaces()) {
    if (lower && !surface.startsWith(lower) && !surface.includes(' ' + lower)) continue;
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
      textEdit: { range, newText: matchCase(prefix, surface) },
      filterText: surface,
      ...(live.length === 0 ? { tags: [CompletionItemTag.Deprecated] } : {}),
    });
  }
  return { isIncomplete: incomplete, items };
}
