/**
 * Reading one event log line by line from its bytes, for the event store: a 1,000,000-event,
 * 500 MB log never becomes one string, and lines the caller does not want are never parsed.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { MAX_LINE_LENGTH } from '../core/events/lines';
import { isUnwantedLine, type EventLogParser } from '../core/events/parseLog';
import type { EventType } from '../core/events/types';

export const READ_CHUNK = 1 << 20;

/** What a log path is when it is not a regular file, for a warning that says why it is not read. */
export function notRegularFileMessage(info: Pick<Stats, 'isFIFO' | 'isDirectory' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>): string {
  const what = info.isFIFO() ? 'a named pipe (FIFO)' : info.isDirectory() ? 'a directory' : info.isSocket() ? 'a socket' : info.isCharacterDevice() || info.isBlockDevice() ? 'a device' : 'not a regular file';
  return `${what}, not a regular file: it is not an event log and is not read`;
}

/**
 * Opens a log for reading without ever blocking: O_NONBLOCK makes opening a FIFO return at once
 * (a plain open waits for a writer forever), and anything but a regular file is refused before a
 * byte is read.
 */
async function openRegularFile(file: string): Promise<FileHandle> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw Object.assign(new Error(notRegularFileMessage(info)), { code: 'ENOTREG' });
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
  return handle;
}
/** Bytes of a chunk decoded into one Latin-1 view (short of V8's 128 KB large-object size). */
const VIEW_WINDOW = 16 << 10;
/** Buffers, and so reads in flight ahead of the chunk being processed (READ_AHEAD - 1). */
const READ_AHEAD = 3;

/**
 * Feeds the lines of one log to `parser`, reading bytes (no stream, no whole-file string). The
 * next chunk is read while the current one is processed. Each chunk is viewed as Latin-1 (one
 * char per byte, the cheapest decode), a window of whole lines at a time, to find line ends
 * and, when only some event types are wanted, to sniff `event_type`; an all-ASCII window's view
 * is its UTF-8 text too, otherwise only lines that get parsed are decoded as UTF-8. Handles a
 * UTF-8 BOM, CRLF, a last line without `\n`, and over-long lines. Only line-sized pieces are ever
 * copied.
 */
export async function feedLog(
  file: string,
  parser: EventLogParser,
  wants: ((type: EventType) => boolean) | undefined,
  /** Opens the file for reading (tests pass a handle that returns short reads). */
  openFile: (file: string) => Promise<Pick<FileHandle, 'read' | 'close'>> = openRegularFile,
): Promise<void> {
  const handle = await openFile(file);
  // Reads in flight, one per buffer: on a busy machine the thread pool may run a read late, so
  // more than one is kept ahead of the chunk being processed.
  const inFlight: (Promise<{ bytesRead: number }> | undefined)[] = [];
  try {
    const buffers: Buffer[] = [];
    for (let i = 0; i < READ_AHEAD; i++) buffers.push(Buffer.allocUnsafe(READ_CHUNK));
    let next = 0; // file offset of the next read to start
    const issue = (slot: number) => {
      const read = handle.read(buffers[slot]!, 0, READ_CHUNK, next);
      // Handled here so a read failing while an earlier one is awaited is no unhandled
      // rejection; awaiting it in turn still throws the error.
      read.catch(() => undefined);
      inFlight[slot] = read;
      next += READ_CHUNK;
    };
    let current = 0;
    let position = 0;
    let lineNumber = 0;
    let carry: Buffer = Buffer.alloc(0); // start of a line continued in the next chunk
    let skipped = -1; // > -1 while dropping an over-long line: its length so far

    // One line: bytes [from, to) of `bytes`, whose Latin-1 text from `base` is `view`.
    const emit = (bytes: Buffer, view: string, ascii: boolean, base: number, from: number, to: number, terminated: boolean) => {
      lineNumber++;
      if (terminated && to > from && bytes[to - 1] === 13) to--;
      if (wants !== undefined && isUnwantedLine(view, terminated, wants, from - base, to - base)) return;
      if (ascii) parser.line(view.slice(from - base, to - base), lineNumber, terminated, true);
      else parser.line(bytes.toString('utf8', from, to), lineNumber, terminated, true, !isUtf8(bytes.subarray(from, to)));
    };
    const emitAlone = (bytes: Buffer, terminated: boolean) => emit(bytes, bytes.toString('latin1'), false, 0, 0, bytes.length, terminated);

    for (let i = 0; i < READ_AHEAD; i++) issue(i);
    for (;;) {
      const { bytesRead } = await inFlight[current]!;
      inFlight[current] = undefined;
      if (bytesRead === 0) break;
      const data = buffers[current]!;
      const slot = current;
      current = (current + 1) % READ_AHEAD;
      position += bytesRead;
      if (bytesRead < READ_CHUNK) {
        // A short read (normally the end of the file): the reads started after it assumed a
        // full chunk, so they are dropped and reading goes on from here (a growing log is
        // read to its current end, as with one read at a time).
        for (const pending of inFlight) await pending?.catch(() => undefined);
        inFlight.fill(undefined);
        next = position;
        for (let i = 1; i < READ_AHEAD; i++) issue((slot + i) % READ_AHEAD);
      }

      let start = 0;
      if (position === bytesRead && bytesRead >= 3 && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) start = 3;
      const firstNewline = data.indexOf(10, start);
      if (firstNewline < 0 || firstNewline >= bytesRead) {
        // No line end in this chunk: it all continues the current line.
        if (skipped >= 0) skipped += bytesRead - start;
        else if (carry.length + bytesRead - start > MAX_LINE_LENGTH) [skipped, carry] = [carry.length + bytesRead - start, Buffer.alloc(0)];
        else carry = Buffer.concat([carry, data.subarray(start, bytesRead)]);
        issue(slot);
        continue;
      }
      // The line that began in an earlier chunk ends here.
      if (skipped >= 0) {
        parser.oversized(++lineNumber, skipped + firstNewline - start);
        skipped = -1;
      } else if (carry.length > 0 || firstNewline > start) {
        const head = carry.length > 0 ? Buffer.concat([carry, data.subarray(start, firstNewline)]) : data.subarray(start, firstNewline);
        emitAlone(head, true);
      } else {
        lineNumber++; // an empty line
      }
      start = firstNewline + 1;
      const lastNewline = data.lastIndexOf(10, bytesRead - 1);
      // Whole lines, viewed a window at a time: views below V8's large-object size die young.
      while (lastNewline >= start) {
        let end = lastNewline;
        if (end - start > VIEW_WINDOW) {
          const nl = data.lastIndexOf(10, start + VIEW_WINDOW);
          end = nl >= start ? nl : data.indexOf(10, start + VIEW_WINDOW); // a long line: up to its end
        }
        const view = data.toString('latin1', start, end);
        const ascii = isAscii(data.subarray(start, end));
        let from = start;
        for (let nl = view.indexOf('\n'); nl >= 0; nl = view.indexOf('\n', from - start)) {
          emit(data, view, ascii, start, from, start + nl, true);
          from = start + nl + 1;
        }
        emit(data, view, ascii, start, from, end, true);
        start = end + 1;
      }
      carry = Buffer.from(data.subarray(start, bytesRead)); // copied: `data` is reused for a later read
      issue(slot);
    }
    if (skipped >= 0) parser.oversized(++lineNumber, skipped);
    else if (carry.length > 0) emitAlone(carry, false); // unterminated last line: never sniffed
  } finally {
    for (const pending of inFlight) await pending?.catch(() => undefined); // never close under a read in flight
    await handle.close();
  }
}
