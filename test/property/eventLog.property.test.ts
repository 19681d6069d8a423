/**
 * Reading an event log (SPEC §7) as properties: whatever garbage lands between the lines and
 * wherever the file is cut off, every whole valid line is recovered, in order, and nothing else;
 * each skipped line is reported with its own line number. The same holds for the in-memory parser
 * fed in random chunks and for the byte-level file reader; and an append after the damage starts
 * on a new line and loses nothing.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { EventLogParser, parseEventLine, parseEventLog } from '../../server/src/core/events/parseLog';
import { serializeEvent } from '../../server/src/core/events/serialize';
import { STATE_EVENT_TYPES, type GlossaryEvent, type LoggedEvent } from '../../server/src/core/events/types';
import { EventStore, eventLogPath } from '../../server/src/node/eventStore';
import { observed, requested, resolved, senseUpdated, uuidFor } from '../fixtures/events/factory';
import { propertyRuns } from '../helpers/propertyRuns';

const MISSION = 'm-prop';
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((t) => t.trim() !== '');

/** A valid event of one of four types, with unicode text in it. */
const event = fc.tuple(fc.constantFrom('observed', 'requested', 'resolved', 'sense'), text, text).map(([kind, term, other]) => {
  const base = { mission: MISSION, term };
  switch (kind) {
    case 'observed':
      return observed(base);
    case 'requested':
      return requested({ ...base, conflict: other });
    case 'resolved':
      return resolved({ ...base, conflict: other, definition: other });
    default:
      return senseUpdated({ mission: MISSION, surface: term.toLowerCase().trim() || 'x', definition: other });
  }
});

// Made once, not for each generated log (`garbage` is called per log): made per log, they built a
// lookup table of their characters each time (a CPU profile), two thirds of this file's time.
const binaryLine = fc.string({ unit: 'binary', maxLength: 60 });
const graphemeLine = fc.string({ unit: 'grapheme', maxLength: 60 });

/** Garbage lines: random bytes and characters, and near misses of real events. */
const garbage = (lines: readonly string[]) =>
  fc.oneof(
    binaryLine,
    graphemeLine,
    fc.constantFrom('{', '}', '{}', 'null', '[]', '"x"', '{"event_type": "GlossaryClarificationResolved"}', '\u0000\u0001', '\ufeff{', '   ', '\t', '{"a": 1}{"b": 2}'),
    // A real line cut short, or with a field broken.
    fc.tuple(fc.nat(), fc.nat()).map(([i, cut]) => {
      const line = lines[i % Math.max(1, lines.length)] ?? '{"x"';
      return line.slice(0, cut % Math.max(1, line.length));
    }),
    fc.nat().map((i) => (lines[i % Math.max(1, lines.length)] ?? '{}').replace('"lamport_clock": ', '"lamport_clock": "')),
  );

interface Damaged {
  text: string;
  /** The events that must be recovered, in file order. */
  expected: GlossaryEvent[];
}

/** Interleaves garbage, blank lines, CRLF endings and a BOM into the log, then maybe cuts it off. */
const damagedLog = fc
  .array(event, { minLength: 1, maxLength: 25 })
  .chain((events) => {
    events.forEach((e, i) => Object.assign(e, { lamport_clock: i + 1, event_id: uuidFor(1_000_000 + i) }));
    const lines = events.map(serializeEvent);
    return fc.record({
      events: fc.constant(events),
      lines: fc.constant(lines),
      inserts: fc.array(fc.tuple(fc.nat(lines.length), garbage(lines)), { maxLength: 12 }),
      crlf: fc.array(fc.boolean(), { minLength: lines.length, maxLength: lines.length }),
      bom: fc.boolean(),
      cut: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    });
  })
  .map(({ events, lines, inserts, crlf, bom, cut }): Damaged => {
    // Pieces: [line text, event or undefined]; garbage never contains '\n' (it would just be more garbage lines).
    const pieces: { text: string; event?: GlossaryEvent; crlf: boolean }[] = lines.map((line, i) => ({ text: line, event: events[i]!, crlf: crlf[i]! }));
    for (const [at, junk] of [...inserts].sort((a, b) => b[0] - a[0])) pieces.splice(at, 0, { text: junk.replace(/\n/g, ' '), crlf: false });
    let full = bom ? '\ufeff' : '';
    const ends: { end: number; lineEnd: number; event?: GlossaryEvent }[] = [];
    for (const piece of pieces) {
      const start = full.length;
      full += piece.text;
      const lineEnd = full.length;
      full += piece.crlf ? '\r\n' : '\n';
      ends.push({ end: start, lineEnd, ...(piece.event ? { event: piece.event } : {}) });
    }
    let textOut = full;
    if (cut !== undefined) textOut = full.slice(0, Math.floor(cut * full.length));
    // Recovered: lines complete before the cut (a last line cut exactly at its end still counts).
    const expected = ends.filter((e) => e.event && e.lineEnd <= textOut.length).map((e) => e.event!);
    return { text: textOut, expected };
  });

