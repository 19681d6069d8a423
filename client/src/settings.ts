/**
 * Settings the VS Code client reads itself. The server's settings (strictness, extractors,
 * severities, file size, debounce, log level) live in `server/src/shared/protocol.ts` and are
 * applied live by the server; the two below decide how the server is started, so a change to
 * them restarts it.
 */

import { SETTINGS_SECTION } from '../../server/src/shared/protocol';

export const ClientSettingKeys = {
  /** `false` stops the language server (the extension stays installed). */
  enable: 'enable',
  /** A server module (server.cjs/server.js) to run instead of the bundled one. */
  serverPath: 'server.path',
} as const;

export interface ClientSettings {
  enable: boolean;
  /** Absolute path of a server module, or '' for the bundled one (`dist/server.js`, which loads `dist/server.cjs`). */
  serverPath: string;
}

export const DEFAULT_CLIENT_SETTINGS: Readonly<ClientSettings> = Object.freeze({ enable: true, serverPath: '' });

/** Fully qualified ids (`specGlossary.enable`, …) of the settings whose change needs a restart. */
export const RESTART_SETTINGS: readonly string[] = Object.values(ClientSettingKeys).map((key) => `${SETTINGS_SECTION}.${key}`);

/** What `workspace.getConfiguration('specGlossary').get(key)` returned → typed settings. */
export function readClientSettings(get: (key: string) => unknown): ClientSettings {
  const enable = get(ClientSettingKeys.enable);
  const serverPath = get(ClientSettingKeys.serverPath);
  return {
    enable: typeof enable === 'boolean' ? enable : DEFAULT_CLIENT_SETTINGS.enable,
    serverPath: typeof serverPath === 'string' ? serverPath.trim() : DEFAULT_CLIENT_SETTINGS.serverPath,
  };
}

/** Whether a configuration change needs the server restarted (`affects` = `event.affectsConfiguration`). */
export function needsRestart(affects: (section: string) => boolean): boolean {
  return RESTART_SETTINGS.some((section) => affects(section));
}
