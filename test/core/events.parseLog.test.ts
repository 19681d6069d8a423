import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EventLogParser, parseEventLog } from '../../server/src/core/events/parseLog';
import { serializeEvent } from '../../server/src/core/events/serialize';
import type { LoggedEvent, LogPosition } from '../../server/src/core/events/types';
import { EXAMPLE_LOG, observed, resolved, senseUpdated } from '../fixtures/events/factory';

const a = serializeEvent(observed({ term: 'alpha' }));
const b = serializeEvent(resolved({ conflict: 'c1', term: 'beta' }));
const c = serializeEvent(senseUpdated({ surface: 'gamma' }));

const terms = (events: LoggedEvent[]) =>
  events.map((e) => (e.event_type === 'TermCandidateObserved' ? e.term : e.event_type === 'GlossaryClarificationResolved' ? e.term_surface : e.event_type === 'GlossarySenseUpdated' ? e.term_surface : '?'));

describe('parseEventLog', () => {
  it('reads the example log without problems', () => {
    const { events, problems } = parseEventLog(readFileSync(EXAMPLE_LOG, 'utf8'), 'example');
    expect(problems).toEqual([]);
    expect(events.map((e) => e.lamport_clock)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('skips a torn last line and says so', () => {
    const { events, problems } = parseEventLog(`${a}\n${b}\n${c.slice(0, 40)}`, 'log');
    expect(terms(events)).toEqual(['alpha', 'beta']);
    expect(problems).toEqual([{ file: 'log', line: 3, message: expect.stringContaining('torn last line') }]);
  });

  it('keeps an unterminated last line that is a complete event', () => {
    const { events, problems } = parseEventLog(`${a}\n${b}`, 'log');
    expect(terms(events)).toEqual(['alpha', 'beta']);
    expect(problems).toEqual([]);
  });

  it('skips garbage and invalid lines in the middle without hiding the lines after them', () => {
    const invalid = serializeEvent({ ...JSON.parse(b), urgency: 'x', resolution_mode: 'psychic' });
    const text = [a, 'not json at all', '{"half": ', invalid, '[1,2]', '', '   ', b, c, ''].join('\n');
    const { events, problems } = parseEventLog(text, 'log');
    expect(terms(events)).toEqual(['alpha', 'beta', 'gamma']);
    expect(problems.map((p) => p.line)).toEqual([2, 3, 4, 5]);
    expect(problems[0]!.message).toMatch(/^not valid JSON/);
    expect(problems[2]!.message).toBe('invalid GlossaryClarificationResolved event: resolution_mode: expected one of interactive|async, got "psychic"; line skipped');
    expect(problems[3]!.message).toBe('invalid event: event: expected a JSON object, got an array; line skipped');
  });

  it('tolerates a UTF-8 BOM and CRLF line endings', () => {
    const { events, problems } = parseEventLog(`\uFEFF${a}\r\n${b}\r\n{oops\r\n${c}\r\n`, 'log');
    expect(terms(events)).toEqual(['alpha', 'beta', 'gamma']);
    expect(problems).toEqual([{ file: 'log', line: 3, message: expect.stringMatching(/^not valid JSON/) }]);
  });

  it('gives the same result whatever the chunking', () => {
    const text = `\uFEFF${a}\r\n${b}\nnoise\n${c}\n${a.slice(0, 30)}`;
    const whole = parseEventLog(text, 'log');
    for (const size of [1, 2, 7, 64]) {
      const events: LoggedEvent[] = [];
      const positions: LogPosition[] = [];
      const problems: unknown[] = [];
      const parser = new EventLogParser('log', {
        event: (e, _line, position) => {
          events.push(e);
          positions.push(position);
        },
        problem: (p) => problems.push(p),
      });
      for (let i = 0; i < text.length; i += size) parser.push(text.slice(i, i + size));
      parser.end();
      expect({ events, positions, problems }, `chunk ${size}`).toEqual(whole);
    }
    expect(whole.problems.map((p) => p.line)).toEqual([3, 5]);
  });

  it('skips unwanted types without parsing them when asked', () => {
    const events: LoggedEvent[] = [];
    const problems: unknown[] = [];
    const parser = new EventLogParser('log', { event: (e) => events.push(e), problem: (p) => problems.push(p) }, { wants: (t) => t !== 'TermCandidateObserved' });
    parser.push(`${a}\n${b}\n${c.slice(0, 50)}\n`);
    parser.end();
    expect(terms(events)).toEqual(['beta']);
    expect(problems).toHaveLength(1); // the torn line is still reported: its type could not be trusted
  });
});
