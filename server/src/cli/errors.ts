/** Errors that end a CLI command with exit code 2 (usage or configuration). */

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

export const EXIT_OK = 0;
export const EXIT_BLOCKED = 1;
export const EXIT_USAGE = 2;
