/** What every CLI command receives: its parsed arguments and the streams of its run. */

export interface ParsedCommand {
  name: string;
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** Environment variables as the CLI reads them (`process.env` in the real process). */
export type CliEnv = Readonly<Record<string, string | undefined>>;

/**
 * Everything a run of the CLI is given, instead of reading it from `process`: the real process
 * passes its own (cli/bin.ts), a test passes in-memory streams, its own variables and folder.
 */
export interface CliContext {
  /** The current directory: relative paths on the command line are resolved against it. */
  cwd: string;
  env: CliEnv;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
}

export interface CliIo {
  cwd: string;
  env: CliEnv;
  /** Standard output is a terminal (colours are allowed). */
  isTTY: boolean;
  /** The run's raw streams: the terminal prompt reads stdin and writes stderr (events/terminal.ts). */
  streams: Pick<CliContext, 'stdin' | 'stdout' | 'stderr'>;
  /** A message for standard output (a newline is added when missing). */
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * A piece of a long output (a check report), written as is. A returned promise asks the caller
   * to wait before writing more: the stream's buffer is full (back-pressure).
   */
  write(chunk: string): void | Promise<void>;
}
