/**
 * End-of-run statistics over result rows: counts, errors with reasons, score statistics, verdict
 * counts, a histogram, the slowest cases and per-evaluator means.
 *
 * Score statistics, verdict counts and the histogram are computed over the rows that were scored
 * (`status: ok`); rows with `status: error` are listed under `errors` instead (their score of 0 is
 * not a measurement). Histogram bins are half-open `[start, end)` except the last, `[0.8, 1.0]`,
 * so a boundary value belongs to the upper bin (0.8 → `0.8-1.0`, 0.6 → `0.6-0.8`), consistent with
 * the verdict thresholds (pass >= 0.8, borderline >= 0.6).
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";
import type { ResultRow } from "../schema/result.ts";

/** One error row, as listed in the summary. */
export interface SummaryError {
  /** Case id. */
  eval_id: string;
  /** Dataset name. */
  dataset: string;
  /** Target name. */
  target: string;
  /** Why the case failed to run or be scored. */
  error: string;
  /** Target call attempts made. */
  attempts: number;
}

/** One histogram bin. */
export interface HistogramBin {
  /** Label such as `0.0-0.2`. */
  range: string;
  /** Inclusive lower bound. */
  start: number;
  /** Upper bound (exclusive except for the last bin). */
  end: number;
  /** Scored rows in the bin. */
  count: number;
}

/** Mean score of one evaluator (by name and type) across the rows it ran on. */
export interface EvaluatorMean {
  /** Evaluator name. */
  name: string;
  /** Evaluator type. */
  type: string;
  /** Mean score over the results with status `ok`; `null` when none scored. */
  mean: number | null;
  /** Results with status `ok`. */
  count: number;
  /** Results with status `error`. */
  errors: number;
}

/** Score statistics; every field is `null` when nothing was scored. */
export interface ScoreStats {
  /** Arithmetic mean. */
  mean: number | null;
  /** Median (mean of the two middle values for an even count). */
  median: number | null;
  /** Lowest score. */
  min: number | null;
  /** Highest score. */
  max: number | null;
  /** Sample standard deviation (n - 1); `null` below two scores. */
  stdev: number | null;
}

/** The end-of-run summary (also the `--json` output of `agentv run`). */
export interface RunSummary {
  /** Rows written (cases that ran, including errors and interrupted ones). */
  total: number;
  /** Rows with status `ok` (scored). */
  scored: number;
  /** Rows with status `error`, each with its reason. */
  errors: SummaryError[];
  /** Cases the loader rejected (skipped, never run): their diagnostics. */
  invalid: Diagnostic[];
  /** Cases selected but never started because the run was interrupted. */
  not_started: number;
  /** Whether the run was interrupted (Ctrl-C). */
  interrupted: boolean;
  /** Whether targets were replaced by mocks (`--dry-run`). */
  dry_run: boolean;
  /** Score statistics over scored rows. */
  scores: ScoreStats;
  /** Verdict counts over scored rows. */
  verdicts: { pass: number; borderline: number; fail: number };
  /** Five bins from 0.0 to 1.0 over scored rows. */
  histogram: HistogramBin[];
  /** Up to five slowest rows by `duration_ms`, slowest first. */
  slowest: { eval_id: string; dataset: string; duration_ms: number }[];
  /** Mean score per evaluator (name + type), in first-seen order. */
  evaluators: EvaluatorMean[];
  /** Sum of token usage over rows that reported it. */
  token_usage?: { input: number; output: number };
  /** Path of the results file, when one was written. */
  results_path?: string;
  /** Wall time of the run in ms. */
  duration_ms: number;
}

/** Options of {@link summarizeResults}. */
export interface SummarizeOptions {
  /** Invalid (skipped) cases' diagnostics (default none). */
  invalid?: Diagnostic[];
  /** Cases never started (default 0). */
  notStarted?: number;
  /** Whether the run was interrupted (default false). */
  interrupted?: boolean;
  /** Whether this was a dry run (default: any row has `dry_run: true`). */
  dryRun?: boolean;
  /** Results file path. */
  resultsPath?: string;
  /** Wall time of the run in ms (default 0). */
  durationMs?: number;
  /** How many slowest cases to list (default 5, at most 20). */
  slowest?: number;
}

const BINS: [number, number][] = [[0, 0.2], [0.2, 0.4], [0.4, 0.6], [0.6, 0.8], [0.8, 1]];

/** Index of the histogram bin holding `score` (see the module doc for boundaries). */
export function histogramBin(score: number): number {
  if (score >= 0.8) return 4;
  if (score >= 0.6) return 3;
  if (score >= 0.4) return 2;
  if (score >= 0.2) return 1;
  return 0;
}

/** Mean, median, min, max and sample standard deviation of `values`. */
export function scoreStats(values: readonly number[]): ScoreStats {
  const n = values.length;
  if (n === 0) return { mean: null, median: null, min: null, max: null, stdev: null };
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const median = n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  const stdev = n < 2 ? null : Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  return { mean, median, min: sorted[0], max: sorted[n - 1], stdev };
}

