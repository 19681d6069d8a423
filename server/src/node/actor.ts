/** The person behind an editor or terminal decision: `user:<os user name>`, a human (SPEC §7). */

import { userInfo } from 'node:os';
import type { ActorIdentity } from '../core/events/types';

export function currentActor(): ActorIdentity {
  let name: string | undefined;
  try {
    name = userInfo().username;
  } catch {
    name = undefined; // no passwd entry (some containers)
  }
  name = name || process.env['USER'] || process.env['USERNAME'] || 'unknown';
  return { actor_id: `user:${name}`, actor_type: 'human', display_name: name };
}
