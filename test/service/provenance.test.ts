/** How a sense came to be, in words (service/provenance.ts), for senses added by events. */
import { describe, expect, it } from 'vitest';
import type { Sense } from '../../server/src/core/types';
import { provenanceOf } from '../../server/src/service/provenance';

const sense = (origin: Partial<Extract<Sense['origin'], { kind: 'event' }>>): Sense => ({
  surface: 'delivery',
  scope: 'team_domain',
  definition: 'When a package reaches the customer',
  confidence: 1,
  status: 'active',
  synonymsToAvoid: [],
  seeAlso: [],
  origin: { kind: 'event', eventId: '', missionId: 'm', actorId: '', timestamp: '', source: '', ...origin },
});

describe('provenanceOf, a sense added by an event', () => {
  it('names its actor, time, source and event', () => {
    expect(provenanceOf(sense({ actorId: 'user:alice', timestamp: '2026-02-16T12:20:00.000Z', source: 'user_clarification', eventId: '0b8f3c1e-7a2d-4e5f-9c6b-1a2b3c4d5e6f' }), '/ws', true)).toBe(
      'added by user:alice at 2026-02-16T12:20:00.000Z (user_clarification, event 0b8f3c1e)',
    );
  });

  it("says what a Spec Kitty line left out (no event_id, actor or time) instead of leaving it blank", () => {
    expect(provenanceOf(sense({ source: 'cli_resolve' }), '/ws', true)).toBe('added by an unknown actor (cli_resolve, a log line without event_id)');
    expect(provenanceOf(sense({ actorId: 'user:bob', timestamp: '2026-03-01T09:00:00Z' }), '/ws', false)).toBe('added by user:bob at 2026-03-01T09:00:00Z (a log line without event_id)');
  });
});
