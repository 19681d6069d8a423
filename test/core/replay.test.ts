import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GlossaryEvent } from '../../server/src/core/events/types';
import { compareTimestamps, createReplayAccumulator, replayEvents, replayToJson, sensesForMission } from '../../server/src/core/replay';
import { observed, requested, resolved, senseUpdated, uuidFor } from '../fixtures/events/factory';

describe('replayEvents: pins', () => {
  it('pins the selected sense for (mission, normalized term)', () => {
    const state = replayEvents([resolved({ conflict: 'c1', term: 'Workspaces', lamport: 1 })]);
    expect(state.pins).toEqual([
      {
        missionId: 'm1',
        term: 'workspace',
        sense: { surface: 'workspaces', scope: 'team_domain', definition: 'Git worktree directory', confidence: 0.9 },
        conflictId: 'c1',
        eventId: expect.any(String),
        actorId: 'user:alice',
        timestamp: '2026-02-16T12:00:00.000Z',
      },
    ]);
    expect(state.openClarifications).toEqual([]);
    expect(state.problems).toEqual([]);
  });

  it('latest pin wins per mission and term, by lamport then timestamp then event_id', () => {
    const state = replayEvents([
      resolved({ conflict: 'c3', lamport: 3, definition: 'third' }),
      resolved({ conflict: 'c1', lamport: 1, definition: 'first' }),
      resolved({ conflict: 'c4', lamport: 3, timestamp: '2026-02-16T11:00:00.000Z', definition: 'earlier timestamp' }),
      resolved({ conflict: 'c2', lamport: 2, mission: 'm2', definition: 'other mission' }),
    ]);
    expect(state.pins.map((p) => [p.missionId, p.sense.definition])).toEqual([
      ['m2', 'other mission'],
      ['m1', 'third'],
    ]);
  });
});

describe('replayEvents: clarifications', () => {
  it('a Requested stays open until a Resolved with its conflict_id', () => {
    const open = replayEvents([requested({ conflict: 'c1', lamport: 1 }), requested({ conflict: 'c2', lamport: 2, term: 'Policies' })]);
    expect(open.openClarifications.map((o) => [o.conflictId, o.term, o.stepId, o.urgency])).toEqual([
      ['c1', 'workspace', 'spec', 'high'],
      ['c2', 'policy', 'spec', 'high'],
    ]);
    const closed = replayEvents([requested({ conflict: 'c1', lamport: 1 }), requested({ conflict: 'c2', lamport: 2 }), resolved({ conflict: 'c1', lamport: 3 })]);
    expect(closed.openClarifications.map((o) => o.conflictId)).toEqual(['c2']);
  });

  it('a Resolved closes its Requested even when it sorts first (another file, lower clock)', () => {
    // Two logs concatenated: the Resolved came from a log whose clocks are lower.
    const fileA = [requested({ conflict: 'c1', lamport: 9, mission: 'm1' })];
    const fileB = [resolved({ conflict: 'c1', lamport: 1, mission: 'm1' })];
    const state = replayEvents([...fileA, ...fileB]);
    expect(state.openClarifications).toEqual([]);
    expect(state.pins).toHaveLength(1);
  });

  it('a second Resolved of one conflict is reported, and its pin still applies', () => {
    const first = resolved({ conflict: 'c1', lamport: 2, definition: 'first' });
    const second = resolved({ conflict: 'c1', lamport: 3, definition: 'second' });
    const state = replayEvents([requested({ conflict: 'c1', lamport: 1 }), second, first]);
    expect(state.pins.map((p) => p.sense.definition)).toEqual(['second']);
    expect(state.problems).toEqual([
      {
        eventId: second.event_id,
        missionId: 'm1',
        message: `conflict c1 was resolved by 2 events; the first (${first.event_id}) closed it, the later ones (latest ${second.event_id}) still pin their senses`,
      },
    ]);
  });
});

