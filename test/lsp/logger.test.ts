/**
 * The server's log messages (lsp/logger.ts): levels as the setting says, and a message the
 * connection no longer takes dropped without a word on the process's stderr.
 */
import { describe, expect, it, vi } from 'vitest';
import { MessageType } from 'vscode-languageserver';
import { Logger, logMessages } from '../../server/src/lsp/logger';
import { EventStoreError } from '../../server/src/node/eventStore';
import { OutsideWorkspaceError } from '../../server/src/node/fsSafety';

describe('the server logger', () => {
  it('sends window/logMessage of the type of each level, up to the level set', () => {
    const sent: { type: MessageType; message: string }[] = [];
    const logger = new Logger(logMessages(async (params) => void sent.push(params)), 'info');
    logger.error('broken', new Error('why'));
    logger.warn('careful');
    logger.info('loaded');
    logger.debug('details');
    expect(sent.map((p) => p.type)).toEqual([MessageType.Error, MessageType.Warning, MessageType.Info]);
    expect(sent[0]!.message).toMatch(/^broken: Error: why/);
    logger.setLevel('debug');
    logger.debug('details');
    expect(sent.at(-1)).toEqual({ type: MessageType.Log, message: 'details' });
  });

  it("a failure of the user's files or disk is logged by its message; a bug with its trace", () => {
    const sent: string[] = [];
    const logger = new Logger(logMessages(async (params) => void sent.push(params.message)), 'info');
    const denied = Object.assign(new Error("EACCES: permission denied, open '/w/.kittify/events/glossary/m.events.jsonl'"), { code: 'EACCES', syscall: 'open' });
    logger.error('command failed', new OutsideWorkspaceError('/w/.kittify/glossaries/team_domain.yaml resolves to /etc/x through a symbolic link, outside the workspace folder /w; refusing to use it', '/etc/x'));
    logger.error('command failed', new EventStoreError('no events recorded: the disk is full (ENOSPC)', '/w/.kittify/events/glossary/m.events.jsonl', 'ENOSPC'));
    logger.error('command failed', denied);
    logger.error('command failed', new TypeError('x is undefined'));
    expect(sent.slice(0, 3).every((m) => !m.includes('\n    at '))).toBe(true);
    expect(sent[0]).toBe('command failed: /w/.kittify/glossaries/team_domain.yaml resolves to /etc/x through a symbolic link, outside the workspace folder /w; refusing to use it');
    expect(sent[3]).toMatch(/^command failed: TypeError: x is undefined\n {4}at /);
  });

  it('a connection that refuses the message (gone): nothing thrown, nothing printed', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const logger = new Logger(logMessages(() => Promise.reject(new Error('Connection is closed'))), 'debug');
      expect(() => logger.info('late')).not.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });
});
