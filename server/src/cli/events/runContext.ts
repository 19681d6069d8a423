/**
 * Who and which run a CLI invocation's events belong to (SPEC §7): `run_id` is `cli-<uuid4>`,
 * one per invocation (a command creates its run once and passes it on); decisions are made by `user:<os user name>`, a human; extraction is done by
 * the service itself.
 */

import { randomUUID } from 'node:crypto';
import { isoTimestamp } from '../../core/events/timestamp';
import type { ActorIdentity } from '../../core/events/types';
import { currentActor } from '../../node/actor';
import type { DecisionContext } from '../../core/events/decisions';

/** actor_id of TermCandidateObserved: the extractor is this tool, not a person. */
export const SERVICE_ACTOR_ID = 'service:spec-glossary';

export interface RunContext {
  /** `cli-<uuid4>`. */
  runId: string;
  actor: ActorIdentity;
}

/** A new run: called once per invocation, so every event of it shares its run_id. */
export function newRunContext(): RunContext {
  return { runId: `cli-${randomUUID()}`, actor: currentActor() };
}

/** What the shared decision builders (core/events/decisions.ts) need for one mission. */
export function decisionContext(missionId: string, run: RunContext): DecisionContext {
  return { missionId, runId: run.runId, actor: run.actor, timestamp: isoTimestamp() };
}
