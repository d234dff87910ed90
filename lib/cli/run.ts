/**
 * `agentv run <file|folder|glob>...` (alias `eval`): runs eval cases against their targets,
 * scores them, appends one JSON row per case to the results file and prints a summary. The exit
 * code is the CI gate: 0 passed, 1 failed (errors, `fail` verdicts, a missed `--threshold`, or
 * invalid cases skipped), 2 usage/config/dataset error before anything ran, 130 interrupted.
 *
 * This module only parses the arguments and finds the files: it starts the sandbox workers, then
 * imports the runner (`run_execute.ts`) while they start, so a run pays for its imports once.
 *
 * @module
 */
import { resolve } from "node:path";
import { discoverEvalFiles } from "../dataset/discover.ts";
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { commandInfo } from "./commands.ts";
import { type LoadedEvalFile, Sandbox, sandboxRoot } from "../dataset/sandbox.ts";
import { loadYamlParser } from "../dataset/yaml_source.ts";
import { parseRunArgs, type RunArgs, runCommandOptions } from "./run_args.ts";
import { priorRunSpec } from "./run_prior.ts";

/** An eval file of the run, being loaded in the sandbox of its dataset root. */
export interface RunInput {
  /** Absolute path of the eval file. */
  file: string;
  /** The load, started as soon as the sandbox was (rejects with `EvalLoadError`). */
  loaded: Promise<LoadedEvalFile>;
}

/** The eval files of the run (absolute): the paths given, else the earlier run's, else `.`. */
async function runFiles(paths: readonly string[], cwd: string): Promise<string[]> {
  const discovered = await discoverEvalFiles([...paths], { cwd });
  if (discovered.problems.length > 0) {
    throw new UsageError(
      discovered.problems.join("\n"),
      "name eval files (.yaml, .yml, .jsonl), folders holding them, or globs",
    );
  }
  if (discovered.files.length === 0) {
    throw new UsageError(
      `No eval files found in ${paths.map((p) => `'${p}'`).join(", ")}`,
      "eval files end in .yaml, .yml or .jsonl",
    );
  }
  return discovered.files.map((f) => resolve(cwd, f));
}

/**
 * Runs `agentv run` with parsed arguments; resolves to the exit code.
 *
 * @example
 * ```ts ignore
 * import { runCommand } from "./run.ts";
 * const code = await runCommand.run({ values: { "dry-run": true }, positionals: ["evals/"] }, io);
 * ```
 */
async function run(parsed: ParsedArgs, io: CommandIO): Promise<number> {
  const args: RunArgs = await parseRunArgs(parsed);
  // --resume / --rerun-failed / --retry-errors: the earlier run's options, and its eval files
  // when no path is given.
  const prior = args.prior &&
    await priorRunSpec(args.prior, args.given, io, args.paths.length === 0);
  const spec = prior?.spec ?? args.given;
  const paths = args.paths.length > 0 ? args.paths : prior?.paths ?? ["."];
  const files = await runFiles(paths, io.cwd);
  const root = spec.root === undefined ? undefined : resolve(io.cwd, spec.root);
  // One sandbox worker per dataset root, started now: the workers import the loader on their
  // own threads while this thread imports the runner (`run_execute.ts`), and then load the files.
  const roots = new Map<string, { sandbox: Sandbox; loads: Promise<LoadedEvalFile>[] }>();
  try {
    const inputs: RunInput[] = [];
    for (const file of files) {
      const fileRoot = await sandboxRoot(file, { root });
      let group = roots.get(fileRoot);
      if (!group) roots.set(fileRoot, group = { sandbox: new Sandbox(fileRoot), loads: [] });
      const loaded = group.sandbox.load(file, { verbose: spec.verbose, signal: io.signal });
      inputs.push({ file, loaded });
      group.loads.push(loaded);
    }
    // Awaited (and their errors reported) by `executeRun`; a worker is closed once its files are
    // loaded, so its memory is not held during the run.
    for (const { sandbox, loads } of roots.values()) {
      Promise.allSettled(loads).then(() => sandbox.close());
    }
    // The targets file is parsed on this thread once the files are loaded: the YAML parser (a
    // CommonJS package, tens of ms to import) loads now, while the workers load the files.
    loadYamlParser().catch(() => {});
    const { executeRun } = await import("./run_execute.ts");
    return await executeRun({ ...args, given: spec }, inputs, io);
  } finally {
    for (const { sandbox } of roots.values()) sandbox.close();
  }
}

/** The `run` command (alias `eval`). */
export const runCommand: Command = {
  ...commandInfo("run"),
  usage: "agentv run [file|folder|glob]... [options] (default: the current folder)",
  options: runCommandOptions(),
  run,
};
