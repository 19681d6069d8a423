/** How a sense came to be, in words: its seed file and line, or the event that added it. */

import type { Sense } from '../core/types';
import { displayPath, fileUri } from './paths';

export function provenanceOf(sense: Sense, root: string, markdown: boolean): string {
  const origin = sense.origin;
  if (origin.kind === 'event') {
    return `added by ${origin.actorId} at ${origin.timestamp} (${origin.source}, event ${origin.eventId.slice(0, 8)})`;
  }
  const line = origin.range.start.line + 1;
  const label = origin.kind === 'bundled' ? `bundled core glossary ${displayPath(root, origin.file).split('/').pop()}:${line}` : `${displayPath(root, origin.file)}:${line}`;
  return markdown ? `[${label}](${fileUri(origin.file)}#L${line})` : label;
}
