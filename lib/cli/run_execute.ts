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
import type { RunArgs, RunInput } from "./run.ts";
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

/**
 * Runs the loaded files of an `agentv run` and reports; resolves to the exit code. The sandboxes
 * of `inputs` are started (see `run.ts`) and closed here once the files are loaded.
 *
 * @example
 * ```ts ignore
 * const code = await executeRun(opts, [{ file, sandbox }], io);
 * ```
 */
export async function executeRun(
  opts: RunArgs,
  inputs: readonly RunInput[],
  io: CommandIO,
): Promise<number> {
  const progressOut = opts.json ? io.stderr : io.stdout;
  const log = (text: string) => {
    if (opts.verbose) progressOut(text + "\n");
  };
  try {
    const sets = await loadFiles(inputs);
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
    // --resume / --rerun-failed / --retry-errors: the earlier run (lib/run/resume.ts).
    const prior = opts.prior && await readPriorRun(opts.prior.path, opts.prior.mode, io);
    const nothingToRerun = prior !== undefined && prior.mode !== "resume" && prior.pairs.size === 0;
    if (prior && (!opts.quiet || nothingToRerun)) progressOut(priorRunNote(prior, io.cwd));
    if (nothingToRerun) return 0;
    const out = prior?.mode === "resume" ? prior.resultsPath : opts.out ??
      defaultResultsPath(first.root, first.cases[0]?.dataset ?? "results", io.now());
    // No output over a file the run reads (nor a report over the results), before anything runs.
    if (opts.out !== undefined || opts.reports.length > 0) {
      const targets = opts.targets === undefined ? {} : { targets: resolve(io.cwd, opts.targets) };
      const inputs = await runInputs(sets, targets);
      if (opts.out !== undefined) {
        await refuseOutputOverInput(resolve(io.cwd, out), inputs, { shown: opts.out });
      }
      await refuseReportsOverInputs(opts.reports, {
        resultsPath: resolve(io.cwd, out),
        inputs: [...inputs, ...(prior ? resultsInputs(prior.resultsPath, "parent run's ") : [])],
        cwd: io.cwd,
      });
    }

    // `using`: the live line's redraw timer stops however the run ends (even on a throw).
    using progress = createProgressReporter({
      write: progressOut,
      isTTY: opts.json ? false : io.isTTY,
      color: io.color,
      quiet: opts.quiet,
      verbose: opts.verbose,
      cwd: io.cwd,
      now: io.now,
      columns: io.columns ?? consoleColumns,
      ...(io.startTimer !== undefined ? { startTimer: io.startTimer } : {}),
    });
    const result = await runEval({
      sets,
      ...(opts.target !== undefined ? { targetOverride: opts.target } : {}),
      ...(opts.targets !== undefined ? { targetsFile: opts.targets } : {}),
      ...(opts.judgeTarget !== undefined ? { judgeTarget: opts.judgeTarget } : {}),
      workers: opts.workers,
      timeoutMs: opts.timeoutMs,
      ...(opts.filter !== undefined ? { filter: opts.filter } : {}),
      ...(opts.shard !== undefined ? { shard: opts.shard } : {}),
      ...(opts.budgetUsd !== undefined ? { budgetUsd: opts.budgetUsd } : {}),
      ...opts.cache,
      ...(opts.trials !== undefined ? { trials: opts.trials } : {}),
      ...(opts.trialsGate !== undefined ? { trialsGate: opts.trialsGate } : {}),
      ...(opts.threshold !== undefined ? { threshold: opts.threshold } : {}),
      out,
      ...(prior !== undefined ? { prior } : {}),
      dryRun: opts.dryRun,
      keepWorkspaces: opts.keepWorkspaces,
      ...(opts.sandbox !== undefined ? { sandbox: opts.sandbox } : {}),
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
            quiet: opts.quiet,
            ...(opts.threshold !== undefined ? { threshold: opts.threshold } : {}),
          }),
      );
    }
    // Reports (--report, GitHub step summary and annotations): 1 when one asked for failed. The
    // renderers are imported only when a report is wanted.
    const reported = !wantsRunReports(opts.reports, io) ? 0 : await (await import(
      "./run_reports.ts"
    )).writeRunReports({
      specs: opts.reports,
      resultsPath: resolve(io.cwd, out),
      summary,
      sets,
      write: progressOut,
      quiet: opts.quiet,
    }, io);
    if (summary.interrupted) return 130;
    if (opts.shard !== undefined && emptyShard(summary)) {
      io.stderr(emptyShardMessage(opts.shard));
      return reported;
    }
    return runPassed(summary, opts.threshold !== undefined ? { threshold: opts.threshold } : {})
      ? reported
      : 1;
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
