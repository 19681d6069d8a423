/** Errors that end a CLI command with exit code 2 (usage or configuration). */

export class UsageError extends Error {
  override readonly name = 'UsageError';

  /**
   * @param details lines shown after the one-line message (the numbered candidates of `resolve`),
   *   already made printable (output/terminal.ts); the message itself is escaped when shown.
   */
  constructor(
    message: string,
    readonly details?: string,
  ) {
    super(message);
  }
}

export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

export const EXIT_OK = 0;
export const EXIT_BLOCKED = 1;
export const EXIT_USAGE = 2;

/** A file the command needs cannot be read or written (exit code 2, like usage errors). */
export class FileError extends Error {
  override readonly name = 'FileError';
}
