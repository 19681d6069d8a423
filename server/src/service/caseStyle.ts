/** Writing a glossary surface in the letter case of the word it replaces. */

/** "Work dir" → "Worktree", "WORK DIR" → "WORKTREE", "work dir" or nothing → the surface as it is. */
export function matchCase(written: string | undefined, surface: string): string {
  if (!written || !/\p{L}/u.test(written)) return surface;
  if (written.length > 1 && written === written.toUpperCase()) return surface.toUpperCase();
  const first = /\p{L}/u.exec(written)![0];
  return first !== first.toLowerCase() ? surface.charAt(0).toUpperCase() + surface.slice(1) : surface;
}
