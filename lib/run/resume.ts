/**
 * Runs that continue an earlier one: `--resume <results>` (the same run, into the same file: the
 * finished (dataset, case, target, trial) runs are left out, the rest run, the rows are appended)
 * and `--rerun-failed <results>` / `--retry-errors <results>` (the failed or error runs of a
 * parent run, into a new results file whose run record names the parent).
 *
 * Both take the options of the earlier run's record, and refuse one given again that would change
 * the results (`prior_spec.ts`); both are refused ({@link RunConfigError}, nothing runs) when the
 * eval files are not the run's (a file added or missing, or one whose SHA-256 differs from the
 * record's).
 *
 * @module
 */
import { relative, resolve } from "node:path";
import { readResults } from "../results/read_results.ts";
import { ResultsFileError } from "../results/results_file.ts";
import {
  readResumeFile,
  type ResumeFileContent,
  type RunRecorderParent,
} from "../results/resume_file.ts";
import { readRunRecord, RunRecordError, runRecordPath, sha256File } from "../results/run_record.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import type { ResultRow } from "../schema/result.ts";
import type { RunRecord } from "../schema/run_record.ts";
import { RunConfigError } from "./errors.ts";
import type { CaseRun } from "./plan.ts";
import type { LoadedEvalSet } from "./run_options.ts";

/** How a run continues an earlier one. */
export type PriorRunMode = "resume" | "rerun-failed" | "retry-errors";

/** The earlier run a run resumes, or reruns cases of (made by {@link readPriorRun}). */
export interface PriorRun {
  /** `resume`, `rerun-failed` or `retry-errors`. */
  mode: PriorRunMode;
  /** Its results file (absolute). */
  resultsPath: string;
  /** Its run record. */
  record: RunRecord;
  /**
   * Keys ({@link pairKey}) of its (case, target, trial) runs: for `resume` the finished ones (left
   * out), for a rerun the ones to run (the others are left out).
   */
  pairs: Set<string>;
  /** For `resume`: what was read of its results file (the recorder prepares it from this). */
  file?: ResumeFileContent;
}

/**
 * The key of a (dataset, case id, target, trial) run.
 *
 * @example
 * ```ts
 * import { pairKey } from "./resume.ts";
 * pairKey({ dataset: "d", eval_id: "a", target: "t", trial: 2 }); // "d\u0000a\u0000t\u00002"
 * ```
 */
export function pairKey(run: CaseRun): string {
  return `${run.dataset}\0${run.eval_id}\0${run.target}\0${run.trial}`;
}

/**
 * The (case, target, trial) runs a rerun runs: per run its last row in the file; `rerun-failed` takes
 * errors and `fail` verdicts, `retry-errors` errors only (an `interrupted` error is an error).
 *
 * @example
 * ```ts
 * import { rerunPairs } from "./resume.ts";
 * const rows = [
 *   { dataset: "d", eval_id: "a", target: "t", trial: 0, status: "ok", verdict: "fail" },
 *   { dataset: "d", eval_id: "b", target: "t", trial: 0, status: "error", verdict: "fail" },
 *   { dataset: "d", eval_id: "c", target: "t", trial: 0, status: "ok", verdict: "pass" },
 * ];
 * rerunPairs(rows as never, "rerun-failed").size; // 2
 * rerunPairs(rows as never, "retry-errors").size; // 1
 * ```
 */
export function rerunPairs(
  rows: readonly ResultRow[],
  mode: "rerun-failed" | "retry-errors",
): Set<string> {
  const last = new Map<string, ResultRow>();
  for (const row of rows) last.set(pairKey(row), row);
  const pairs = new Set<string>();
  for (const [key, row] of last) {
    const failed = row.status === "error" ||
      (mode === "rerun-failed" && row.status === "ok" && row.verdict === "fail");
    if (failed) pairs.add(key);
  }
  return pairs;
}

/**
 * Reads the record of the run a run continues (what {@link readPriorRun} reads first; `agentv run`
 * needs only its options and eval files before it loads anything). Throws {@link RunConfigError}
 * when the record cannot be read.
 *
 * @example
 * ```ts ignore
 * const { record } = await readPriorRecord("out.jsonl", "resume", { cwd: Deno.cwd() });
 * ```
 */
export async function readPriorRecord(
  resultsPath: string,
  mode: PriorRunMode,
  options: { cwd: string },
): Promise<{ mode: PriorRunMode; resultsPath: string; record: RunRecord }> {
  const path = resolve(options.cwd, resultsPath);
  try {
    return { mode, resultsPath: path, record: await readRunRecord(runRecordPath(path)) };
  } catch (e) {
    if (!(e instanceof RunRecordError)) throw e;
    throw new RunConfigError(e.message, {
      hint: `--${mode} takes a results file written by agentv run, with its .run.json beside it`,
      cause: e,
    });
  }
}

/**
 * Reads the run a run continues: its record and the pairs to leave out (`resume`) or to run (a
 * rerun). Throws {@link RunConfigError} when the results file or its record cannot be read.
 *
 * @example
 * ```ts ignore
 * import { readPriorRun } from "./resume.ts";
 * const prior = await readPriorRun(".agentv/results/run.jsonl", "resume", { cwd: Deno.cwd() });
 * console.log(prior.record.run_id, prior.pairs.size);
 * ```
 */
