/** What every CLI command receives: its parsed arguments and the process's streams. */

export interface ParsedCommand {
  name: string;
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

export interface CliIo {
  cwd: string;
  isTTY: boolean;
  /** A message for standard output (a newline is added when missing). */
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * A piece of a long output (a check report), written as is. A returned promise asks the caller
   * to wait before writing more: the stream's buffer is full (back-pressure).
   */
  write(chunk: string): void | Promise<void>;
}