describe('replayEvents: reopening a decision', () => {
  it('an open Requested marked as a reopening after the pin unpins the term until a later Resolved answers it', () => {
    const pin = resolved({ conflict: 'c1', lamport: 1, definition: 'first' });
    const reopen = requested({ conflict: 'c2', lamport: 2, reopens: true });
    const reopened = replayEvents([pin, reopen]);
    expect(reopened.pins).toEqual([]);
    expect(reopened.openClarifications.map((o) => o.conflictId)).toEqual(['c2']);

    const answered = replayEvents([pin, reopen, resolved({ conflict: 'c2', lamport: 3, definition: 'second' })]);
    expect(answered.pins.map((p) => [p.conflictId, p.sense.definition])).toEqual([['c2', 'second']]);
    expect(answered.openClarifications).toEqual([]);
  });

  it("any other Requested after the pin leaves it (SPEC §6: pinned from then on; Spec Kitty's pipeline asks about every conflict it sees)", () => {
    const state = replayEvents([resolved({ conflict: 'c1', lamport: 1, definition: 'first' }), requested({ conflict: 'c2', lamport: 2 })]);
    expect(state.pins.map((p) => [p.conflictId, p.sense.definition])).toEqual([['c1', 'first']]);
    expect(state.openClarifications.map((o) => o.conflictId)).toEqual(['c2']);
  });

  it('a Requested before the pin, another term or another mission leaves the pin alone', () => {
    const state = replayEvents([
      requested({ conflict: 'c0', lamport: 1, term: 'worktree' }),
      resolved({ conflict: 'c1', lamport: 2 }),
      requested({ conflict: 'c2', lamport: 3, term: 'worktree' }),
      requested({ conflict: 'c3', lamport: 4, mission: 'm2' }),
    ]);
    expect(state.pins.map((p) => [p.missionId, p.term])).toEqual([['m1', 'workspace']]);
    // Deterministic whatever the input order.
    const shuffled = replayEvents([requested({ conflict: 'c3', lamport: 4, mission: 'm2' }), resolved({ conflict: 'c1', lamport: 2 }), requested({ conflict: 'c0', lamport: 1, term: 'worktree' })]);
    expect(shuffled.pins.map((p) => [p.missionId, p.term])).toEqual([['m1', 'workspace']]);
  });
});

describe('replayEvents: senses', () => {
  it('create adds an event sense with provenance', () => {
    const e = senseUpdated({ surface: 'Frobnicators', lamport: 1 });
    const state = replayEvents([e]);
    expect(state.addedSenses).toEqual([
      {
        surface: 'frobnicator',
        scope: 'team_domain',
        definition: 'A device that frobs widgets',
        confidence: 1,
        status: 'active',
        synonymsToAvoid: [],
        seeAlso: [],
        origin: { kind: 'event', eventId: e.event_id, missionId: 'm1', actorId: 'user:alice', timestamp: e.timestamp, source: 'user_clarification' },
      },
    ]);
  });

  it('update replaces the sense with the same surface, scope and definition in place; else adds', () => {
    const state = replayEvents([
      senseUpdated({ lamport: 1, definition: 'one' }),
      senseUpdated({ lamport: 2, definition: 'two' }),
      senseUpdated({ lamport: 3, definition: 'one', status: 'deprecated', update: 'update' }),
      senseUpdated({ lamport: 4, definition: 'three', update: 'update' }),
      senseUpdated({ lamport: 5, definition: 'two', scope: 'audience_domain', update: 'update' }),
    ]);
    expect(state.addedSenses.map((s) => [s.definition, s.scope, s.status])).toEqual([
      ['one', 'team_domain', 'deprecated'],
      ['two', 'team_domain', 'active'],
      ['three', 'team_domain', 'active'],
      ['two', 'audience_domain', 'active'],
    ]);
  });

  it('mission_local senses belong to the mission of their event', () => {
    const state = replayEvents([
      senseUpdated({ lamport: 1, scope: 'mission_local', mission: 'm1', definition: 'local meaning' }),
      senseUpdated({ lamport: 2, scope: 'mission_local', mission: 'm2', definition: 'local meaning' }),
      senseUpdated({ lamport: 3, scope: 'team_domain', mission: 'm2', definition: 'shared meaning' }),
    ]);
    // Same surface and definition, two missions: two senses, each tagged with its mission.
    expect(state.addedSenses.map((s) => [s.scope, s.origin.kind === 'event' && s.origin.missionId])).toEqual([
      ['mission_local', 'm1'],
      ['mission_local', 'm2'],
      ['team_domain', 'm2'],
    ]);
    expect(sensesForMission(state.addedSenses, 'm1').map((s) => s.definition)).toEqual(['local meaning', 'shared meaning']);
    const json = replayToJson(state, 'm1');
    expect(json.senses.mission_local.map((s) => s.mission_id)).toEqual(['m1']);
    expect(json.senses.team_domain).toHaveLength(1);
  });
});

