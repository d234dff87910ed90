/**
 * `agentv run <file|folder|glob>...` (alias `eval`): runs eval cases against their targets,
 * scores them, appends one JSON row per case to the results file and prints a summary. The exit
 * code is the CI gate: 0 passed, 1 failed (errors, `fail` verdicts, a missed `--threshold`, or
 * invalid cases skipped), 2 usage/config/dataset error before anything ran, 130 interrupted.
 *
 * @module
 */
import { resolve } from "node:path";
import { discoverEvalFiles } from "../loader/discover.ts";
import { EvalLoadError } from "../loader/errors.ts";
import { globProblem } from "../loader/glob.ts";
import { createProgressReporter, renderSummary } from "../report/console.ts";
import { ResultsWriteError } from "../report/results_writer.ts";
import { runPassed } from "../report/summary.ts";
import { RunConfigError } from "../runner/errors.ts";
import { UntrustedDatasetError } from "../runner/run_permission.ts";
import {
  defaultResultsPath,
  isSkippedCaseDiagnostic,
  type LoadedEvalSet,
  runEval,
} from "../runner/run_eval.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import { TargetConfigError, TargetsFileError } from "../targets/errors.ts";
import { type Command, type CommandIO, type ParsedArgs, UsageError } from "./command.ts";
import { createPaint, createSourceReader, displayPath, renderDiagnostics } from "./render.ts";
import { refuseOutputOverInput, runInputs } from "./run_inputs.ts";
import { Sandbox, sandboxRoot } from "./sandbox.ts";
import { trustHint, trustStorePermission } from "./trust.ts";

/** Validated options of one `agentv run`. */
interface RunArgs {
  paths: string[];
  target?: string;
  targets?: string;
  judgeTarget?: string;
  workers: number;
  timeoutMs: number;
  filter?: string;
  out?: string;
  dryRun: boolean;
  allowRun: boolean;
  threshold?: number;
  root?: string;
  verbose: boolean;
  quiet: boolean;
  json: boolean;
}

function str(values: ParsedArgs["values"], name: string): string | undefined {
  const v = values[name];
  return typeof v === "string" ? v : undefined;
}

function number(
  values: ParsedArgs["values"],
  name: string,
  check: (n: number) => boolean,
  expected: string,
): number | undefined {
  const raw = str(values, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || !check(n)) {
    throw new UsageError(
      `--${name} must be ${expected}, got '${raw}'`,
      `e.g. --${name} ${name === "workers" ? "8" : name === "timeout" ? "60" : "0.8"}`,
    );
  }
  return n;
}

/** Reads and checks the command line. */
function parseRunArgs(args: ParsedArgs): RunArgs {
  const v = args.values;
  if (args.positionals.length === 0) {
    throw new UsageError(
      "No eval files given",
      "name files, folders or globs: agentv run evals/ or agentv run 'evals/**/*.jsonl'",
    );
  }
  const workers = number(
    v,
    "workers",
    (n) => Number.isInteger(n) && n >= 1 && n <= 1000,
    "an integer from 1 to 1000",
  ) ?? 4;
  // Below 1 ms a timeout rounds to 0, which means "no limit" further down: reject it here.
  const timeout = number(v, "timeout", (n) => n >= 0.001, "a number of seconds >= 0.001 (1 ms)") ??
    120;
  const threshold = number(v, "threshold", (n) => n >= 0 && n <= 1, "a score between 0 and 1");
  if (v.quiet === true && v.verbose === true) {
    throw new UsageError("--quiet and --verbose cannot be used together");
  }
  const parsed: RunArgs = {
    paths: args.positionals,
    workers,
    timeoutMs: Math.round(timeout * 1000),
    dryRun: v["dry-run"] === true,
    allowRun: v["allow-run"] === true,
    verbose: v.verbose === true,
    quiet: v.quiet === true,
    json: v.json === true,
  };
  const optional: [keyof RunArgs, string][] = [
    ["target", "target"],
    ["targets", "targets"],
    ["judgeTarget", "judge-target"],
    ["filter", "filter"],
    ["out", "out"],
    ["root", "root"],
  ];
  for (const [key, flag] of optional) {
    const value = str(v, flag);
    if (value !== undefined) {
      if (value.trim() === "") throw new UsageError(`--${flag} must not be empty`);
      (parsed as unknown as Record<string, unknown>)[key] = value;
    }
  }
  const filterProblem = parsed.filter === undefined ? undefined : globProblem(parsed.filter);
  if (filterProblem !== undefined) throw new UsageError(`--filter: ${filterProblem}`);
  if (threshold !== undefined) parsed.threshold = threshold;
  return parsed;
}

