/**
 * How a sense came to be, in words: its seed file and line, the event that added it, or the entry
 * of a mission document's vocabulary section ("001-lanes spec.md:12", SPEC §3).
 */

import type { Range, Sense } from '../core/types';
import { displayPath, fileUri } from './paths';

/** `at`: where the sense's entry is now, when known (a spec's entry may have moved since it was read). */
export function provenanceOf(sense: Sense, root: string, markdown: boolean, at?: Range): string {
  const origin = sense.origin;
  if (origin.kind === 'event') {
    // (Spec Kitty's own lines may have no event_id, actor or timestamp: said so, not left blank.)
    const by = origin.actorId !== '' ? origin.actorId : 'an unknown actor';
    const when = origin.timestamp !== '' ? ` at ${origin.timestamp}` : '';
    const line = origin.eventId !== '' ? `event ${origin.eventId.slice(0, 8)}` : 'a log line without event_id';
    return `added by ${by}${when} (${origin.source !== '' ? `${origin.source}, ` : ''}${line})`;
  }
  const line = (at ?? origin.range).start.line + 1;
  const label =
    origin.kind === 'bundled'
      ? `bundled core glossary ${displayPath(root, origin.file).split('/').pop()}:${line}`
      : origin.kind === 'spec'
        ? `${origin.missionSlug} ${origin.file.replace(/\\/g, '/').split('/').pop()}:${line}`
        : `${displayPath(root, origin.file)}:${line}`;
  return markdown ? `[${label}](${fileUri(origin.file)}#L${line})` : label;
}
