/**
 * Every request and notification handler is wrapped once: an exception is logged and the
 * handler's fallback value is answered instead, so one bad document never takes the server down.
 * A cancelled request answers `RequestCancelled`.
 */

import { CancellationToken, LSPErrorCodes, ResponseError } from 'vscode-languageserver';
import type { Logger } from './logger';

export class Cancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

export function throwIfCancelled(token: CancellationToken | undefined): void {
  if (token?.isCancellationRequested) throw new Cancelled();
}

/**
 * `work`, or Cancelled as soon as the request is cancelled (the work itself goes on: an index
 * build another request waits for too). The answer does not wait for work it no longer needs.
 */
export function unlessCancelled<T>(work: Promise<T>, token: CancellationToken | undefined): Promise<T> {
  if (!token) return work;
  throwIfCancelled(token);
  let listener: { dispose(): void } | undefined;
  const cancelled = new Promise<never>((_, reject) => {
    listener = token.onCancellationRequested(() => reject(new Cancelled()));
  });
  return Promise.race([work, cancelled]).finally(() => listener?.dispose());
}

export function runSafe<P extends unknown[], R>(logger: Logger, name: string, fallback: R, handler: (...args: P) => R | Promise<R>): (...args: P) => Promise<R | ResponseError<never>> {
  return async (...args: P) => {
    const token = args.find((a): a is CancellationToken => CancellationToken.is(a));
    try {
      if (token?.isCancellationRequested) return cancelled();
      return await handler(...args);
    } catch (error) {
      if (error instanceof Cancelled || token?.isCancellationRequested) return cancelled();
      if (error instanceof ResponseError) return error as ResponseError<never>;
      logger.error(`${name} failed`, error);
      return fallback;
    }
  };
}

/** For notifications: errors are logged, never thrown into the connection. */
export function runSafeNotification<P extends unknown[]>(logger: Logger, name: string, handler: (...args: P) => void | Promise<void>): (...args: P) => void {
  return (...args: P) => {
    try {
      const result = handler(...args);
      if (result instanceof Promise) result.catch((error: unknown) => logger.error(`${name} failed`, error));
    } catch (error) {
      logger.error(`${name} failed`, error);
    }
  };
}

function cancelled(): ResponseError<never> {
  return new ResponseError<never>(LSPErrorCodes.RequestCancelled, 'request cancelled');
}
