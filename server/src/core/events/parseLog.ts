/**
 * Reading an event log: one JSON event per line. A torn, garbled or invalid line is skipped
 * with a problem naming its line; it never stops the read and never hides the lines after it.
 *
 * Lines are read as any writer may write them (SPEC §7 "Reading", Spec Kitty's included; see
 * schema.ts and logged.ts), and each event is handed on with its place in replay order
 * (`LogPosition`): a line without a clock inherits the highest clock of the events before it in
 * the file (of the wanted types, when the caller filters), so it keeps its place in file order.
 *
 * An unterminated last line that is a complete, valid event is accepted: a writer killed after
 * its `}` but before `\n`, or a hand edit, loses nothing. Blank lines are skipped silently.
 */
import { isPlainObject } from './check';
import { LineSplitter, MAX_LINE_LENGTH } from './lines';
import { missionFileStem, missionOfLogFile, toLoggedEvent } from './logged';
import { isSniffedUnwanted } from './sniff';
import type { EventType, LoggedEvent, LogPosition } from './types';
import { isEventType, validateLogged } from './validate';

export interface LogProblem {
  /** The label the caller gave the log (usually its path). */
  file: string;
  /** 1-based line number; 0 for a problem about the whole file. */
  line: number;
  message: string;
  /**
   * Absent: an error (the line was skipped). `warning`: the line was read, with a caveat, or it is
   * an event of a type this reader does not know (skipped; another or a newer writer's).
   */
  severity?: 'warning';
  /** A code for `validate` (default `events.invalid-line`). */
  code?: string;
}

/** The shape of an event type's name. */
const EVENT_TYPE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

export type LineResult = { ok: true; event: LoggedEvent; warning?: string } | { ok: false; message: string; unknownType?: true };

/**
 * Parses and validates one line (without its line ending). `logMission`: the mission of the log
 * it comes from, for a line without `mission_id`.
 */
export function parseEventLine(text: string, terminated = true, logMission?: string): LineResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // JSON.parse quotes the start of the line: control characters in it are shown escaped.
    // eslint-disable-next-line no-control-regex
    const why = (error instanceof Error ? error.message : String(error)).replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    return {
      ok: false,
      message: terminated ? `not valid JSON (${why}); line skipped` : `torn last line (no newline at the end and incomplete JSON); line skipped`,
    };
  }
  // An object naming a type of its own (a name: `GlossaryTermMerged`, `semantic_check_evaluated`):
  // a newer Spec Kitty's, or another tool's. Spec Kitty's readers pass over what they do not know;
  // so does this one, and says so without failing. Anything else in `event_type` is an error.
  if (isPlainObject(value) && typeof value['event_type'] === 'string' && EVENT_TYPE_NAME.test(value['event_type']) && !isEventType(value['event_type'])) {
    return { ok: false, unknownType: true, message: `event type ${JSON.stringify(value['event_type'])} is not one spec-glossary reads (another or a newer writer's); line skipped` };
  }
  const result = validateLogged(value);
  if (result.ok) {
    const { event, warning } = toLoggedEvent(result.value, logMission);
    return warning === undefined ? { ok: true, event } : { ok: true, event, warning };
  }
  const type = isPlainObject(value) && isEventType(value['event_type']) ? `${value['event_type']} ` : '';
  return { ok: false, message: `invalid ${type}event: ${result.errors.join('; ')}; line skipped` };
}

export interface EventLogSink {
  event(event: LoggedEvent, line: number, position: LogPosition): void;
  problem(problem: LogProblem): void;
}

export interface EventLogParserOptions {
  /**
   * When given, lines whose `event_type` can be read cheaply and is not wanted are skipped
   * without parsing or validation (replay needs only a few types; `validate` passes none).
   */
  wants?: (type: EventType) => boolean;
  /** The mission of the log, for lines without `mission_id`; default: from the label `…/M.events.jsonl`. */
  mission?: string;
}

/**
 * True when the line `text.slice(from, to)` can be skipped unparsed: it looks complete
 * (terminated, ends in `}`) and its `event_type` reads cheaply as a type the caller does not
 * want. `text` may be the Latin-1 view of a chunk of bytes: only ASCII is looked at.
 */
export function isUnwantedLine(text: string, terminated: boolean, wants: (type: EventType) => boolean, from = 0, to = text.length): boolean {
  if (!terminated || text.charCodeAt(to - 1) !== 125 /* } */) return false;
  return isSniffedUnwanted(text, from, to, wants);
}

