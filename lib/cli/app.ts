/**
 * The CLI dispatcher: finds the command, parses its arguments, runs it, and turns failures into
 * exit codes. User mistakes ({@link UsageError}, {@link EvalLoadError}) print a message and exit 2
 * without a stack trace; anything else is a bug in agentv and prints the stack (exit 70).
 *
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };
import { suggest } from "../text/suggest.ts";
import type { Command, CommandInfo, CommandIO, LazyCommand, ParsedArgs } from "./command.ts";
import { AgentvError, EXIT, UsageError } from "../errors/agentv_error.ts";
import { COMMANDS } from "./commands.ts";
import { formatCommandHelp, formatMainHelp, formatShortUsage } from "./help.ts";

/** The agentv version (from `deno.json`). */
export const VERSION: string = denoJson.version;

/** Options for {@link runCli}. */
export interface RunCliOptions {
  /** The commands to dispatch to (default: the registry in `commands.ts`). */
  commands?: readonly (Command | LazyCommand)[];
}

/**
 * Runs the agentv CLI with `args` (without the program name) against `io`, resolving to the exit
 * code: 0 ok, 1 ran and failed / invalid files, 2 usage, config or dataset error, 130 interrupted,
 * 70 internal error. Only the command that runs is imported (with the argument parser): `--version`
 * and `--help` import no command, no `node:` module and no npm package.
 *
 * @example
 * ```ts
 * const out: string[] = [];
 * const code = await runCli(["--version"], {
 *   stdout: (t) => out.push(t), stderr: (t) => out.push(t), isTTY: false, color: false,
 *   env: () => undefined, envAll: () => ({}), cwd: "/", signal: new AbortController().signal,
 *   now: Date.now,
 * });
 * // code === 0, out[0] === "agentv 0.1.0\n"
 * ```
 */
export async function runCli(
  args: string[],
  io: CommandIO,
  options: RunCliOptions = {},
): Promise<number> {
  const commands = options.commands ?? COMMANDS;
  let command: Command | undefined;
  let discard = () => {};
  try {
    const step = resolveCommandLine(args, commands);
    if (step.kind === "help") {
      io.stdout(formatMainHelp(commands, VERSION));
      return 0;
    }
    if (step.kind === "version") {
      io.stdout(`agentv ${VERSION}\n`);
      return 0;
    }
    if (step.kind === "command-help") {
      io.stdout(formatCommandHelp(await loadCommand(step.command)));
      return 0;
    }
    // The dataset's sandbox worker starts while the command's modules are imported.
    if ("prestart" in step.command) {
      discard = step.command.prestart?.(args.slice(step.words), io.cwd) ?? discard;
    }
    command = await loadCommand(step.command);
    const parsed = await parseArgsOf(command, args.slice(step.words));
    if (parsed.values.help === true) {
      io.stdout(formatCommandHelp(command));
      return 0;
    }
    delete parsed.values.help;
    return await command.run(parsed, io);
  } catch (error) {
    return await reportError(error, io, command);
  } finally {
    discard();
  }
}

/** What {@link parseCommandLine} makes of a command line. */
export type ParsedCommandLine =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "command"; command: Command; parsed: ParsedArgs };

/**
 * Parses a command line as {@link runCli} does, without running anything: finds the command
 * (or `--help`, `--version`) and parses its arguments against the command's options. Throws the
 * {@link UsageError} `runCli` would report (unknown command or option, a missing value). The
 * docs' tests parse every `agentv …` line of the docs with it.
 *
 * @example
 * ```ts
 * const line = await parseCommandLine(["run", "evals/", "--workers", "8"]);
 * // line.kind === "command", line.parsed.values.workers === "8"
 * ```
 */
export async function parseCommandLine(
  args: string[],
  options: RunCliOptions = {},
): Promise<ParsedCommandLine> {
  const step = resolveCommandLine(args, options.commands ?? COMMANDS);
  if (step.kind === "help" || step.kind === "version") return step;
  const command = await loadCommand(step.command);
  if (step.kind === "command-help") return { kind: "help" };
  return { kind: "command", command, parsed: await parseArgsOf(command, args.slice(step.words)) };
}

/** What the first words of a command line ask for. */
type CommandLineStep<C> =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "command-help"; command: C; words: number }
  | { kind: "command"; command: C; words: number };

