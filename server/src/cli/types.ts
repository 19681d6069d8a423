/** What every CLI command receives: its parsed arguments and the process's streams. */

export interface ParsedCommand {
  name: string;
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

export interface CliIo {
  cwd: string;
  isTTY: boolean;
  stdout(text: string): void;
  stderr(text: string): void;
}
