/**
 * What `runEval` records about its own run in `<results>.run.json` (the options that affect
 * results), and how a results file that cannot be opened is reported.
 *
 * @module
 */
import { resolve } from "node:path";
import type { RunOptionsRecord } from "../schema/run_record.ts";
import { RunConfigError } from "./errors.ts";
import type { RunEvalOptions } from "./run_eval.ts";

/**
 * The run record's `options`: the options of `runEval` that affect results, paths absolute, no
 * secrets and no environment.
 *
 * @example
 * ```ts
 * import { recordedOptions } from "./run_record_options.ts";
 * recordedOptions({ env: {}, cwd: "/repo", filter: "a*" }, {
 *   workers: 4,
 *   timeoutMs: 120_000,
 *   dryRun: false,
 * }).filter; // "a*"
 * ```
 */
export function recordedOptions(
  options: RunEvalOptions,
  resolved: {
    workers: number;
    timeoutMs: number;
    dryRun: boolean;
    budgetUsd?: number;
    cache?: "read" | "write" | "readwrite";
    replay?: boolean;
  },
): RunOptionsRecord {
  return {
    target: options.targetOverride ?? null,
    targets_file: options.targetsFile === undefined
      ? null
      : resolve(options.cwd, options.targetsFile),
    judge_target: options.judgeTarget ?? null,
    filter: options.filter ?? null,
    workers: resolved.workers,
    timeout_ms: resolved.timeoutMs,
    dry_run: resolved.dryRun,
    threshold: options.threshold ?? null,
    trials: options.trials ?? null,
    trials_gate: options.trialsGate ?? "mean",
    root: options.root === undefined ? null : resolve(options.cwd, options.root),
    shard: options.shard === undefined
      ? null
      : { index: options.shard.index, count: options.shard.count },
    budget_usd: resolved.budgetUsd ?? options.budgetUsd ?? null,
    // The response cache, when on (its effective mode: flags, else the config).
    ...(resolved.cache !== undefined
      ? { cache: resolved.cache, replay: resolved.replay ?? false }
      : {}),
  };
}

/** The {@link RunConfigError} of a results file (or its run record) that cannot be written. */
export function resultsFileError(path: string, error: unknown): RunConfigError {
  const reason =
    error instanceof Deno.errors.AlreadyExists || error instanceof Deno.errors.NotADirectory
      ? "a folder on its path is a file"
      : error instanceof Deno.errors.IsADirectory
      ? "it is a folder"
      : (error as Error).message;
  return new RunConfigError(`Cannot write the results file ${path}: ${reason}`, {
    hint: "pass --out with a writable path",
    cause: error,
  });
}
