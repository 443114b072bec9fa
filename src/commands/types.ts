import type { Writable } from 'node:stream';

/** What a subcommand receives: its own arguments, the environment, and where to write. */
export interface CommandContext {
  env: Record<string, string | undefined>;
  stdout: Writable;
  stderr: Writable;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); long-running commands await it. */
  stopSignal: Promise<NodeJS.Signals>;
}

export interface Command {
  name: string;
  /** Full `--help` text: usage line, options, examples. */
  help: string;
  /** Exit code: 0 success, 1 failure, 2 usage error or not available. */
  run(args: string[], ctx: CommandContext): Promise<number>;
}

/** A command as the CLI lists it; its module is imported only when it runs. */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}
