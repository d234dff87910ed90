/**
 * The contract every CLI command implements. `main.ts` builds a {@link CommandIO} from the real
 * process; tests build one from buffers. Commands never call `Deno.exit` or read `Deno.args`.
 *
 * @module
 */

/** Where a command writes, and what it may know about the process. */
export interface CommandIO {
  /** Writes to standard output. */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
  /** Whether stdout is a terminal (live progress lines, colours). */
  isTTY: boolean;
  /**
   * Whether stderr is a terminal (default false): when stdout is not one (redirected to a file,
   * or carrying `--json`), `agentv run`'s live progress line goes there.
   */
  stderrIsTTY?: boolean;
  /** Whether colours are allowed (TTY and no `NO_COLOR`). */
  color: boolean;
  /** Reads an environment variable. */
  env(name: string): string | undefined;
  /** The whole environment (for `${{ VAR }}` interpolation). */
  envAll(): Record<string, string>;
  /** Current working directory. */
  cwd: string;
  /** Aborted on the first Ctrl-C. */
  signal: AbortSignal;
  /**
   * The clock in ms since the epoch (`Date.now` in `main.ts`): elapsed times, ETAs, durations,
   * timestamps and the default results file name read it, so tests can fix it.
   */
  now(): number;
  /**
   * The terminal width in columns, read at every redraw of the live progress line (default:
   * `Deno.consoleSize()`, 80 when unknown).
   */
  columns?(): number;
  /**
   * Starts a repeating timer and returns the function that stops it (default: `setInterval`);
   * the live progress line redraws with it, so tests can tick it by hand.
   */
  startTimer?(ms: number, fn: () => void): () => void;
}

/** An option of a command, in `node:util` `parseArgs` form plus help text. */
export interface OptionSpec {
  /** `string` or `boolean`. */
  type: "string" | "boolean";
  /** One-letter alias. */
  short?: string;
  /** Whether it may be given several times. */
  multiple?: boolean;
  /** Help text. */
  description: string;
  /** Placeholder shown in help (e.g. `NAME`). */
  valueName?: string;
}

/** Parsed arguments handed to a command. */
export interface ParsedArgs {
  /** Option values by long name. */
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  /** Positional arguments. */
  positionals: string[];
}

/** What `agentv --help` shows of a command: known without loading the command's module. */
export interface CommandInfo {
  /** Name as typed (`validate`, `run`, `generate rubrics`). */
  name: string;
  /** Other names (`eval` for `run`). */
  aliases?: string[];
  /** One line for `agentv --help`. */
  summary: string;
}

/**
 * A command of the registry (`commands.ts`): its info, and its module, imported on first use so
 * that `agentv --version` and `agentv --help` load no command (and no npm package).
 */
export interface LazyCommand extends CommandInfo {
  /** The command's module, relative to `lib/cli/` (e.g. `./run.ts`). */
  module: string;
  /** Imports the command's module and returns the command. */
  load(): Promise<Command>;
  /**
   * Starts work that needs no command module (the sandbox worker of the dataset named in
   * `args`) before {@link LazyCommand.load} imports it; returns what undoes it if it went unused.
   */
  prestart?(args: readonly string[], cwd: string): () => void;
}

/** A CLI command. */
export interface Command extends CommandInfo {
  /** Usage line, e.g. `agentv validate <file|folder|glob>... [options]`. */
  usage: string;
  /** Options by long name. `--help` is added by the dispatcher. */
  options: Record<string, OptionSpec>;
  /** More help, printed after the options by `--help` (what a method assumes, examples). */
  details?: string;
  /** Runs the command; resolves to the exit code (0, 1, 2 or 130). */
  run(args: ParsedArgs, io: CommandIO): Promise<number>;
}