const ids = (events: readonly LoggedEvent[]) => events.map((e) => e.event_id);

function expectProblemsOnBadLines(text: string, problems: readonly { line: number }[]): void {
  const lines = text.replace(/^\ufeff/, '').split('\n');
  for (const problem of problems) {
    const line = lines[problem.line - 1];
    expect(line, `problem on line ${problem.line}`).toBeDefined();
    expect(parseEventLine(line!.replace(/\r$/, '')).ok, `line ${problem.line} was reported but is a valid event`).toBe(false);
  }
}

let tmp: string | undefined;
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('event log properties', () => {
  it('garbage lines, blank lines, CRLF, a BOM and a cut-off tail: every whole valid line is recovered, in order, and only those', () => {
    fc.assert(
      fc.property(damagedLog, ({ text, expected }) => {
        const { events, problems } = parseEventLog(text, 'log');
        expect(ids(events)).toEqual(ids(expected));
        expect(events).toEqual(expected);
        expectProblemsOnBadLines(text, problems);
      }),
      { numRuns: propertyRuns(250) },
    );
  });

  it('the same whatever the chunking of the input', () => {
    fc.assert(
      fc.property(damagedLog, fc.array(fc.nat(), { maxLength: 12 }), ({ text, expected }, cuts) => {
        const events: LoggedEvent[] = [];
        const problems: { line: number }[] = [];
        const parser = new EventLogParser('log', { event: (e) => events.push(e), problem: (p) => problems.push(p) });
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        let from = 0;
        for (const point of [...points, text.length]) {
          parser.push(text.slice(from, point));
          from = point;
        }
        parser.end();
        expect(ids(events)).toEqual(ids(expected));
        expect(problems).toEqual(parseEventLog(text, 'log').problems.map(({ line, message }) => ({ file: 'log', line, message })));
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('from a file (the byte reader): every whole valid line recovered; an append after the damage starts a new line and loses nothing', async () => {
    tmp = mkdtempSync(path.join(tmpdir(), 'sg-prop-log-'));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(damagedLog, async ({ text, expected }) => {
        const root = path.join(tmp!, `ws${run++}`);
        const file = eventLogPath(root, MISSION);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, text);
        const store = new EventStore(root);
        const read = await store.readAll();
        expect(ids(read.events)).toEqual(ids(expected));
        expectProblemsOnBadLines(text, read.problems);
        // Replay's fast path (lines of unwanted types skipped unparsed) recovers the same lines.
        const wanted: LoggedEvent[] = [];
        await store.stream((e) => wanted.push(e), { wants: (type) => STATE_EVENT_TYPES.has(type) });
        expect(ids(wanted)).toEqual(ids(expected.filter((e) => STATE_EVENT_TYPES.has(e.event_type))));
        const [appended] = await store.append(MISSION, [{ event_type: 'TermCandidateObserved', mission_id: MISSION, run_id: 'cli-prop', term: 'after', source_step: 'spec', actor_id: 'service:prop', confidence: 0.5, extraction_method: 'acronym', context: 'x' }]);
        const again = await new EventStore(root).readAll();
        expect(ids(again.events)).toEqual([...ids(expected), appended!.event_id]);
        // The clock continues above every clock the file shows, valid lines or not.
        expect(appended!.lamport_clock).toBeGreaterThan(Math.max(0, ...expected.map((e) => e.lamport_clock)));
        rmSync(root, { recursive: true, force: true });
      }),
      { numRuns: propertyRuns(40) },
    );
  });
});