/** Loads every eval file in the sandbox (one worker per dataset root). */
async function loadFiles(
  files: string[],
  options: { root?: string; verbose: boolean; signal: AbortSignal },
): Promise<LoadedEvalSet[]> {
  const sandboxes = new Map<string, Sandbox>();
  const sets: LoadedEvalSet[] = [];
  const errors: Diagnostic[] = [];
  try {
    for (const file of files) {
      const root = await sandboxRoot(file, { root: options.root });
      let sandbox = sandboxes.get(root);
      if (!sandbox) sandboxes.set(root, sandbox = new Sandbox(root));
      try {
        sets.push(await sandbox.load(file, { verbose: options.verbose, signal: options.signal }));
      } catch (e) {
        if (!(e instanceof EvalLoadError)) throw e;
        errors.push(
          ...(e.diagnostics.length > 0
            ? e.diagnostics
            : [{ severity: "error" as const, file, message: e.message }]),
        );
      }
    }
  } finally {
    for (const s of sandboxes.values()) s.close();
  }
  if (errors.length > 0) {
    throw new RunConfigError(
      `Could not load ${new Set(errors.map((d) => d.file)).size} eval file(s); nothing ran`,
      {
        diagnostics: errors,
        hint: "fix the errors above (agentv validate shows every problem)",
      },
    );
  }
  return sets;
}

/**
 * Prints why the results file could not be written (the run stopped scheduling cases) and
 * returns exit code 1: cases ran, but their results are not all recorded.
 */
function reportWriteFailure(error: ResultsWriteError, io: CommandIO): number {
  const paint = createPaint(io.color);
  const notStarted = error.summary?.not_started ?? 0;
  io.stderr(
    `${paint.red(paint.bold("error"))}: ${error.message}\n` +
      `${error.rowsWritten} row${error.rowsWritten === 1 ? " was" : "s were"} written and kept; ` +
      `no case was started after the failure${
        notStarted > 0 ? ` (${notStarted} not started)` : ""
      }\n` +
      `${paint.dim("hint")}: free space on that disk or pass --out with a writable path\n`,
  );
  return 1;
}