/** Builds a {@link RunSummary} row by row, keeping only what the summary needs in memory. */
export interface SummaryAccumulator {
  /** Adds one row. */
  add(row: ResultRow): void;
  /** The summary of the rows added so far. */
  finish(options?: SummarizeOptions): RunSummary;
}

/**
 * Creates a summary accumulator: a long run need not keep its rows to summarise them (memory is
 * one number per scored row plus the error rows' reasons).
 *
 * @example
 * ```ts
 * import { createSummaryAccumulator } from "./summary.ts";
 * const acc = createSummaryAccumulator();
 * // acc.add(row) as each case finishes, then:
 * const summary = acc.finish({ resultsPath: "out.jsonl" });
 * ```
 */
export function createSummaryAccumulator(): SummaryAccumulator {
  const scores: number[] = [];
  const verdicts = { pass: 0, borderline: 0, fail: 0 };
  const histogram: HistogramBin[] = BINS.map(([start, end]) => ({
    range: `${start.toFixed(1)}-${end.toFixed(1)}`,
    start,
    end,
    count: 0,
  }));
  const errors: SummaryError[] = [];
  const slowest: { eval_id: string; dataset: string; duration_ms: number; order: number }[] = [];
  const byEvaluator = new Map<
    string,
    { name: string; type: string; sum: number; count: number; errors: number }
  >();
  let tokens: { input: number; output: number } | undefined;
  let total = 0;
  let anyDryRun = false;
  return {
    add(r: ResultRow) {
      const order = total++;
      if (r.dry_run === true) anyDryRun = true;
      if (r.status === "ok") {
        scores.push(r.score);
        verdicts[r.verdict]++;
        histogram[histogramBin(r.score)].count++;
      } else if (r.status === "error") {
        errors.push({
          eval_id: r.eval_id,
          dataset: r.dataset,
          target: r.target,
          error: r.error ?? "unknown error",
          attempts: r.attempts,
        });
      }
      slowest.push({ eval_id: r.eval_id, dataset: r.dataset, duration_ms: r.duration_ms, order });
      slowest.sort((a, b) => b.duration_ms - a.duration_ms || a.order - b.order);
      if (slowest.length > MAX_SLOWEST) slowest.length = MAX_SLOWEST;
      for (const e of r.evaluator_results) {
        const key = `${e.name}\u0000${e.type}`;
        let acc = byEvaluator.get(key);
        if (!acc) {
          acc = { name: e.name, type: e.type, sum: 0, count: 0, errors: 0 };
          byEvaluator.set(key, acc);
        }
        if (e.status === "ok") {
          acc.sum += e.score;
          acc.count++;
        } else if (e.status === "error") acc.errors++;
      }
      if (r.token_usage) {
        tokens ??= { input: 0, output: 0 };
        tokens.input += r.token_usage.input;
        tokens.output += r.token_usage.output;
      }
    },
    finish(options: SummarizeOptions = {}): RunSummary {
      const summary: RunSummary = {
        total,
        scored: scores.length,
        errors: [...errors],
        invalid: options.invalid ?? [],
        not_started: options.notStarted ?? 0,
        interrupted: options.interrupted ?? false,
        dry_run: options.dryRun ?? anyDryRun,
        scores: scoreStats(scores),
        verdicts: { ...verdicts },
        histogram: histogram.map((b) => ({ ...b })),
        slowest: slowest.slice(0, options.slowest ?? 5).map(({ order: _, ...s }) => s),
        evaluators: [...byEvaluator.values()].map((a) => ({
          name: a.name,
          type: a.type,
          mean: a.count > 0 ? a.sum / a.count : null,
          count: a.count,
          errors: a.errors,
        })),
        duration_ms: options.durationMs ?? 0,
      };
      if (tokens) summary.token_usage = { ...tokens };
      if (options.resultsPath !== undefined) summary.results_path = options.resultsPath;
      return summary;
    },
  };
}

/** Most slowest cases an accumulator keeps. */
const MAX_SLOWEST = 20;

/**
 * Computes the run summary from result rows.
 *
 * @example
 * ```ts
 * import { summarizeResults } from "./summary.ts";
 * const summary = summarizeResults([], { resultsPath: "out.jsonl" });
 * console.log(summary.total); // 0
 * ```
 */
export function summarizeResults(
  rows: readonly ResultRow[],
  options: SummarizeOptions = {},
): RunSummary {
  const acc = createSummaryAccumulator();
  for (const row of rows) acc.add(row);
  return acc.finish(options);
}

/**
 * Whether a run passes the CI gate: no error row, no invalid (skipped) case, not interrupted, and
 * either no `fail` verdict or, with a threshold, a mean score >= the threshold.
 */
export function runPassed(summary: RunSummary, options: { threshold?: number } = {}): boolean {
  if (summary.interrupted || summary.errors.length > 0 || summary.invalid.length > 0) return false;
  if (summary.total === 0) return false;
  if (options.threshold !== undefined) {
    return summary.scores.mean !== null && summary.scores.mean >= options.threshold;
  }
  return summary.verdicts.fail === 0;
}
