/**
 * Writing a long output (every finding of a `check`) without holding it: the formatters yield
 * small pieces, which are gathered into chunks of about `CHUNK_CHARS` and handed to the sink one
 * at a time. When the sink asks to wait (a pipe whose reader is slower than we are), the next
 * chunk is made only after it drained, so memory stays flat whatever the number of findings.
 */

/** Where chunks go. A returned promise means "wait for it before writing more" (back-pressure). */
export type ChunkSink = (chunk: string) => void | Promise<void>;

/** 64 Ki characters: few enough system calls, small enough never to matter for memory. */
export const CHUNK_CHARS = 64 * 1024;

/**
 * Writes every piece, in order, in chunks of at least `chunkChars` characters (the last one may be
 * shorter). A chunk is never longer than `chunkChars` plus the longest piece.
 */
export async function writeChunked(pieces: Iterable<string>, sink: ChunkSink, chunkChars = CHUNK_CHARS): Promise<void> {
  let buffer = '';
  for (const piece of pieces) {
    buffer += piece;
    if (buffer.length >= chunkChars) {
      const wait = sink(buffer);
      buffer = '';
      if (wait) await wait;
    }
  }
  if (buffer !== '') await sink(buffer);
}