/**
 * Incremental parser of one log: feed text chunks in order with `push` and call `end()`, or feed
 * lines already split (by a byte-level reader) with `line`.
 */
export class EventLogParser {
  private readonly splitter: LineSplitter;
  private readonly wants: ((type: EventType) => boolean) | undefined;
  /**
   * The mission of lines without `mission_id`: the log's file name, until a line names a mission
   * whose file name this is ("041/x" is logged in `041-x.events.jsonl`): then that mission.
   */
  private mission: string | undefined;
  private missionAdopted = false;
  /**
   * Highest trusted clock of the events handed on so far: the clock a line without one inherits.
   * With `wants`, only wanted events count (a replay reads only the state-changing types; the
   * other types never change the state, so their clocks cannot change an order that matters).
   */
  private clockSoFar = 0;

  constructor(
    private readonly fileLabel: string,
    private readonly sink: EventLogSink,
    options: EventLogParserOptions = {},
  ) {
    this.wants = options.wants;
    this.mission = options.mission ?? missionOfLogFile(fileLabel);
    this.splitter = new LineSplitter({
      line: (text, line, terminated) => this.line(text, line, terminated),
      oversized: (line, length) => this.oversized(line, length),
    });
  }

  push(chunk: string): void {
    this.splitter.push(chunk);
  }

  end(): void {
    this.splitter.end();
  }

  /**
   * One line without its line ending (`\n` or `\r\n`). `invalidUtf8`: the bytes of the line were
   * not valid UTF-8 (a byte reader decoded them with U+FFFD): a valid event is still kept, with a
   * warning, since its text is no longer what was written.
   */
  line(text: string, lineNumber: number, terminated: boolean, alreadySniffed = false, invalidUtf8 = false): void {
    // Lines normally start with `{`; only other lines pay for the blank check.
    if (text.length === 0 || (text.charCodeAt(0) !== 123 && text.trim() === '')) return;
    if (!alreadySniffed && this.wants !== undefined && isUnwantedLine(text, terminated, this.wants)) return;
    const result = parseEventLine(text, terminated, this.mission);
    if (!result.ok) {
      this.sink.problem(result.unknownType ? { file: this.fileLabel, line: lineNumber, message: result.message, severity: 'warning', code: 'events.unknown-type' } : { file: this.fileLabel, line: lineNumber, message: result.message });
      return;
    }
    const { event } = result;
    if (!this.missionAdopted && this.mission !== undefined) this.adoptMission(event.mission_id);
    // A line the sniffer could not vouch for is parsed; its type is filtered here instead.
    if (this.wants !== undefined && !this.wants(event.event_type)) return;
    const clock = event.lamport_clock;
    let position: LogPosition;
    if (clock !== undefined) {
      if (clock > this.clockSoFar) this.clockSoFar = clock;
      position = { clock, seq: 0, line: lineNumber };
    } else {
      position = { clock: this.clockSoFar, seq: lineNumber, line: lineNumber };
    }
    if (result.warning !== undefined) this.sink.problem({ file: this.fileLabel, line: lineNumber, message: result.warning, severity: 'warning', code: 'events.untrusted-clock' });
    if (invalidUtf8) this.sink.problem({ file: this.fileLabel, line: lineNumber, message: 'the line is not valid UTF-8: invalid bytes were replaced with U+FFFD; the event is kept as read' });
    this.sink.event(event, lineNumber, position);
  }

  private adoptMission(named: string): void {
    if (named !== this.mission && named !== '' && missionFileStem(named) === this.mission) {
      this.mission = named;
      this.missionAdopted = true;
    }
  }

  /** A line too long to be an event, dropped unread. */
  oversized(lineNumber: number, length: number): void {
    this.sink.problem({ file: this.fileLabel, line: lineNumber, message: `line of ${length} characters is longer than ${MAX_LINE_LENGTH}; skipped` });
  }
}

/** Parses a whole log held in memory; `positions[i]` is the place of `events[i]` in replay order. */
export function parseEventLog(text: string, fileLabel: string, options: EventLogParserOptions = {}): { events: LoggedEvent[]; positions: LogPosition[]; problems: LogProblem[] } {
  const events: LoggedEvent[] = [];
  const positions: LogPosition[] = [];
  const problems: LogProblem[] = [];
  const parser = new EventLogParser(
    fileLabel,
    {
      event: (event, _line, position) => {
        events.push(event);
        positions.push(position);
      },
      problem: (problem) => problems.push(problem),
    },
    options,
  );
  parser.push(text);
  parser.end();
  return { events, positions, problems };
}
