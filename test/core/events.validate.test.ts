import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TYPE_SHAPES } from '../../server/src/core/events/schema';
import { EVENT_TYPES, type EventType } from '../../server/src/core/events/types';
import { validateDraft, validateEvent } from '../../server/src/core/events/validate';
import { EXAMPLE_LOG, toDraft } from '../fixtures/events/factory';

const examples = new Map<EventType, Record<string, unknown>>(
  readFileSync(EXAMPLE_LOG, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const e = JSON.parse(l) as Record<string, unknown>;
      return [e['event_type'] as EventType, e];
    }),
);

function example(type: EventType): Record<string, unknown> {
  return structuredClone(examples.get(type)!);
}

function errorsOf(value: unknown): string[] {
  const result = validateEvent(value);
  return result.ok ? [] : result.errors;
}

/** Sets a value at a dotted path with [i] indexes, e.g. "findings[0].severity". */
function setPath(obj: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.replace(/\[(\d+)\]/g, '.$1').split('.');
  let target = obj as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) target = target[part] as Record<string, unknown>;
  target[parts.at(-1)!] = value;
}

describe('validateEvent', () => {
  it('has an example of every type', () => {
    expect([...examples.keys()].sort()).toEqual([...EVENT_TYPES].sort());
  });

  for (const type of EVENT_TYPES) {
    it(`${type}: every missing required field is named`, () => {
      const fields = ['event_id', 'timestamp', 'lamport_clock', 'mission_id', 'run_id', ...Object.keys(TYPE_SHAPES[type])];
      for (const field of fields) {
        const event = example(type);
        delete event[field];
        expect(errorsOf(event), field).toEqual([`${field}: required field is missing`]);
      }
    });
  }

  const wrong: Array<[EventType, string, unknown, string]> = [
    ['GlossaryScopeActivated', 'scope_id', 'galaxy_domain', 'scope_id: expected one of mission_local|team_domain|audience_domain|spec_kitty_core, got "galaxy_domain"'],
    ['SemanticCheckEvaluated', 'overall_severity', 'extreme', 'overall_severity: expected one of low|medium|high'],
    ['SemanticCheckEvaluated', 'effective_strictness', 'strict', 'effective_strictness: expected one of off|medium|max'],
    ['SemanticCheckEvaluated', 'recommended_action', 'panic', 'recommended_action: expected one of proceed|warn|block'],
    ['SemanticCheckEvaluated', 'blocked', 'yes', 'blocked: expected a boolean, got "yes"'],
    ['SemanticCheckEvaluated', 'findings[0].conflict_type', 'weird', 'findings[0].conflict_type: expected one of unknown|ambiguous|inconsistent|unresolved_critical'],
    ['SemanticCheckEvaluated', 'findings[0].candidate_senses[1].scope', 'nowhere', 'findings[0].candidate_senses[1].scope: expected one of'],
    ['SemanticCheckEvaluated', 'confidence', 1.5, 'confidence: expected a number between 0 and 1, got number 1.5'],
    ['GenerationBlockedBySemanticConflict', 'strictness_mode', 'hard', 'strictness_mode: expected one of off|medium|max'],
    ['GenerationBlockedBySemanticConflict', 'conflicts[0].severity', 'huge', 'conflicts[0].severity: expected one of low|medium|high'],
    ['GlossaryClarificationRequested', 'urgency', 'now', 'urgency: expected one of low|medium|high'],
    ['GlossaryClarificationRequested', 'options', 'a,b', 'options: expected an array'],
    ['GlossaryClarificationResolved', 'resolution_mode', 'telepathy', 'resolution_mode: expected one of interactive|async'],
    ['GlossaryClarificationResolved', 'actor.actor_type', 'robot', 'actor.actor_type: expected one of human|llm|service'],
    ['GlossaryClarificationResolved', 'selected_sense.confidence', '0.9', 'selected_sense.confidence: expected a number between 0 and 1, got "0.9"'],
    ['GlossaryClarificationResolved', 'provenance.timestamp', 'yesterday', 'provenance.timestamp: expected an ISO 8601 timestamp'],
    ['GlossarySenseUpdated', 'update_type', 'delete', 'update_type: expected one of create|update'],
    ['GlossarySenseUpdated', 'new_sense.status', 'retired', 'new_sense.status: expected one of active|draft|deprecated'],
    ['GlossarySenseUpdated', 'scope', 'global', 'scope: expected one of'],
    ['StepCheckpointed', 'strictness', 'lenient', 'strictness: expected one of off|medium|max'],
    ['StepCheckpointed', 'scope_refs[1].scope', 'x', 'scope_refs[1].scope: expected one of'],
    ['TermCandidateObserved', 'event_id', 'not-a-uuid', 'event_id: expected a uuid, got "not-a-uuid"'],
    ['TermCandidateObserved', 'timestamp', '16/02/2026 12:00', 'timestamp: expected an ISO 8601 timestamp'],
    ['TermCandidateObserved', 'lamport_clock', -1, 'lamport_clock: expected a non-negative integer, got number -1'],
    ['TermCandidateObserved', 'lamport_clock', 1.5, 'lamport_clock: expected a non-negative integer'],
    ['TermCandidateObserved', 'mission_id', '', 'mission_id: expected a non-empty string'],
  ];
  for (const [type, field, value, message] of wrong) {
    it(`${type}: wrong ${field} is named`, () => {
      const event = example(type);
      setPath(event, field, value);
      const errors = errorsOf(event);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain(message);
    });
  }

  it('rejects unknown event types and non-objects', () => {
    expect(errorsOf({ ...example('StepCheckpointed'), event_type: 'GlossaryExploded' })).toEqual([
      'event_type: unknown event type "GlossaryExploded"',
    ]);
    expect(errorsOf({})).toEqual(['event_type: required field is missing']);
    expect(errorsOf([1])).toEqual(['event: expected a JSON object, got an array']);
    expect(errorsOf(null)).toEqual(['event: expected a JSON object, got null']);
  });

  it('tolerates extra fields (forward compatibility)', () => {
    expect(errorsOf({ ...example('GlossarySenseUpdated'), schema_version: 2, extra: { nested: true } })).toEqual([]);
  });
});

describe('validateDraft', () => {
  it('accepts an event without the store-assigned fields', () => {
    const draft = toDraft(example('GlossaryClarificationResolved') as never);
    expect(validateDraft(draft)).toMatchObject({ ok: true });
  });

  it('refuses store-assigned fields and still checks the rest', () => {
    const draft = { ...toDraft(example('GlossaryClarificationResolved') as never), event_id: 'x', resolution_mode: 'psychic' };
    const result = validateDraft(draft);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.errors).toEqual([
      'event_id: assigned by the event store, leave it out of drafts',
      'resolution_mode: expected one of interactive|async, got "psychic"',
    ]);
  });
});
