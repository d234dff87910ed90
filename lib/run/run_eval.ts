/**
 * The run: prepare (options, recorder, files, settled options, budget, cache), plan, bind
 * targets, gate, open the record, schedule the cases, finish (summary, calibration). Each step is named in
 * `run_steps.ts` and `run_schedule.ts`; this module composes them. The recorder
 * (`lib/results/recorder.ts`), attached to the run's events, redacts each row, appends it to the
 * results file as it finishes, keeps `<results>.run.json` and the summary. Interruption (the
 * `signal`) stops scheduling, aborts calls in flight, records them as `interrupted` errors and
 * still returns the partial summary.
 *
 * @module
 */
import { resolve } from "node:path";
import type { RunSummary } from "../results/summary.ts";
import type { PlannedCase } from "./plan.ts";
import { runCalibration } from "./run_calibration.ts";
import { scheduleRun } from "./run_schedule.ts";
import {
  bindTargets,
  gateRun,
  isSkippedCaseDiagnostic,
  openRun,
  planRun,
  prepareRun,
  type RunContext,
} from "./run_steps.ts";
import type {
  EvalFileLoader,
  LoadedEvalSet,
  RunEvalOptions,
  RunEvalResult,
  RunSpec,
} from "./run_options.ts";

/** The options of {@link runEval} and its result (defined in `run_options.ts`). */
export type { EvalFileLoader, LoadedEvalSet, RunEvalOptions, RunEvalResult, RunSpec };
export { isSkippedCaseDiagnostic };

/**
 * Runs eval cases against their targets and scores them.
 *
 * Throws `RunConfigError` (nothing ran) for file-level load errors or no case to run. A
 * target that cannot be used (no targets file, unknown name, missing `${{ VAR }}`, invalid
 * settings) blocks only the cases that use it: their rows are errors naming it; it throws only
 * when every case is blocked. Per-case failures never throw: they are rows with
 * `status: "error"`. A row that cannot be written to `out` stops the scheduling of new cases and,
 * once the cases in flight are done, throws `ResultsWriteError` (with the partial `summary`; the
 * rows already written stay in the file). With `out`, `<out>.run.json` records the run: written
 * with `status: "running"` before the first case, rewritten when the run ends (`finished`,
 * `interrupted` or `failed`); every row carries its `run_id`. Eval files are loaded in the sandbox
 * `agentv run` uses unless `sandbox: false` (see {@link RunEvalOptions.sandbox}).
 *
 * @example
 * ```ts ignore
 * import { runEval } from "@agentv/agentv";
 * const { rows, summary } = await runEval({
 *   files: ["evals/dataset.yaml"],
 *   env: Deno.env.toObject(),
 *   cwd: Deno.cwd(),
 *   out: ".agentv/results/run.jsonl",
 *   workers: 8,
 *   onEvent: (e) => e.type === "case_finished" && console.log(e.row.eval_id, e.row.score),
 * });
 * console.log(summary.scores.mean);
 * ```
 */
export async function runEval(options: RunEvalOptions): Promise<RunEvalResult> {
  const run = await prepareRun(options);
  const planned = await planRun(run);
  const bound = await bindTargets(run, planned);
  await gateRun(run, bound);
  const runId = await openRun(run, bound);
  const { started } = await scheduleRun(run, bound, runId);
  return await finishRun(run, { planned, total: bound.jobs.length, started });
}

/**
 * Step 7: the summary (over every row of the file for a resumed run), the budget's section, the
 * corrected pass rate of a calibrated judge (`run_calibration.ts`), the `run_finished` event; a
 * row that could not be written ends the run in its `ResultsWriteError`.
 */
async function finishRun(
  run: RunContext,
  counts: { planned: readonly PlannedCase[]; total: number; started: number },
): Promise<RunEvalResult> {
  const { recorder, spec, signal } = run;
  const summary: RunSummary = recorder.summarize({
    invalid: run.invalid,
    notStarted: counts.total - counts.started,
    interrupted: signal.aborted,
    dryRun: spec.dryRun,
    durationMs: run.now() - run.startedAt,
    trialsGate: spec.trialsGate,
    cache: run.cache?.stats,
  });
  if (run.budget) summary.budget = run.budget.summary();
  const calibration = await runCalibration(summary, {
    tally: run.judgeTally,
    cases: counts.planned,
    roots: run.sets.map((s) => s.root),
  });
  if (calibration) summary.calibration = calibration;
  const writeFailure = recorder.writeFailure;
  if (writeFailure) {
    writeFailure.summary = summary;
    recorder.fail(writeFailure, summary);
    throw writeFailure;
  }
  run.emit({ type: "run_finished", summary });
  return { rows: recorder.rows, summary };
}

/**
 * The default results path: `<root>/.agentv/results/<name>-<UTC timestamp>.jsonl` (`agentv run`
 * passes the current project and the run's name, `dataset_names.ts`), the
 * timestamp being ISO-8601 with `:` and `.` replaced by `-` (e.g. `2026-01-21T10-22-57-123Z`).
 *
 * @example
 * ```ts
 * import { defaultResultsPath } from "./run_eval.ts";
 * defaultResultsPath("/repo", "support", Date.UTC(2026, 0, 21, 10, 22, 57, 123));
 * // "/repo/.agentv/results/support-2026-01-21T10-22-57-123Z.jsonl"
 * ```
 */
export function defaultResultsPath(root: string, dataset: string, time: number): string {
  const stamp = new Date(time).toISOString().replace(/[:.]/g, "-");
  const safe = dataset.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+/, "") || "results";
  return resolve(root, ".agentv", "results", `${safe}-${stamp}.jsonl`);
}
