/**
 * Hashes that must match Spec Kitty byte for byte. node:crypto is the one Node module the core
 * may use: sha256 is pure computation, and every runtime we ship on (Node, Electron) has it.
 */
import { createHash } from 'node:crypto';
import { pythonJsonDumps } from './events/serialize';

/** Lowercase hex sha256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * `input_hash` of a step (StepCheckpointed): sha256 of the inputs serialized as Python's
 * `json.dumps(inputs, sort_keys=True, ensure_ascii=False)`.
 */
export function computeInputHash(inputs: unknown): string {
  return sha256Hex(pythonJsonDumps(inputs));
}
