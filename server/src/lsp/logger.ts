/** A levelled logger writing through the connection (`window/logMessage`); the level is a setting. */

import { MessageType } from 'vscode-languageserver';
import { EventStoreError } from '../node/eventStore';
import { OutsideWorkspaceError } from '../node/fsSafety';
import type { LogLevel } from '../shared/protocol';

export interface LogSink {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  log(message: string): void;
}

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

export class Logger {
  constructor(
    private readonly sink: LogSink,
    private level: LogLevel = 'info',
  ) {}

  setLevel(level: LogLevel): void {
    this.level = level;
  }

  error(message: string, error?: unknown): void {
    if (RANK[this.level] >= RANK.error) this.write('error', error === undefined ? message : `${message}: ${describeError(error)}`);
  }

  warn(message: string): void {
    if (RANK[this.level] >= RANK.warn) this.write('warn', message);
  }

  info(message: string): void {
    if (RANK[this.level] >= RANK.info) this.write('info', message);
  }

  debug(message: string): void {
    if (RANK[this.level] >= RANK.debug) this.write('log', message);
  }

  /** A message that cannot be written (the connection is gone) is dropped: logging never throws. */
  private write(kind: keyof LogSink, message: string): void {
    try {
      this.sink[kind](message);
    } catch {
      // Nowhere left to report it.
    }
  }
}

export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // What the user's files or disk did (a link out of the workspace, a full or read-only disk, a
  // folder that cannot be read): its message says it all; a trace is for what is a bug.
  if (error instanceof OutsideWorkspaceError || error instanceof EventStoreError || isSystemError(error)) return error.message;
  return error.stack ?? `${error.name}: ${error.message}`;
}

function isSystemError(error: Error): boolean {
  const { code, syscall } = error as NodeJS.ErrnoException;
  return typeof code === 'string' && typeof syscall === 'string';
}

/** What sends a `window/logMessage` (the connection's `sendNotification`). */
type SendLogMessage = (params: { type: MessageType; message: string }) => Promise<void>;

/**
 * `window/logMessage` through the connection. A message the connection no longer takes (the
 * client gone, a session stopped) is dropped: the library's own console reported each such one
 * as "Sending log message failed" on the process's stderr.
 */
export function logMessages(send: SendLogMessage): LogSink {
  const to = (type: MessageType) => (message: string) => void send({ type, message }).catch(() => undefined);
  return { error: to(MessageType.Error), warn: to(MessageType.Warning), info: to(MessageType.Info), log: to(MessageType.Log) };
}
