/**
 * `spec-glossary replay [--mission M] [--json]` (SPEC §7, §8): replays the workspace's event logs
 * on top of the seeds and prints what they add: pins, open clarifications, added senses and
 * inconsistencies. Without `--mission`, every mission. `--json` prints `replayToJson`
 * (core/events/replayJson.ts). Torn or invalid log lines are skipped with a warning on stderr.
 * The text shows what the logs say through `shown` (output/terminal.ts): a control character in a
 * term, definition, id or option is printed as an escape, never sent to the terminal.
 */

import { GLOSSARY_FILE_SOURCE, SPEC_ENTRY_SOURCE } from '../../core/events/decisions';
import { replayToJson, type ReplayJson } from '../../core/replay';
import { SCOPE_ORDER } from '../../core/types';
import { replayWorkspace } from '../../node/eventStore';
import { EXIT_OK, UsageError } from '../errors';
import { missionArgument, requireWorkspaceRoot } from '../events/workspace';
import { relativePath } from '../output/json';
import { shown } from '../output/terminal';
import type { CliIo, ParsedCommand } from '../types';

export const REPLAY_OPTIONS = {
  mission: { type: 'string' },
  json: { type: 'boolean' },
  root: { type: 'string' },
} as const;

export async function replayCommand(command: ParsedCommand, io: CliIo): Promise<number> {
  const { values, positionals } = command;
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}' (use --mission M and --root DIR)`);
  const mission = values['mission'] as string | undefined;
  if (mission !== undefined && mission.trim() === '') throw new UsageError('--mission needs a mission id');
  const root = requireWorkspaceRoot(values['root'] as string | undefined, io.cwd);
  const { state, problems } = await replayWorkspace(root);
  if (problems.length > 0) {
    io.stderr(problems.map((p) => shown`${relativePath(io.cwd, p.file)}${p.line > 0 ? `:${p.line}` : ''}: warning: ${p.message}`).join('\n'));
  }
  // (A mission's folder name stands for the id its meta.json gives, as in resolve.)
  const given = mission?.trim();
  const missionId = given === undefined ? undefined : missionArgument(root, given, io).missionId;
  const json = replayToJson(state, missionId);
  io.stdout(values['json'] ? JSON.stringify(json, null, 2) : formatReplayText(json));
  return EXIT_OK;
}

export function formatReplayText(json: ReplayJson): string {
  const lines: string[] = [json.mission_id === null ? 'All missions' : shown`Mission ${json.mission_id}`];
  const showMission = json.mission_id === null;
  const ofMission = (m: string) => (showMission ? shown` [mission ${m}]` : '');

  lines.push('', `Pins (${json.pins.length}):`);
  if (json.pins.length === 0) lines.push('  none');
  for (const p of json.pins) {
    const s = p.selected_sense;
    lines.push(shown`  ${p.term} = "${s.definition}" (${s.scope}, confidence ${s.confidence})` + ofMission(p.mission_id));
    lines.push(shown`    by ${p.actor_id} at ${p.timestamp}, conflict ${p.conflict_id}`);
  }

  lines.push('', `Open clarifications (${json.open_clarifications.length}):`);
  if (json.open_clarifications.length === 0) lines.push('  none');
  for (const o of json.open_clarifications) {
    lines.push(shown`  ${o.term}: ${o.question} (step ${o.step_id}, urgency ${o.urgency})` + ofMission(o.mission_id));
    o.options.forEach((option, i) => lines.push(shown`    ${i + 1}. ${option}`));
    lines.push(shown`    conflict ${o.conflict_id}, requested at ${o.timestamp}`);
    // (A request is closed only by an answer to its own conflict: a later answer to another
    // request pins the term and leaves this one open, as Spec Kitty's own conflict list shows it.)
    const pin = json.pins.find((p) => p.mission_id === o.mission_id && p.term === o.term);
    if (pin) lines.push(shown`    the term is pinned by a later answer (conflict ${pin.conflict_id}); this request was never answered itself`);
  }

  const added = SCOPE_ORDER.flatMap((scope) => json.senses[scope]);
  lines.push('', `Senses added by events (${added.length}):`);
  if (added.length === 0) lines.push('  none');
  for (const s of added) {
    lines.push(
      shown`  [${s.scope}] ${s.surface} = "${s.definition}" (${s.status}, confidence ${s.confidence})` +
        (s.actor_id ? shown`, by ${s.actor_id}` : '') +
        (s.mission_id && (showMission || s.scope === 'mission_local') ? shown` [mission ${s.mission_id}]` : '') +
        // (The record of a glossary file's entry: checks use it only while the file holds it; of
        // a spec's entry: checks read the spec instead.)
        (s.source === GLOSSARY_FILE_SOURCE ? shown`, recorded from ${s.scope}.yaml` : s.source === SPEC_ENTRY_SOURCE ? `, recorded from the mission spec's own vocabulary` : ''),
    );
  }

  if (json.problems.length > 0) {
    lines.push('', `Problems (${json.problems.length}):`);
    for (const p of json.problems) lines.push(shown`  event ${p.event_id}: ${p.message}`);
  }
  return lines.join('\n');
}