describe('replayEvents: duplicates and determinism', () => {
  it('copies of one event (same event_id) count once', () => {
    const request = requested({ conflict: 'c1', lamport: 1 });
    const e = resolved({ conflict: 'c1', lamport: 2 });
    const state = replayEvents([request, { ...request }, e, structuredClone(e), { ...e }]);
    expect(state.pins).toHaveLength(1);
    expect(state.openClarifications).toEqual([]);
    expect(state.problems).toEqual([]); // a duplicated line is neither a second resolution nor a second request
  });

  it('a corrupted copy sharing an event_id still gives one deterministic state', () => {
    const e = resolved({ conflict: 'c1', lamport: 1 });
    const tampered = { ...e, lamport_clock: 7, selected_sense: { ...e.selected_sense, definition: 'tampered' } };
    const a = JSON.stringify(replayEvents([tampered, e]));
    expect(JSON.stringify(replayEvents([e, tampered]))).toBe(a);
    expect(JSON.parse(a).problems).toEqual([]);
  });

  it('consecutive events about one conflict and term (the common log order) fold like any others', () => {
    // The accumulator compares each event with the previous one's conflict, term and mission
    // before looking them up; runs of one conflict must still count distinct events.
    const ask = requested({ conflict: 'c1', lamport: 1, term: 'Workspaces' });
    const first = resolved({ conflict: 'c1', lamport: 2, term: 'Workspaces', definition: 'first' });
    const second = resolved({ conflict: 'c1', lamport: 3, term: 'workspace', definition: 'second', mission: 'm2' });
    const again = requested({ conflict: 'c1', lamport: 4, term: 'Workspaces' });
    const other = requested({ conflict: 'c2', lamport: 5, term: 'Workspaces', reopens: true });
    const inOrder = [ask, first, { ...first }, second, again, other];
    const state = replayEvents(inOrder);
    // c2, requested after m1's pin and still open, reopens the question for m1 (m2 keeps its pin).
    expect(state.pins.map((p) => [p.missionId, p.term, p.sense.definition])).toEqual([['m2', 'workspace', 'second']]);
    expect(state.openClarifications.map((o) => [o.conflictId, o.term])).toEqual([['c2', 'workspace']]);
    expect((state.problems ?? []).map((p) => p.message)).toEqual([
      `conflict c1 was resolved by 2 events; the first (${first.event_id}) closed it, the later ones (latest ${second.event_id}) still pin their senses`,
      `conflict c1 was requested by 2 events; the first (${ask.event_id}) is kept`,
    ]);
    expect(JSON.stringify(replayEvents([...inOrder].reverse()))).toBe(JSON.stringify(state));
  });

  it('ignores audit-only event types', () => {
    expect(replayEvents([observed({ lamport: 1 })])).toEqual({ addedSenses: [], pins: [], openClarifications: [], problems: [] });
  });

  it('refuses events after finish', () => {
    const acc = createReplayAccumulator();
    acc.finish();
    expect(() => acc.add(observed({}))).toThrow(/finished/);
  });

  const events: GlossaryEvent[] = [
    senseUpdated({ id: uuidFor(101), lamport: 1, definition: 'one' }),
    senseUpdated({ id: uuidFor(102), lamport: 1, definition: 'one', status: 'draft', update: 'update' }),
    senseUpdated({ id: uuidFor(103), lamport: 2, scope: 'mission_local', definition: 'one' }),
    requested({ id: uuidFor(104), lamport: 2, conflict: 'c1' }),
    requested({ id: uuidFor(105), lamport: 2, conflict: 'c1' }),
    requested({ id: uuidFor(106), lamport: 3, conflict: 'c2', mission: 'm2' }),
    resolved({ id: uuidFor(107), lamport: 3, conflict: 'c1', definition: 'x' }),
    resolved({ id: uuidFor(108), lamport: 3, conflict: 'c1', definition: 'y', timestamp: '2026-02-16T12:00:00Z' }),
    resolved({ id: uuidFor(109), lamport: 1, conflict: 'c9', term: 'policy', mission: 'm2' }),
    resolved({ id: uuidFor(107), lamport: 4, conflict: 'c1', definition: 'conflicting copy of 107' }),
    senseUpdated({ id: uuidFor(101), lamport: 1, definition: 'corrupted copy of 101, same key' }),
    observed({ id: uuidFor(110), lamport: 5 }),
  ];

  it('the same events in any order (with duplicates) give byte-identical state', () => {
    const reference = JSON.stringify(replayEvents(events));
    expect(reference).toContain('"problems":[{');
    fc.assert(
      fc.property(fc.shuffledSubarray(events, { minLength: events.length }), fc.array(fc.nat(events.length - 1), { maxLength: 5 }), (shuffled, dupes) => {
        const input = [...shuffled, ...dupes.map((i) => structuredClone(events[i]!))];
        expect(JSON.stringify(replayEvents(input))).toBe(reference);
        expect(JSON.stringify(replayToJson(replayEvents(input), 'm1'))).toBe(JSON.stringify(replayToJson(replayEvents(events), 'm1')));
      }),
      { numRuns: 300 },
    );
  });
});

