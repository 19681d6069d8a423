/**
 * A generated event log for the replay benchmark: valid events of all eight types, written with
 * the real serializer (keys sorted, Python separators) into one log per mission, as the CLI and
 * the server write them.
 *
 * The mix repeats a cycle of ten events, as `check --emit-events` followed by a decision emits
 * them: three TermCandidateObserved, SemanticCheckEvaluated, GlossaryScopeActivated,
 * GenerationBlockedBySemanticConflict, StepCheckpointed, and the three events replay keeps
 * (GlossaryClarificationRequested, GlossaryClarificationResolved, GlossarySenseUpdated): 30% of
 * the lines change the replayed state.
 */

import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { serializeEvent } from '../server/src/core/events/serialize';
import type { GlossaryEvent } from '../server/src/core/events/types';
import type { ScopeId, SenseRef } from '../server/src/core/types';
import { Random, surfaceAt } from './generate';

const SCOPES: ScopeId[] = ['mission_local', 'team_domain', 'audience_domain', 'spec_kitty_core'];

function uuid(r: Random): string {
  const hex = (digits: number) => Math.floor(r.next() * 16 ** digits).toString(16).padStart(digits, '0');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[r.int(4)]}${hex(3)}-${hex(6)}${hex(6)}`;
}

export interface EventLogSummary {
  events: number;
  stateEvents: number;
  bytes: number;
  files: string[];
}

/**
 * Writes `count` events spread over `missions` mission logs under
 * `root/.kittify/events/glossary/`. `terms` distinct terms are pinned and defined over and over,
 * so the replayed state stays realistic (thousands of pins and senses, not a million).
 */
export function writeEventLogs(root: string, count: number, options: { missions?: number; terms?: number; seed?: number } = {}): EventLogSummary {
  const missions = options.missions ?? 10;
  const terms = options.terms ?? 2000;
  const r = new Random(options.seed ?? 11);
  const dir = path.join(root, '.kittify', 'events', 'glossary');
  mkdirSync(dir, { recursive: true });
  const summary: EventLogSummary = { events: 0, stateEvents: 0, bytes: 0, files: [] };
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  for (let m = 0; m < missions; m++) {
    const missionId = `01KBENCH${String(m).padStart(2, '0')}MISSION${'ABCDEFGHJK'[m % 10]}`;
    const file = path.join(dir, `${missionId}.events.jsonl`);
    summary.files.push(file);
    const fd = openSync(file, 'w');
    const perMission = Math.floor(count / missions) + (m < count % missions ? 1 : 0);
    const runId = `cli-${uuid(r)}`;
    let buffer: string[] = [];
    let conflictId = uuid(r);
    let term = surfaceAt(0);
    let sense: SenseRef = { surface: term, scope: 'team_domain', definition: 'unused', confidence: 1 };
    for (let i = 0; i < perMission; i++) {
      const clock = i + 1;
      const timestamp = new Date(start + i * 1000).toISOString();
      if (i % 10 === 0) {
        term = surfaceAt(r.int(terms));
        sense = { surface: term, scope: SCOPES[r.int(4)]!, definition: `The ${term} as the team uses it (${r.int(5)})`, confidence: Math.round(r.next() * 100) / 100 };
      }
      const envelope = { event_id: uuid(r), timestamp, lamport_clock: clock, mission_id: missionId, run_id: runId };
      const finding = { term, conflict_type: 'ambiguous' as const, severity: 'high' as const, confidence: 0.9, candidate_senses: [sense, { ...sense, definition: `${sense.definition}, the other one` }], context: `kitty-specs/${missionId}/spec.md:${1 + r.int(400)}:${1 + r.int(80)}` };
      const actor = { actor_id: 'user:bench', actor_type: 'human' as const, display_name: 'bench' };
      const provenance = { actor_id: 'user:bench', source: 'user_clarification', timestamp };
      let event: GlossaryEvent;
      switch (i % 10) {
        case 0:
        case 1:
        case 2:
          event = { ...envelope, event_type: 'TermCandidateObserved', term, source_step: 'spec', actor_id: 'service:spec-glossary', confidence: 1.0, extraction_method: 'glossary_match', context: finding.context };
          break;
        case 3:
          event = { ...envelope, event_type: 'SemanticCheckEvaluated', step_id: 'spec', findings: [finding], overall_severity: 'high', confidence: 0.9, effective_strictness: 'medium', recommended_action: 'block', blocked: true };
          break;
        case 4:
          event = { ...envelope, event_type: 'GlossaryScopeActivated', scope_id: sense.scope, glossary_version_id: uuid(r).slice(0, 12).replace('-', 'a') };
          break;
        case 5:
          event = { ...envelope, event_type: 'GenerationBlockedBySemanticConflict', step_id: 'spec', conflicts: [finding], strictness_mode: 'medium', effective_strictness: 'medium' };
          break;
        case 6:
          event = { ...envelope, event_type: 'StepCheckpointed', step_id: 'spec', strictness: 'medium', scope_refs: [{ scope: 'team_domain', version_id: '3f2a9c1d7b4e' }], input_hash: '4765e44eb2155da88dcadd2849b2695a09a05ccf2a1eb9ac4a6adc5f1526de2e', cursor: 'pre_generation_gate', retry_token: uuid(r) };
          break;
        case 7:
          conflictId = uuid(r);
          event = { ...envelope, event_type: 'GlossaryClarificationRequested', question: `What does '${term}' mean in this context?`, term, options: [sense.definition, `${sense.definition}, the other one`], urgency: 'high', step_id: 'spec', conflict_id: conflictId };
          summary.stateEvents++;
          break;
        case 8:
          event = { ...envelope, event_type: 'GlossaryClarificationResolved', conflict_id: conflictId, term_surface: term, selected_sense: sense, actor, resolution_mode: 'interactive', provenance };
          summary.stateEvents++;
          break;
        default:
          event = { ...envelope, event_type: 'GlossarySenseUpdated', term_surface: term, scope: sense.scope, new_sense: { ...sense, status: 'active' }, actor, update_type: 'create', provenance };
          summary.stateEvents++;
      }
      buffer.push(serializeEvent(event));
      if (buffer.length === 10_000 || i === perMission - 1) {
        const chunk = buffer.join('\n') + '\n';
        summary.bytes += Buffer.byteLength(chunk);
        writeSync(fd, chunk);
        buffer = [];
      }
      summary.events++;
    }
    closeSync(fd);
  }
  return summary;
}
