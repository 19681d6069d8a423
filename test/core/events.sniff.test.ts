import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EventLogParser, isUnwantedLine } from '../../server/src/core/events/parseLog';
import { serializeEvent } from '../../server/src/core/events/serialize';
import { maxLamportInText, sniffEventType } from '../../server/src/core/events/sniff';
import { STATE_EVENT_TYPES, type LoggedEvent } from '../../server/src/core/events/types';
import { EXAMPLE_LOG, resolved } from '../fixtures/events/factory';

const exampleLines = readFileSync(EXAMPLE_LOG, 'utf8').split('\n').filter((l) => l !== '');
const wantsState = (t: Parameters<typeof STATE_EVENT_TYPES.has>[0]) => STATE_EVENT_TYPES.has(t);

describe('sniffEventType', () => {
  it('reads the type of every example line, including one with nested objects before the key', () => {
    for (const line of exampleLines) expect(sniffEventType(line)).toBe(JSON.parse(line).event_type);
  });

  it('works on positions inside a larger text', () => {
    const text = exampleLines.join('\n');
    let from = 0;
    for (const line of exampleLines) {
      expect(sniffEventType(text, from, from + line.length)).toBe(JSON.parse(line).event_type);
      from += line.length + 1;
    }
  });

  it('refuses to guess when the key is nested, escaped, or a value', () => {
    expect(sniffEventType('{"caused_by": {"event_type": "TermCandidateObserved"}, "event_type": "GlossarySenseUpdated"}')).toBeUndefined();
    expect(sniffEventType('{"context": "event_type", "x": 1}')).toBeUndefined();
    expect(sniffEventType('{"event_type": "SomethingNew"}')).toBeUndefined();
    expect(sniffEventType('{"event_type": "Glossary\\u0053enseUpdated"}')).toBeUndefined();
    // Quoted text inside strings never looks like a key.
    expect(sniffEventType('{"context": "say \\"event_type\\": \\"StepCheckpointed\\"", "event_type": "GlossarySenseUpdated"}')).toBe('GlossarySenseUpdated');
    expect(sniffEventType('{"say \\"event_type": "StepCheckpointed", "event_type": "GlossarySenseUpdated"}')).toBe('GlossarySenseUpdated');
  });
});

describe('isUnwantedLine', () => {
  it('skips only complete lines of unwanted types', () => {
    const audit = exampleLines[1]!; // TermCandidateObserved
    expect(isUnwantedLine(audit, true, wantsState)).toBe(true);
    expect(isUnwantedLine(audit, false, wantsState)).toBe(false); // maybe torn: parse and report
    expect(isUnwantedLine(audit.slice(0, -1), true, wantsState)).toBe(false);
    expect(isUnwantedLine(exampleLines[6]!, true, wantsState)).toBe(false); // Resolved is wanted
  });

  it('a state event whose extension field nests another event_type is still replayed', () => {
    const event = { caused_by: { event_type: 'TermCandidateObserved' }, ...resolved({ conflict: 'c1' }) };
    const events: LoggedEvent[] = [];
    const parser = new EventLogParser('log', { event: (e) => events.push(e), problem: () => undefined }, { wants: wantsState });
    parser.push(serializeEvent(event) + '\n' + exampleLines[1] + '\n');
    parser.end();
    expect(events.map((e) => e.event_type)).toEqual(['GlossaryClarificationResolved']);
  });
});

describe('maxLamportInText', () => {
  it('finds the highest clock across lines, torn lines included, ignoring non-integers', () => {
    expect(maxLamportInText(exampleLines.join('\n'))).toBe(8);
    expect(maxLamportInText('{"lamport_clock": 12, "x": 1}\n{"lamport_clock":40\n{"lamport_clock": 99.5}\n{"lamport_clock": 1e9}')).toBe(40);
    expect(maxLamportInText('no clocks here')).toBe(-1);
  });
});
