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
  const reads = new ReadAhead(handle);
  try {
    reads.start();
    const lines = new LineSplitter(parser, wants);
    for (let chunk = await reads.next(); chunk !== undefined; chunk = await reads.next()) {
      lines.chunk(chunk);
      reads.release(); // only now: `chunk` is that read's buffer
    }
    lines.end();
  } finally {
    await reads.settle(); // never close under a read in flight
    await handle.close();
  }
}

/**
 * The reads of one log, one per buffer: on a busy machine the thread pool may run a read late,
 * so more than one is kept ahead of the chunk being processed.
 */
class ReadAhead {
  private readonly buffers: Buffer[] = [];
  private readonly inFlight: (Promise<{ bytesRead: number }> | undefined)[] = [];
  private readOffset = 0; // file offset of the next read to start
  private current = 0; // the slot read next
  private taken = 0; // the slot of the chunk being processed
  private position = 0; // file offset after that chunk

  constructor(private readonly handle: Pick<FileHandle, 'read'>) {}

  start(): void {
    for (let i = 0; i < READ_AHEAD; i++) this.buffers.push(Buffer.allocUnsafe(READ_CHUNK));
    for (let i = 0; i < READ_AHEAD; i++) this.issue(i);
  }

  /** The next chunk (a view of a buffer kept until `release`), or undefined at the end of the file. */
  async next(): Promise<Buffer | undefined> {
    const slot = this.current;
    const { bytesRead } = await this.inFlight[slot]!;
    this.inFlight[slot] = undefined;
    if (bytesRead === 0) return undefined;
    this.current = (slot + 1) % READ_AHEAD;
    this.taken = slot;
    this.position += bytesRead;
    if (bytesRead < READ_CHUNK) await this.restartAfter(slot);
    return this.buffers[slot]!.subarray(0, bytesRead);
  }

  /** The chunk is processed: its buffer takes the next read. */
  release(): void {
    this.issue(this.taken);
  }

  async settle(): Promise<void> {
    for (const pending of this.inFlight) await pending?.catch(() => undefined);
  }

  /**
   * After a short read (normally the end of the file): the reads started after it assumed a full
   * chunk, so they are dropped and reading goes on from here (a growing log is read to its
   * current end, as with one read at a time).
   */
  private async restartAfter(slot: number): Promise<void> {
    await this.settle();
    this.inFlight.fill(undefined);
    this.readOffset = this.position;
    for (let i = 1; i < READ_AHEAD; i++) this.issue((slot + i) % READ_AHEAD);
  }

  private issue(slot: number): void {
    const read = this.handle.read(this.buffers[slot]!, 0, READ_CHUNK, this.readOffset);
    // Handled here so a read failing while an earlier one is awaited is no unhandled
    // rejection; awaiting it in turn still throws the error.
    read.catch(() => undefined);
    this.inFlight[slot] = read;
    this.readOffset += READ_CHUNK;
  }
}

/** Cuts chunks into lines for the parser; a line may go on over several chunks. */
class LineSplitter {
  private lineNumber = 0;
  private carry: Buffer = Buffer.alloc(0); // start of a line continued in the next chunk
  private skipped = -1; // > -1 while dropping an over-long line: its length so far
  private first = true;

  constructor(
    private readonly parser: EventLogParser,
    private readonly wants: ((type: EventType) => boolean) | undefined,
  ) {}

  /** `data` is reused for a later read once this returns: whatever is kept of it is copied. */
  chunk(data: Buffer): void {
    let start = 0;
    if (this.first) {
      this.first = false;
      if (data.length >= 3 && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) start = 3;
    }
    const firstNewline = data.indexOf(10, start);
    if (firstNewline < 0) {
      this.continueLine(data, start);
      return;
    }
    this.endCarriedLine(data, start, firstNewline);
    const rest = this.wholeLines(data, firstNewline + 1);
    this.carry = Buffer.from(data.subarray(rest));
  }

  end(): void {
    if (this.skipped >= 0) this.parser.oversized(++this.lineNumber, this.skipped);
    else if (this.carry.length > 0) this.emitAlone(this.carry, false); // unterminated last line: never sniffed
  }

  /** No line end in this chunk: it all continues the current line. */
  private continueLine(data: Buffer, start: number): void {
    const length = this.carry.length + data.length - start;
    if (this.skipped >= 0) this.skipped += data.length - start;
    else if (length > MAX_LINE_LENGTH) {
      this.skipped = length;
      this.carry = Buffer.alloc(0);
    } else this.carry = Buffer.concat([this.carry, data.subarray(start)]);
  }

  /** The line that began in an earlier chunk ends at `newline`. */
  private endCarriedLine(data: Buffer, start: number, newline: number): void {
    if (this.skipped >= 0) {
      this.parser.oversized(++this.lineNumber, this.skipped + newline - start);
      this.skipped = -1;
    } else if (this.carry.length > 0 || newline > start) {
      const head = this.carry.length > 0 ? Buffer.concat([this.carry, data.subarray(start, newline)]) : data.subarray(start, newline);
      this.emitAlone(head, true);
    } else {
      this.lineNumber++; // an empty line
    }
  }

  /**
   * The whole lines from `start`, viewed a window at a time: views below V8's large-object size
   * die young. Returns where the unterminated rest of the chunk begins.
   */
  private wholeLines(data: Buffer, start: number): number {
    const lastNewline = data.lastIndexOf(10);
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
        this.emit(data, view, ascii, start, from, start + nl, true);
        from = start + nl + 1;
      }
      this.emit(data, view, ascii, start, from, end, true);
      start = end + 1;
    }
    return start;
  }

  /** One line: bytes [from, to) of `bytes`, whose Latin-1 text from `base` is `view`. */
  private emit(bytes: Buffer, view: string, ascii: boolean, base: number, from: number, to: number, terminated: boolean): void {
    this.lineNumber++;
    if (terminated && to > from && bytes[to - 1] === 13) to--;
    if (this.wants !== undefined && isUnwantedLine(view, terminated, this.wants, from - base, to - base)) return;
    if (ascii) this.parser.line(view.slice(from - base, to - base), this.lineNumber, terminated, true);
    else this.parser.line(bytes.toString('utf8', from, to), this.lineNumber, terminated, true, !isUtf8(bytes.subarray(from, to)));
  }

  private emitAlone(bytes: Buffer, terminated: boolean): void {
    this.emit(bytes, bytes.toString('latin1'), false, 0, 0, bytes.length, terminated);
  }
}
