/**
 * From a validated log line to the `LoggedEvent` the rest of the code reads (SPEC §7 "Reading"):
 * the mission of a line without `mission_id` is its log's (the file name), a finding's
 * `{"surface_text": …}` term becomes the string, and a clock beyond `MAX_TRUSTED_CLOCK` is
 * dropped with a warning so the line is ordered like a line without a clock.
 */
import { isPlainObject } from './check';
import { MAX_TRUSTED_CLOCK, type LoggedEvent } from './types';

export const EVENT_LOG_SUFFIX = '.events.jsonl';

/**
 * The file-name form of a mission id (SPEC §2): characters outside `[A-Za-z0-9_.-]` become `-`,
 * as Spec Kitty's `re.sub` does: one dash per character, an emoji (two UTF-16 code units) included.
 */
export function missionFileStem(missionId: string): string {
  return missionId.replace(/[^A-Za-z0-9_.-]/gu, '-');
}

/** The mission a log holds, from its file name (`<dir>/M.events.jsonl` → `M`); undefined for other names. */
export function missionOfLogFile(file: string): string | undefined {
  const name = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
  if (!name.endsWith(EVENT_LOG_SUFFIX) || name.length === EVENT_LOG_SUFFIX.length) return undefined;
  return name.slice(0, -EVENT_LOG_SUFFIX.length);
}

export interface Normalized {
  event: LoggedEvent;
  /** Something kept but worth a warning (an untrusted clock). */
  warning?: string;
}

/**
 * Normalizes a line that passed `validateLogged`, in place (the object is fresh from
 * `JSON.parse`). `logMission` is the mission of the log the line was read from; a line without
 * `mission_id` and without a log mission (an in-memory text) keeps `mission_id` empty.
 */
export function toLoggedEvent(value: Record<string, unknown>, logMission: string | undefined): Normalized {
  const mission = value['mission_id'];
  if (typeof mission !== 'string' || mission === '') value['mission_id'] = logMission ?? '';
  if (value['run_id'] === '') delete value['run_id'];
  if (value['event_id'] === '') delete value['event_id'];
  let warning: string | undefined;
  const clock = value['lamport_clock'];
  if (typeof clock === 'number' && clock > MAX_TRUSTED_CLOCK) {
    delete value['lamport_clock'];
    warning = `lamport_clock ${clock} is beyond ${MAX_TRUSTED_CLOCK} (2^52), which no writer reaches by counting: the event is kept, ordered by its place in the file as if it had no clock, and the next clock written ignores it`;
  }
  const findings = value['findings'] ?? value['conflicts'];
  if (Array.isArray(findings)) {
    for (const finding of findings) {
      if (isPlainObject(finding) && isPlainObject(finding['term'])) finding['term'] = finding['term']['surface_text'];
    }
  }
  const event = value as unknown as LoggedEvent;
  return warning === undefined ? { event } : { event, warning };
}
