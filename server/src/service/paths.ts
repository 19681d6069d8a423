/** Path ↔ URI and display paths for the service, without Node built-ins (vscode-uri is pure). */

import { URI } from 'vscode-uri';

export function fileUri(fsPath: string): string {
  return URI.file(fsPath).toString();
}

export function uriToPath(uri: string): string | undefined {
  const parsed = URI.parse(uri);
  return parsed.scheme === 'file' ? parsed.fsPath : undefined;
}

/** `file` relative to `root` when it is inside it (forward slashes), else the path as it is. */
export function displayPath(root: string, file: string): string {
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const r = norm(root);
  const f = norm(file);
  return f.startsWith(r + '/') ? f.slice(r.length + 1) : f;
}