export async function readPriorRun(
  resultsPath: string,
  mode: PriorRunMode,
  options: { cwd: string },
): Promise<PriorRun> {
  const { resultsPath: path, record } = await readPriorRecord(resultsPath, mode, options);
  const flag = `--${mode}`;
  let rows: ResultRow[];
  let file: ResumeFileContent | undefined;
  let duplicates: Diagnostic[];
  try {
    if (mode === "resume") {
      file = await readResumeFile(path);
      ({ finished: rows, duplicates } = file);
    } else ({ rows, duplicates } = await readResults(path));
  } catch (e) {
    throw new RunConfigError(
      e instanceof ResultsFileError
        ? e.message.replaceAll(e.path, relative(options.cwd, e.path) || e.path)
        : `Cannot read the results file ${path}: ${(e as Error).message}`,
      { hint: `${flag} takes a results file written by agentv run`, cause: e },
    );
  }
  if (duplicates.length > 0) {
    // Two rows of one case run: which is the run's answer cannot be told, nor which to keep.
    throw new RunConfigError(
      `${flag}: the results file ${path} has ${duplicates.length} case run(s) with more than ` +
        "one row; a run writes one row per (dataset, case, target, trial)",
      {
        diagnostics: duplicates,
        hint: "remove the extra lines (the messages above name them), then run again",
      },
    );
  }
  const pairs = mode === "resume" ? new Set(rows.map(pairKey)) : rerunPairs(rows, mode);
  return { mode, resultsPath: path, record, pairs, ...(file ? { file } : {}) };
}

/**
 * Refuses ({@link RunConfigError}) a run that would continue `prior` with other eval files or
 * changed eval files, or a results file that does not fit the mode (a resume writes into the
 * run's file, a rerun into another). Its options are checked when they are taken from the record
 * (`specOfPriorRun`).
 */
export async function checkPriorRun(
  prior: PriorRun,
  current: { sets: readonly LoadedEvalSet[]; out: string | undefined },
): Promise<void> {
  const flag = `--${prior.mode}`;
  const id = prior.record.run_id;
  if (
    prior.mode === "resume" ? current.out !== prior.resultsPath : current.out === prior.resultsPath
  ) {
    throw new RunConfigError(
      prior.mode === "resume"
        ? `${flag} writes into ${prior.resultsPath}, not ${current.out ?? "no results file"}`
        : `${flag} would overwrite the results of its parent run ${prior.resultsPath}`,
      { hint: prior.mode === "resume" ? "leave --out out" : "pass --out with another path" },
    );
  }
  const recorded = new Map(prior.record.datasets.map((d) => [d.path, d.sha256]));
  const files = new Set(current.sets.map((s) => s.file));
  const added = [...files].filter((f) => !recorded.has(f));
  const missing = [...recorded.keys()].filter((f) => !files.has(f));
  if (added.length > 0 || missing.length > 0) {
    const parts = [
      ...(missing.length > 0 ? [`missing ${missing.join(", ")}`] : []),
      ...(added.length > 0 ? [`not in the run: ${added.join(", ")}`] : []),
    ];
    throw new RunConfigError(
      `${flag}: the eval files are not those of run ${id} (${parts.join("; ")})`,
      { hint: `give no path to ${flag} the run's eval files, or start a new run` },
    );
  }
  for (const file of files) {
    const sha = recorded.get(file);
    if (sha === null || sha === undefined) continue;
    const now = await sha256File(file).catch(() => null);
    if (now !== sha) {
      throw new RunConfigError(
        `${file}: the eval file changed since run ${id} started (SHA-256 ${sha.slice(0, 12)}… ` +
          `recorded, ${now === null ? "unreadable" : `${now.slice(0, 12)}…`} now); ${flag} ` +
          "needs the same cases",
        { hint: "restore the file as it was, or start a new run without " + flag },
      );
    }
  }
}

/** Whether a (case, target, trial) run is left out of a run that continues `prior`. */
export function priorDone(prior: PriorRun): (run: CaseRun) => boolean {
  return prior.mode === "resume"
    ? (pair) => prior.pairs.has(pairKey(pair))
    : (pair) => !prior.pairs.has(pairKey(pair));
}

/**
 * What the recorder needs: the record to resume, or the parent to name.
 *
 * @example
 * ```ts ignore
 * createRunRecorder({ resultsPath, ...priorRecorderOptions(prior) });
 * ```
 */
export function priorRecorderOptions(
  prior: PriorRun | undefined,
): { resume?: RunRecord; resumeFile?: ResumeFileContent; parent?: RunRecorderParent } {
  if (prior === undefined) return {};
  if (prior.mode === "resume") {
    return { resume: prior.record, ...(prior.file ? { resumeFile: prior.file } : {}) };
  }
  return {
    parent: {
      run_id: prior.record.run_id,
      results_path: prior.resultsPath,
      rerun: prior.mode === "rerun-failed" ? "failed" : "errors",
    },
  };
}