/** Prints a configuration error (diagnostics, message, hint) and returns exit code 2. */
function reportConfigError(
  error: RunConfigError | TargetConfigError | TargetsFileError,
  io: CommandIO,
): number {
  const paint = createPaint(io.color);
  const diagnostics = error instanceof TargetConfigError ? [] : error.diagnostics;
  if (diagnostics.length > 0) {
    io.stderr(
      renderDiagnostics(diagnostics, {
        cwd: io.cwd,
        color: io.color,
        sourceLines: createSourceReader(),
      }) +
        "\n",
    );
  }
  if (!(error instanceof TargetsFileError)) {
    io.stderr(`${paint.red(paint.bold("error"))}: ${error.message}\n`);
  } else if (diagnostics.length === 0) {
    io.stderr(`${paint.red(paint.bold("error"))}: ${error.message}\n`);
  }
  const hint = error instanceof UntrustedDatasetError
    ? trustHint(error, io)
    : error instanceof TargetsFileError
    ? undefined
    : error.hint;
  if (hint) io.stderr(`${paint.dim("hint")}: ${hint}\n`);
  return 2;
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
async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  const opts = parseRunArgs(args);
  const progressOut = opts.json ? io.stderr : io.stdout;
  const log = (text: string) => {
    if (opts.verbose) progressOut(text + "\n");
  };
  try {
    const discovered = await discoverEvalFiles(opts.paths, { cwd: io.cwd });
    if (discovered.problems.length > 0) {
      throw new UsageError(
        discovered.problems.join("\n"),
        "name eval files (.yaml, .yml, .jsonl), folders holding them, or globs",
      );
    }
    if (discovered.files.length === 0) {
      throw new UsageError(
        `No eval files found in ${opts.paths.map((p) => `'${p}'`).join(", ")}`,
        "eval files end in .yaml, .yml or .jsonl",
      );
    }
    const root = opts.root === undefined ? undefined : resolve(io.cwd, opts.root);
    const files = discovered.files.map((f) => resolve(io.cwd, f));
    const sets = await loadFiles(files, {
      ...(root !== undefined ? { root } : {}),
      verbose: opts.verbose,
      signal: io.signal,
    });
    for (const set of sets) {
      log(
        `Loaded ${set.cases.length} case${set.cases.length === 1 ? "" : "s"} from ${
          displayPath(set.file, io.cwd)
        } (dataset root ${displayPath(set.root, io.cwd)})`,
      );
    }
    // Warnings that did not skip a case (skipped ones are listed in the summary).
    const warnings = sets.flatMap((s) =>
      (s.diagnostics ?? []).filter((d) => d.severity === "warning" && !isSkippedCaseDiagnostic(d))
    );
    if (warnings.length > 0 && !opts.quiet) {
      io.stderr(renderDiagnostics(warnings, { cwd: io.cwd, color: io.color }) + "\n");
    }
    const first = sets.find((s) => s.cases.length > 0) ?? sets[0];
    const out = opts.out ??
      defaultResultsPath(first.root, first.cases[0]?.dataset ?? "results", io.now());
    if (opts.out !== undefined) {
      const targets = opts.targets === undefined ? {} : { targets: resolve(io.cwd, opts.targets) };
      await refuseOutputOverInput(resolve(io.cwd, out), await runInputs(sets, targets), opts.out);
    }

    const progress = createProgressReporter({
      write: progressOut,
      isTTY: opts.json ? false : io.isTTY,
      color: io.color,
      quiet: opts.quiet,
      verbose: opts.verbose,
      cwd: io.cwd,
      now: io.now,
    });
    const result = await runEval({
      sets,
      ...(opts.target !== undefined ? { targetOverride: opts.target } : {}),
      ...(opts.targets !== undefined ? { targetsFile: opts.targets } : {}),
      ...(opts.judgeTarget !== undefined ? { judgeTarget: opts.judgeTarget } : {}),
      workers: opts.workers,
      timeoutMs: opts.timeoutMs,
      ...(opts.filter !== undefined ? { filter: opts.filter } : {}),
      out,
      dryRun: opts.dryRun,
      env: io.envAll(),
      cwd: io.cwd,
      signal: io.signal,
      now: io.now,
      allowRun: opts.allowRun || await trustStorePermission(io),
      onEvent: progress.onEvent,
      verbose: opts.verbose,
      keepRows: false,
    }).catch((e) => {
      if (e instanceof ResultsWriteError) return e;
      throw e;
    });
    progress.finish();
    if (result instanceof ResultsWriteError) return reportWriteFailure(result, io);
    const { summary } = result;
    if (opts.json) io.stdout(JSON.stringify(summary, null, 2) + "\n");
    else {
      io.stdout(
        (opts.quiet ? "" : "\n") +
          renderSummary(summary, {
            color: io.color,
            cwd: io.cwd,
            ...(opts.threshold !== undefined ? { threshold: opts.threshold } : {}),
          }),
      );
    }
    if (summary.interrupted) return 130;
    return runPassed(summary, opts.threshold !== undefined ? { threshold: opts.threshold } : {})
      ? 0
      : 1;
  } catch (error) {
    if (
      error instanceof RunConfigError || error instanceof TargetConfigError ||
      error instanceof TargetsFileError
    ) {
      if (io.signal.aborted) return 130;
      return reportConfigError(error, io);
    }
    throw error;
  }
}

/** The `run` command (alias `eval`). */
export const runCommand: Command = {
  name: "run",
  aliases: ["eval"],
  summary: "Run eval cases against their targets, score them and write results",
  usage: "agentv run <file|folder|glob>... [options]",
  options: {
    target: { type: "string", valueName: "NAME", description: "Use this target for every case" },
    targets: {
      type: "string",
      valueName: "FILE",
      description: "Targets file (default: nearest .agentv/targets.yaml)",
    },
    "judge-target": {
      type: "string",
      valueName: "NAME",
      description:
        "Judge target for llm_judge/rubric evaluators (default: the target's judge_target)",
    },
    workers: { type: "string", valueName: "N", description: "Cases run at once (default 4)" },
    timeout: {
      type: "string",
      valueName: "SECONDS",
      description: "Timeout of each target call attempt and evaluator (default 120)",
    },
    filter: { type: "string", valueName: "GLOB", description: "Run only cases whose id matches" },
    out: {
      type: "string",
      valueName: "FILE",
      description: "Results file (default .agentv/results/<dataset>-<timestamp>.jsonl)",
    },
    "dry-run": {
      type: "boolean",
      description: "Replace every target and judge by a mock; run no command or code judge",
    },
    "allow-run": {
      type: "boolean",
      description:
        "Run the commands the dataset defines (script code judges, cli targets) this once",
    },
    threshold: {
      type: "string",
      valueName: "X",
      description: "Pass when there is no error and the mean score >= X (instead of no fail)",
    },
    root: { type: "string", valueName: "DIR", description: "Dataset root (default: discovered)" },
    verbose: { type: "boolean", short: "v", description: "Show targets, retries and loading" },
    quiet: { type: "boolean", short: "q", description: "Print only the summary" },
    json: { type: "boolean", description: "Print the summary as JSON on stdout" },
  },
  run,
};