/** The first step of both {@link runCli} and {@link parseCommandLine}: what `args` ask for. */
function resolveCommandLine<C extends CommandInfo>(
  args: string[],
  commands: readonly C[],
): CommandLineStep<C> {
  const first = args[0];
  // `agentv` alone prints the help, as `--help` does.
  if (
    first === undefined || first === "--help" || first === "-h" ||
    (first === "help" && args.length === 1)
  ) {
    return { kind: "help" };
  }
  if (first === "--version" || first === "-V") return { kind: "version" };
  if (first === "help") return { kind: "command-help", ...findCommand(args.slice(1), commands) };
  if (first.startsWith("-")) {
    const guess = suggest(first, ["--help", "--version"]);
    throw new UsageError(
      `Unknown option '${first}'${guess ? `; did you mean '${guess}'?` : ""}`,
      "options go after the command: agentv <command> [options]",
    );
  }
  return { kind: "command", ...findCommand(args, commands) };
}

/** A command's arguments parsed against its options (the parser is imported now). */
async function parseArgsOf(command: Command, args: string[]): Promise<ParsedArgs> {
  const { parseCommandArgs } = await import("./args.ts");
  return parseCommandArgs(args, command.options, { command: command.name });
}

/** The command itself: a registry entry's module is imported now. */
function loadCommand(command: Command | LazyCommand): Promise<Command> {
  return "load" in command ? command.load() : Promise.resolve(command);
}

/** Finds the command named by the first one or two words of `args`. */
function findCommand<C extends CommandInfo>(
  args: string[],
  commands: readonly C[],
): { command: C; words: number } {
  const byName = new Map<string, C>();
  for (const c of commands) {
    byName.set(c.name, c);
    for (const alias of c.aliases ?? []) byName.set(alias, c);
  }
  const [first = "", second] = args;
  if (second !== undefined && byName.has(`${first} ${second}`)) {
    return { command: byName.get(`${first} ${second}`)!, words: 2 };
  }
  if (byName.has(first)) return { command: byName.get(first)!, words: 1 };
  const group = [...byName.keys()].filter((n) => n.startsWith(`${first} `));
  if (group.length > 0) {
    const subcommands = group.map((n) => n.slice(first.length + 1));
    if (second === undefined || second.startsWith("-")) {
      throw new UsageError(
        `'agentv ${first}' needs a subcommand: ${subcommands.join(", ")}`,
        `for example: agentv ${group[0]} --help`,
      );
    }
    const guess = suggest(second, subcommands);
    throw new UsageError(
      `Unknown command 'agentv ${first} ${second}'${
        guess ? `; did you mean 'agentv ${first} ${guess}'?` : ""
      }`,
      `the subcommands of '${first}' are: ${subcommands.join(", ")}`,
    );
  }
  const names = [...byName.keys()].map((n) => n.split(" ")[0]);
  const guess = suggest(first, [...new Set(names)]);
  throw new UsageError(
    `Unknown command '${first}'${guess ? `; did you mean '${guess}'?` : ""}`,
    "run 'agentv --help' to list the commands",
  );
}

/**
 * Prints an error the right way for its kind and returns the exit code. The renderer is imported
 * here, on the error path only.
 */
async function reportError(
  error: unknown,
  io: CommandIO,
  command: Command | undefined,
): Promise<number> {
  const [{ redactText }, { escapeControl }, render] = await Promise.all([
    import("../text/redact.ts"),
    import("../text/escape_control.ts"),
    import("../render/diagnostics.ts"),
  ]);
  const { createPaint, renderDiagnosticsFor } = render;
  const paint = createPaint(io.color);
  const prefix = paint.red(paint.bold("error"));
  if (error instanceof AgentvError) {
    // Located problems first, then the message (unless the diagnostics already say it), then the
    // hint; a usage message may quote an argument, so control characters are shown escaped.
    const rendered = renderDiagnosticsFor(error.diagnostics, io);
    if (rendered) io.stderr(`${rendered}\n`);
    if (!rendered || error.code !== "eval_load") {
      io.stderr(`${prefix}: ${escapeControl(error.message)}\n`);
    }
    if (error.hint) io.stderr(`${paint.dim("hint")}: ${error.hint}\n`);
    if (error instanceof UsageError) io.stderr(formatShortUsage(command));
    return error.exitCode;
  }
  if (io.signal.aborted || (error instanceof DOMException && error.name === "AbortError")) {
    io.stderr("Interrupted\n");
    return 130;
  }
  // Credential forms (`Bearer …`, `key=…`) are masked even in a bug report.
  const detail = redactText(
    error instanceof Error ? error.stack ?? String(error) : String(error),
  );
  io.stderr(
    `${prefix}: internal error in agentv ${VERSION} (a bug; please report it with this output)\n` +
      `${detail}\n`,
  );
  return EXIT.internal;
}