describe('replayToJson', () => {
  it('has a fixed shape and filters by mission', () => {
    const state = replayEvents([
      requested({ conflict: 'c1', lamport: 1, mission: 'm1' }),
      requested({ conflict: 'c2', lamport: 2, mission: 'm2' }),
      resolved({ conflict: 'c3', lamport: 3, mission: 'm2' }),
      senseUpdated({ lamport: 4, mission: 'm2' }),
    ]);
    const json = replayToJson(state, 'm1');
    expect(Object.keys(json)).toEqual(['mission_id', 'senses', 'pins', 'open_clarifications', 'problems']);
    expect(Object.keys(json.senses)).toEqual(['mission_local', 'team_domain', 'audience_domain', 'spec_kitty_core']);
    expect(json.mission_id).toBe('m1');
    expect(json.pins).toEqual([]);
    expect(json.open_clarifications.map((o) => o.conflict_id)).toEqual(['c1']);
    expect(json.senses.team_domain.map((s) => [s.surface, s.mission_id, s.source])).toEqual([['frobnicator', 'm2', 'user_clarification']]);
    const all = replayToJson(state);
    expect(all.mission_id).toBeNull();
    expect(all.pins.map((p) => [p.mission_id, p.term, p.selected_sense.definition])).toEqual([['m2', 'workspace', 'Git worktree directory']]);
    expect(all.open_clarifications).toHaveLength(2);
  });
});

describe('compareTimestamps', () => {
  it('compares the shapes Python writes as instants: a space or a T, minutes only, a date alone, offsets', () => {
    const ordered = ['2026-02-16', '2026-02-16 11:59:59+00:00', '2026-02-16T12:00', '2026-02-16T12:00:00.001Z', '2026-02-16 12:00:00.5', '2026-02-16T13:00:00+00:00', '2026-02-16T15:30:00+02:00', '2026-02-16 14:00:00+00:00'];
    // (13:00 with a T and 14:00 with a space have one length and one offset: not compared as strings.)
    for (let i = 0; i < ordered.length; i++) {
      for (let j = 0; j < ordered.length; j++) {
        expect(Math.sign(compareTimestamps(ordered[i]!, ordered[j]!)), `${ordered[i]} vs ${ordered[j]}`).toBe(Math.sign(i - j));
      }
    }
  });
});
