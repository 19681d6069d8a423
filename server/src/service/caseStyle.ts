/** Writing a glossary surface in the letter case (and number) of the word it replaces. */

import { writtenForm } from '../core/check/wording';
import { formOf, isPlural, writeInForm } from '../core/terms/form';

/** "Work dir" → "Worktree", "WORK DIR" → "WORKTREE", "work dir" or nothing → the surface as it is. */
export function matchCase(written: string | undefined, surface: string): string {
  if (!written || !/\p{L}/u.test(written)) return surface;
  if (written.length > 1 && written === written.toUpperCase()) return surface.toUpperCase();
  const first = /\p{L}/u.exec(written)![0];
  return first !== first.toLowerCase() ? surface.charAt(0).toUpperCase() + surface.slice(1) : surface;
}

/**
 * `replacement` written in place of `written` (a use of the term `term`), as a writer would: in its
 * letter case and number ("Two work dirs" → "Two worktrees"; "Work dir" → "Worktree"); singular
 * when the replacement's plural would not read back as it.
 */
export function replacementFor(written: string | undefined, term: string, replacement: string): string {
  if (!written) return replacement;
  // (As shown: a use across a quoted line break is "Work Dirs", not "Work > Dirs", whose ">" is no Title Case word.)
  const form = formOf(writtenForm(written), term);
  return (isPlural(form) ? writeInForm(replacement, form) : undefined) ?? matchCase(written, replacement);
}
