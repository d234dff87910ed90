/**
 * The body of `agentv run` once its arguments are checked and its sandboxes started (`run.ts`):
 * load the files, run the cases, print the summary, write the reports, and turn configuration
 * errors into exit code 2.
 *
 * @module
 */
import { resolve } from "node:path";
import { EvalLoadError } from "../dataset/errors.ts";
import { createProgressReporter, renderSummary } from "../render/console.ts";
import { ResultsWriteError } from "../results/results_writer.ts";
import { runPassed } from "../results/summary.ts";
import { RunConfigError } from "../run/errors.ts";
import { UntrustedDatasetError } from "../run/run_permission.ts";
import {
  defaultResultsPath,
  isSkippedCaseDiagnostic,
  type LoadedEvalSet,
  runEval,
} from "../run/run_eval.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import { TargetConfigError, TargetsFileError } from "../dataset/targets_errors.ts";
import type { CommandIO } from "./command.ts";
import { createPaint, renderDiagnostics, renderDiagnosticsFor } from "../render/diagnostics.ts";
import { displayPath } from "../fs/display_path.ts";
import type { RunInput } from "./run.ts";
import type { RunArgs } from "./run_args.ts";
import type { RunSummary } from "../results/summary.ts";
import { runSpecOf } from "../run/settle_spec.ts";
import {
  refuseOutputOverInput,
  refuseReportsOverInputs,
  resultsInputs,
  runInputs,
} from "./run_inputs.ts";
import { wantsRunReports } from "./report_specs.ts";
import { reportUntrusted, trustStorePermission } from "./trust.ts";
import { readPriorRun } from "../run/resume.ts";
import { priorRunNote } from "./run_prior.ts";
import { emptyShard, emptyShardMessage } from "./shard_arg.ts";
import { projectRoot } from "./project_root.ts";
import { runName, uniqueDatasetNames } from "../run/dataset_names.ts";

/** Waits for every eval file's load (started in `run.ts`); load errors end the run (exit 2). */
async function loadFiles(inputs: readonly RunInput[]): Promise<LoadedEvalSet[]> {
  const sets: LoadedEvalSet[] = [];
  const errors: Diagnostic[] = [];
  for (const { file, loaded } of inputs) {
    try {
      sets.push(await loaded);
    } catch (e) {
      if (!(e instanceof EvalLoadError)) throw e;
      errors.push(
        ...(e.diagnostics.length > 0
          ? e.diagnostics
          : [{ severity: "error" as const, file, message: e.message }]),
      );
    }
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
      `${paint.dim("hint")}: ${error.hint}\n`,
  );
  return 1;
}

/** The terminal's width in columns; 80 when it has none (or reports 0). */
function consoleColumns(): number {
  try {
    return Deno.consoleSize().columns || 80;
  } catch {
    return 80;
  }
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
      renderDiagnosticsFor(diagnostics, io) + "\n",
    );
  }
  if (!(error instanceof TargetsFileError)) {
    io.stderr(`${paint.red(paint.bold("error"))}: ${error.message}\n`);
  } else if (diagnostics.length === 0) {
    io.stderr(`${paint.red(paint.bold("error"))}: ${error.message}\n`);
  }
  const hint = error instanceof TargetsFileError ? undefined : error.hint;
  if (hint) io.stderr(`${paint.dim("hint")}: ${hint}\n`);
  return 2;
}

/** The summary of a finished run, its results file and the reports' exit code. */
interface Ran {
  summary: RunSummary;
  out: string;
  sets: LoadedEvalSet[];
}

/**
 * Runs the loaded files of an `agentv run` and reports; resolves to the exit code. The sandboxes
 * of `inputs` are started (see `run.ts`) and closed there once the files are loaded.
 *
 * @example
 * ```ts ignore
 * const code = await executeRun(await parseRunArgs(parsed), [{ file, loaded }], io);
 * ```
 */
export async function executeRun(
  args: RunArgs,
  inputs: readonly RunInput[],
  io: CommandIO,
): Promise<number> {
  try {
    const ran = await loadAndRun(args, inputs, io);
    return typeof ran === "number" ? ran : await reportRun(args, ran, io);
  } catch (error) {
    if (
      error instanceof RunConfigError || error instanceof TargetConfigError ||
      error instanceof TargetsFileError
    ) {
      if (io.signal.aborted) return 130;
      // What a dataset asks consent for, why the trust store does not cover it, both fixes.
      if (error instanceof UntrustedDatasetError) return await reportUntrusted(error, io);
      return reportConfigError(error, io);
    }
    throw error;
  }
}

/**
 * Where the run's progress and notes go: stdout on a terminal; stderr with `--json` (stdout holds
 * the JSON) or when stdout is not a terminal and stderr is (`agentv run > log`: the live line
 * stays on the screen); else stdout, one plain line per case.
 */
function progressOut(args: RunArgs, io: CommandIO): (text: string) => void {
  return progressToStderr(args, io) ? io.stderr : io.stdout;
}

function progressToStderr(args: RunArgs, io: CommandIO): boolean {
  return args.given.json === true || (!io.isTTY && io.stderrIsTTY === true);
}

/** Whether progress goes to a terminal: the live line instead of one line per case. */
function progressOnTerminal(args: RunArgs, io: CommandIO): boolean {
  return progressToStderr(args, io) ? io.stderrIsTTY === true : io.isTTY;
}

/**
 * Loads the files, reads the earlier run, refuses outputs over inputs, then runs with a progress
 * reporter; resolves to what ran, or to an exit code when nothing had to run (or a row could not
 * be written).
 */
