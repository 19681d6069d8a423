/**
 * The quick-pick items of "Show Glossary Candidates" (plain data, no `vscode` import, so it is
 * tested on its own): one per candidate, most-used first, as the server ranked them.
 */

import type { CandidateData, CandidatesResult, PromoteTermArgs } from '../../server/src/shared/protocol';

export interface CandidatePick {
  label: string;
  description: string;
  detail: string;
  candidate: CandidateData;
  /** The workspace folder it was found in. */
  workspaceUri: string;
}

/**
 * For a term missions define (and the team glossary lacks): "Promote 'term' to the team glossary"
 * with the first mission's definition — the server's promoteTerm, on that mission's spec.
 */
export function promoteChoice(pick: Pick<CandidatePick, 'candidate' | 'workspaceUri'>): { title: string; args: PromoteTermArgs } | undefined {
  const definition = pick.candidate.definitions[0];
  if (!definition) return undefined;
  const shown = definition.definition.length > 60 ? `${definition.definition.slice(0, 59)}…` : definition.definition;
  const uri = `${pick.workspaceUri.replace(/\/+$/, '')}/${definition.path.split('/').map(encodeURIComponent).join('/')}`;
  return { title: `Promote '${pick.candidate.term}' to the team glossary: "${shown}" (${definition.mission})`, args: { uri, term: pick.candidate.term } };
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
        workspaceUri: workspace.workspaceUri,
      };
    }),
  );
}

function folderName(uri: string): string {
  const parts = uri.replace(/\/+$/, '').split('/');
  return decodeURIComponent(parts[parts.length - 1] ?? uri);
}
