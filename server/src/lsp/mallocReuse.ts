/**
 * Lets the C allocator reuse the memory of a large document's last text for its next one.
 *
 * Each keystroke in a document of more than ~600,000 characters makes its text again as an
 * external string (documents.ts `SpecDocument.external`): Node copies it into memory from
 * `malloc`, 2 MB for 1 MB of text with a character beyond Latin-1. glibc serves a request that
 * large with a fresh `mmap` unless it is smaller than its mmap threshold, which it raises to the
 * size of the largest mapped block freed so far. A text that grows by one character each
 * keystroke is always larger than the last one freed, so every keystroke got fresh pages: the
 * copy took ~2.5 ms a keystroke on the benchmark's 1 MB text, most of it page faults (`perf`).
 *
 * Freeing one larger block once raises the threshold above the texts, and from then on they come
 * from the heap, where the memory of the texts collected before is reused. Node frees a block of
 * about three bytes per character at once when it hashes a string as UTF-8 (it converts the
 * string into a temporary buffer of that size), so hashing a string of `bytes` characters frees
 * a block three times the text's size. glibc raises the threshold up to 32 MB, so the block stays
 * below it. Elsewhere (another C library, another Node) this costs one hash and changes nothing.
 *
 * Measured (`npm run bench -- --only keystroke --baseline`, 1 MB, 4 runs, builds interleaved):
 * 1.07–1.26× less per keystroke, the texts' `mmap`s gone (strace), the time in the copy ~0.4×.
 */

import { createHash } from 'node:crypto';

/** glibc's largest dynamic mmap threshold on 64-bit systems (`DEFAULT_MMAP_THRESHOLD_MAX`), less a margin. */
const LARGEST_THRESHOLD = 30 * 1024 * 1024;

/**
 * Raises the allocator's threshold above a text of `bytes` bytes, unless it is already above it
 * (it never comes down): to three times the text, so the text may grow that far. Costs one hash
 * of a string of `bytes` characters (~10–20 ms for 2 MB) the first time a document that large is
 * edited.
 */
export class MallocReuse {
  private raisedTo = 0;

  constructor(
    /** Makes the allocator free a block of about this many bytes (tests count the calls). */
    private readonly freeBlock: (bytes: number) => void = freeBlockOf,
  ) {}

  reserve(bytes: number): void {
    // (Texts below the threshold already come from the heap; past the ceiling nothing helps.)
    if (bytes < this.raisedTo || this.raisedTo === LARGEST_THRESHOLD) return;
    this.raisedTo = Math.min(bytes * 3, LARGEST_THRESHOLD);
    this.freeBlock(this.raisedTo);
  }
}

/** Node converts the string to UTF-8 in a temporary buffer of three bytes per character, freed when `update` returns. */
function freeBlockOf(bytes: number): void {
  createHash('sha1').update('\n'.repeat(Math.ceil(bytes / 3)), 'utf8').digest();
}