async function loadAndRun(
  args: RunArgs,
  inputs: readonly RunInput[],
  io: CommandIO,
): Promise<Ran | number> {
  const { given: spec } = args;
  const write = progressOut(args, io);
  const sets = await loadFiles(inputs);
  printLoaded(sets, args, io);
  // --resume / --rerun-failed / --retry-errors: the earlier run (lib/run/resume.ts).
  const prior = args.prior && await readPriorRun(args.prior.path, args.prior.mode, io);
  const nothingToRerun = prior !== undefined && prior.mode !== "resume" && prior.pairs.size === 0;
  if (prior && (!spec.quiet || nothingToRerun)) write(priorRunNote(prior, io.cwd));
  if (nothingToRerun) return 0;
  // By default the results go to the current project's `.agentv/results/`, named after the run
  // (never into a folder of the datasets run from elsewhere).
  const out = spec.out === undefined
    ? defaultResultsPath(
      await projectRoot(io.cwd),
      runName(uniqueDatasetNames(sets)),
      io.now(),
    )
    : resolve(io.cwd, spec.out);
  await refuseOutputs(args, { sets, out, priorResults: prior?.resultsPath }, io);
  // `using`: the live line's redraw timer stops however the run ends (even on a throw).
  using progress = createProgressReporter({
    write,
    isTTY: progressOnTerminal(args, io),
    color: io.color,
    quiet: spec.quiet ?? false,
    verbose: spec.verbose ?? false,
    cwd: io.cwd,
    now: io.now,
    columns: io.columns ?? consoleColumns,
    startTimer: io.startTimer,
  });
  const result = await runEval({
    ...runSpecOf(spec as Record<string, unknown>),
    sets,
    out,
    prior,
    env: io.envAll(),
    cwd: io.cwd,
    signal: io.signal,
    now: io.now,
    allowRun: spec.allowRun || await trustStorePermission(io),
    onEvent: progress.onEvent,
    keepRows: false,
  }).catch((e) => {
    if (e instanceof ResultsWriteError) return e;
    throw e;
  });
  progress.finish();
  if (result instanceof ResultsWriteError) return reportWriteFailure(result, io);
  return { summary: result.summary, out, sets };
}

/** Prints what was loaded (`--verbose`) and the loader's warnings that did not skip a case. */
function printLoaded(sets: readonly LoadedEvalSet[], args: RunArgs, io: CommandIO): void {
  const write = progressOut(args, io);
  for (const set of args.given.verbose ? sets : []) {
    write(
      `Loaded ${set.cases.length} case${set.cases.length === 1 ? "" : "s"} from ${
        displayPath(set.file, io.cwd)
      } (dataset root ${displayPath(set.root, io.cwd)})\n`,
    );
  }
  // Skipped cases are listed in the summary.
  const warnings = sets.flatMap((s) =>
    (s.diagnostics ?? []).filter((d) => d.severity === "warning" && !isSkippedCaseDiagnostic(d))
  );
  if (warnings.length > 0 && !args.given.quiet) {
    io.stderr(renderDiagnostics(warnings, { cwd: io.cwd, color: io.color }) + "\n");
  }
}

/** No output over a file the run reads (nor a report over the results), before anything runs. */
async function refuseOutputs(
  args: RunArgs,
  run: { sets: LoadedEvalSet[]; out: string; priorResults: string | undefined },
  io: CommandIO,
): Promise<void> {
  const { given } = args;
  const reports = given.report ?? [];
  // A resume writes into the file it resumes (never `--out`).
  const outGiven = given.out !== undefined && args.prior?.mode !== "resume";
  if (!outGiven && reports.length === 0) return;
  const targets = given.targetsFile === undefined
    ? {}
    : { targets: resolve(io.cwd, given.targetsFile) };
  const inputs = await runInputs(run.sets, targets);
  if (outGiven) await refuseOutputOverInput(run.out, inputs, { shown: given.out });
  await refuseReportsOverInputs(reports, {
    resultsPath: run.out,
    inputs: [
      ...inputs,
      ...(run.priorResults ? resultsInputs(run.priorResults, "parent run's ") : []),
    ],
    cwd: io.cwd,
  });
}

/** Prints the summary and writes the reports; resolves to the exit code (the CI gate). */
async function reportRun(args: RunArgs, ran: Ran, io: CommandIO): Promise<number> {
  const { given } = args;
  const { summary } = ran;
  if (given.json) io.stdout(JSON.stringify(summary, null, 2) + "\n");
  else {
    io.stdout(
      (given.quiet ? "" : "\n") +
        renderSummary(summary, {
          color: io.color,
          cwd: io.cwd,
          quiet: given.quiet ?? false,
          threshold: given.threshold,
        }),
    );
  }
  // Reports (--report, GitHub step summary and annotations): 1 when one asked for failed. The
  // renderers are imported only when a report is wanted.
  const specs = given.report ?? [];
  const reported = !wantsRunReports(specs, io) ? 0 : await (await import(
    "./run_reports.ts"
  )).writeRunReports({
    specs,
    resultsPath: ran.out,
    summary,
    sets: ran.sets,
    write: progressOut(args, io),
    quiet: given.quiet ?? false,
  }, io);
  if (summary.interrupted) return 130;
  if (given.shard !== undefined && emptyShard(summary)) {
    io.stderr(emptyShardMessage(given.shard));
    return reported;
  }
  return runPassed(summary, { threshold: given.threshold }) ? reported : 1;
}
