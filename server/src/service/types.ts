/**
 * The inputs of the language features: one checked markdown document with the glossary state it
 * was checked against. Plain data built by the LSP layer from a workspace snapshot; the service
 * never reads files or talks to a connection.
 */

import type { DocumentReport } from '../core/check/check';
import type { GlossaryIndex } from '../core/glossary';
import type { OpenClarification, Pin, Range, Sense, SourceProblem } from '../core/types';
import type { SpecGlossarySettings } from '../shared/protocol';

export interface CheckedDocument {
  uri: string;
  /** Absolute path of the workspace folder holding `.kittify/`. */
  root: string;
  missionId: string;
  /** The mission's folder name under `kitty-specs/` (how people name it), when the document is in one. */
  missionSlug?: string;
  stepId: string;
  report: DocumentReport;
  /** The glossary the document was checked against: seeds, senses added by events, the mission's own vocabulary. */
  glossary: GlossaryIndex;
  /** Pins of the document's mission, by normalized term. */
  pins: ReadonlyMap<string, Pin>;
  /** Open clarifications of the document's mission. */
  openClarifications: readonly OpenClarification[];
  /** Absolute path of the document (made up inside the folder for an unsaved one). */
  path: string;
  /**
   * Where the entry of a sense read from a mission document's vocabulary section is now (the
   * document may have changed since the sense was read); undefined when that is not known.
   */
  locateEntry?: (sense: Sense) => { uri: string; range: Range } | undefined;
}

/** The problems of one workspace folder's glossary, config and log files (a WorkspaceSnapshot fits). */
export interface WorkspaceProblems {
  readonly root: string;
  readonly seeds: readonly { path: string; bundled: boolean; seed: { problems: readonly SourceProblem[] } }[];
  readonly configProblems: readonly SourceProblem[];
  readonly eventProblems: readonly { file: string; line: number; message: string }[];
  readonly fileProblems: readonly { file: string; message: string; code?: string }[];
}

export type Settings = Readonly<SpecGlossarySettings>;
