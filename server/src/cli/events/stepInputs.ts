/**
 * The inputs of a step, as StepCheckpointed's `input_hash` covers them, and how `resume` finds
 * the step's document again (StepCheckpointed has no path field; seed 000 fields are followed to
 * the letter, so the document is derived from `mission_id` + `step_id`).
 *
 * Inputs of a step = `{"path": <document path relative to the workspace root, with "/">,
 * "text": <the document's text (UTF-8, BOM removed, line endings as on disk)>}`, hashed as SPEC §7
 * says (sha256 of Python's `json.dumps(inputs, sort_keys=True, ensure_ascii=False)`).
 */

import path from 'node:path';
import { readHeader } from '../../core/extract/scan';
import { computeInputHash } from '../../core/hash';
import { readWorkspaceText } from '../../node/files';
import { documentIdentity, type MetaCache } from '../../node/identity';
import { collectMarkdownFiles } from '../files';

export interface StepInputs {
  path: string;
  text: string;
}

export function stepInputs(root: string, absolutePath: string, text: string): StepInputs {
  const rel = path.relative(root, absolutePath);
  return { path: (rel === '' ? path.basename(absolutePath) : rel).split(path.sep).join('/'), text };
}

export function stepInputHash(root: string, absolutePath: string, text: string): string {
  return computeInputHash(stepInputs(root, absolutePath, text));
}

export interface StepDocument {
  absolutePath: string;
  text: string;
  inputHash: string;
}

/**
 * The documents of step `stepId` of mission `missionId` in the workspace: every markdown file
 * under the root (folders as `check .` walks them) whose mission and step (SPEC §2) are these.
 * When none has that identity (the checkpoint came from `check --mission`, which overrides the
 * mission), documents of that step whose inputs still hash to `inputHash` are taken instead. A
 * step Spec Kitty names by its command (`specify`) is the document that command writes, when
 * no document names itself so (SPEC_KITTY_STEPS).
 */
export function findStepDocuments(root: string, missionId: string, stepId: string, inputHash: string, cwd: string, maxFileBytes?: number): StepDocument[] {
  const found = documentsOfStep(root, missionId, stepId, inputHash, cwd, maxFileBytes);
  const written = SPEC_KITTY_STEPS[stepId];
  return found.length > 0 || written === undefined ? found : documentsOfStep(root, missionId, written, inputHash, cwd, maxFileBytes);
}

/**
 * Spec Kitty's step names (its commands: its checkpoints and requests say `"step_id":
 * "specify"`) whose document is named otherwise: the step of a document is its file name here
 * (SPEC §2). The commands named as their documents (`plan`, `tasks`, `research`) need none.
 */
const SPEC_KITTY_STEPS: Readonly<Record<string, string>> = Object.freeze({ specify: 'spec', clarify: 'spec' });

function documentsOfStep(root: string, missionId: string, stepId: string, inputHash: string, cwd: string, maxFileBytes?: number): StepDocument[] {
  const cache: MetaCache = new Map();
  const sameStep: StepDocument[] = [];
  const matches: StepDocument[] = [];
  for (const file of collectMarkdownFiles([root], cwd)) {
    const outcome = readWorkspaceText(root, file, maxFileBytes);
    if (!outcome.ok) continue;
    const header = readHeader(outcome.text);
    const identity = documentIdentity(root, file, header.frontMatter?.data, cache);
    if (identity.stepId !== stepId) continue;
    const doc = { absolutePath: file, text: outcome.text, inputHash: stepInputHash(root, file, outcome.text) };
    sameStep.push(doc);
    if (identity.missionId === missionId) matches.push(doc);
  }
  if (matches.length > 0) return matches;
  return sameStep.filter((d) => d.inputHash === inputHash);
}
