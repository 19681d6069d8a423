/**
 * The quick-pick items of "Show Glossary Candidates" (plain data, no `vscode` import, so it is
 * tested on its own): one per candidate, most-used first, as the server ranked them.
 */

import type { CandidateData, CandidatesResult } from '../../server/src/shared/protocol';

export interface CandidatePick {
  label: string;
  description: string;
  detail: string;
  candidate: CandidateData;
}

export function candidatePicks(result: CandidatesResult): CandidatePick[] {
  const folders = result.workspaces.length;
  return result.workspaces.flatMap((workspace) =>
    workspace.candidates.map((candidate) => {
      const where = candidate.examples.map((e) => `${e.path}:${e.line}`).join(', ');
      const folder = folders > 1 ? ` · ${folderName(workspace.workspaceUri)}` : '';
      return {
        label: candidate.term,
        description: `${candidate.specs} ${candidate.specs === 1 ? 'document' : 'documents'} · ${candidate.occurrences}×${folder}`,
        detail: candidate.definitions.length > 0 ? `Defined by ${candidate.definitions.map((d) => d.mission).join(', ')} · ${where}` : where,
        candidate,
      };
    }),
  );
}

function folderName(uri: string): string {
  const parts = uri.replace(/\/+$/, '').split('/');
  return decodeURIComponent(parts[parts.length - 1] ?? uri);
}
