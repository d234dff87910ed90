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
import type { EvaluatorResult, ResultRow } from "../schema/result.ts";
import type {
  CacheSummary,
  HistogramBin,
  IntegrityFlag,
  IntegritySummary,
  RunSummary,
  ScoreStats,
  SummaryError,
  SummaryFailure,
  TargetSummary,
} from "../schema/run_record.ts";
import { createTrialsAccumulator, type TrialsGate, trialsPassed } from "./trials.ts";

// The summary's types live with its zod schema (it is part of `<results>.run.json`).
export type {
  EvaluatorMean,
  HistogramBin,
  IntegrityFlag,
  IntegritySummary,
  RunSummary,
  ScoreStats,
  SummaryError,
  SummaryFailure,
} from "../schema/run_record.ts";

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
  /** The trials gate of the `trials` section (`--trials-gate`; default `mean`). */
  trialsGate?: TrialsGate;
  /** Response cache counters of the run (its `cache` section), when the cache was on. */
  cache?: CacheSummary;
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
 * import assert from "node:assert/strict";
 * import { createSummaryAccumulator } from "./summary.ts";
 * const acc = createSummaryAccumulator();
 * // acc.add(row) as each case finishes, then:
 * const summary = acc.finish({ resultsPath: "out.jsonl" });
 * assert.deepEqual([summary.total, summary.results_path], [0, "out.jsonl"]);
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
  const failed: SummaryFailure[] = [];
  const slowest: { eval_id: string; dataset: string; duration_ms: number; order: number }[] = [];
  const byEvaluator = new Map<
    string,
    { name: string; type: string; sum: number; count: number; errors: number }
  >();
  let tokens: { input: number; output: number } | undefined;
  let cost: number | undefined;
  let judgeTokens: { input: number; output: number } | undefined;
  let judgeCost: number | undefined;
  // Judge usage sits on every evaluator result that called a judge, composite members included.
  const addJudgeUsage = (results: readonly EvaluatorResult[]): void => {
    for (const e of results) {
      if (e.token_usage) {
        judgeTokens ??= { input: 0, output: 0 };
        judgeTokens.input += e.token_usage.input;
        judgeTokens.output += e.token_usage.output;
      }
      if (typeof e.cost_usd === "number") judgeCost = (judgeCost ?? 0) + e.cost_usd;
      if (e.evaluator_results) addJudgeUsage(e.evaluator_results);
    }
  };
  let total = 0;
  let skipped = 0;
  let anyDryRun = false;
  const integrity = { checked: 0, skipped: 0, flagged: [] as IntegrityFlag[] };
  // Per-case trial statistics (one record per case): the `trials` section when a case repeats.
  const trials = createTrialsAccumulator();
  // Per target: the `targets` section when the rows name more than one.
  const byTarget = new Map<string, TargetSummary & { sum: number }>();
  return {
    add(r: ResultRow) {
      const order = total++;
      if (r.dry_run === true) anyDryRun = true;
      if (r.status === "ok") {
        scores.push(r.score);
        verdicts[r.verdict]++;
        histogram[histogramBin(r.score)].count++;
        if (r.verdict === "fail") failed.push(failureOf(r));
      } else if (r.status === "error") {
        errors.push({
          eval_id: r.eval_id,
          dataset: r.dataset,
          target: r.target,
          error: r.error ?? "unknown error",
          attempts: r.attempts,
        });
      } else if (r.status === "skipped") skipped++;
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
      const rowCost = r.trace_summary?.cost_usd;
      if (typeof rowCost === "number") cost = (cost ?? 0) + rowCost;
      addJudgeUsage(r.evaluator_results);
      trials.add(r);
      addToTarget(byTarget, r);
      if (r.integrity !== undefined) addIntegrity(integrity, r);
    },
    finish(options: SummarizeOptions = {}): RunSummary {
      const summary: RunSummary = {
        total,
        scored: scores.length,
        errors: [...errors],
        skipped,
        failed: [...failed],
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
      if (cost !== undefined) summary.cost_usd = cost;
      if (judgeTokens) summary.judge_token_usage = { ...judgeTokens };
      if (judgeCost !== undefined) summary.judge_cost_usd = judgeCost;
      if (options.resultsPath !== undefined) summary.results_path = options.resultsPath;
      if (trials.repeated) summary.trials = trials.finish(options.trialsGate);
      if (byTarget.size > 1) {
        summary.targets = [...byTarget.values()].map(({ sum, ...t }) => ({
          ...t,
          verdicts: { ...t.verdicts },
          mean: t.scored > 0 ? sum / t.scored : null,
        }));
      }
      if (options.cache !== undefined) summary.cache = { ...options.cache };
      if (integrity.checked + integrity.skipped > 0) {
        summary.integrity = { ...integrity, flagged: [...integrity.flagged] };
      }
      return summary;
    },
  };
}

/** Counts a row into its target's entry of the `targets` section. */
function addToTarget(
  byTarget: Map<string, TargetSummary & { sum: number }>,
  r: ResultRow,
): void {
  let t = byTarget.get(r.target);
  if (!t) {
    t = {
      target: r.target,
      total: 0,
      scored: 0,
      errors: 0,
      mean: null,
      verdicts: { pass: 0, borderline: 0, fail: 0 },
      sum: 0,
    };
    byTarget.set(r.target, t);
  }
  t.total++;
  if (r.status === "ok") {
    t.scored++;
    t.sum += r.score;
    t.verdicts[r.verdict]++;
  } else if (r.status === "error") t.errors++;
  const cost = r.trace_summary?.cost_usd;
  if (typeof cost === "number") t.cost_usd = (t.cost_usd ?? 0) + cost;
}

/** Counts a row the integrity guard saw, and lists it when flagged. */
function addIntegrity(acc: IntegritySummary, r: ResultRow): void {
  const integrity = r.integrity!;
  if (integrity.status === "skipped") {
    acc.skipped++;
    return;
  }
  acc.checked++;
  if (integrity.status !== "flagged") return;
  const first = integrity.findings[0];
  const where = first?.path ?? (first?.step !== undefined ? `step ${first.step}` : undefined);
  acc.flagged.push({
    eval_id: r.eval_id,
    dataset: r.dataset,
    target: r.target,
    kinds: integrity.findings.map((f) => f.kind),
    ...(where !== undefined ? { where } : {}),
  });
}

/** The summary entry of a failed row: its first miss, else its evaluators' first miss or error. */
function failureOf(r: ResultRow): SummaryFailure {
  const failure: SummaryFailure = {
    eval_id: r.eval_id,
    dataset: r.dataset,
    target: r.target,
    score: r.score,
  };
  const miss = firstMiss(r);
  if (miss !== undefined) failure.first_miss = miss;
  return failure;
}

/**
 * What went wrong first in a row: its first miss, else its evaluators' first miss or error
 * (depth first, through composites); `undefined` when there is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { firstMiss } from "./summary.ts";
 * const check = { name: "c", type: "contains", status: "ok" as const, score: 0, weight: 1 };
 * const failed = { ...check, verdict: "fail" as const, hits: [], misses: ["no 'Paris'"] };
 * assert.equal(firstMiss({ misses: [], evaluator_results: [failed] }), "no 'Paris'");
 * ```
 */
export function firstMiss(
  row: Pick<ResultRow, "misses" | "evaluator_results">,
): string | undefined {
  return row.misses[0] ?? firstEvaluatorMiss(row.evaluator_results);
}

function firstEvaluatorMiss(
  results: ResultRow["evaluator_results"] | undefined,
): string | undefined {
  for (const e of results ?? []) {
    const miss = e.misses[0] ?? firstEvaluatorMiss(e.evaluator_results) ??
      (e.status === "error" ? e.error : undefined);
    if (miss !== undefined) return miss;
  }
  return undefined;
}

/** Most slowest cases an accumulator keeps. */
const MAX_SLOWEST = 20;

/**
 * Computes the run summary from result rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summarizeResults } from "./summary.ts";
 * const summary = summarizeResults([], { resultsPath: "out.jsonl" });
 * assert.equal(summary.total, 0);
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
 * either no `fail` verdict or, with a threshold, a mean score >= the threshold. When cases ran
 * several trials (a `trials` section), cases are judged instead: an error row is a failed trial
 * of its case, every case's gate verdict must not be `fail`, and a threshold applies to the mean
 * of the cases' mean scores (see `lib/results/trials.ts`). A run stopped by its budget (`budget`
 * section, `exhausted`) fails. A dry run (`dry_run`) checks the wiring, not the answers: it passes
 * when no case errored (a target, judge or evaluator that could not be wired), whatever the
 * mock answers scored, and ignores the threshold.
 */
export function runPassed(summary: RunSummary, options: { threshold?: number } = {}): boolean {
  if (summary.interrupted || summary.invalid.length > 0 || summary.total === 0) return false;
  // A dry run checks the wiring, not the answers: the mock answers' verdicts are not failures.
  if (summary.dry_run) return summary.errors.length === 0;
  // A run its spend cap stopped (`--budget-usd`) did not run every case.
  if (summary.budget?.exhausted) return false;
  if (summary.trials) return trialsPassed(summary.trials, options.threshold);
  if (summary.errors.length > 0) return false;
  if (options.threshold !== undefined) {
    return summary.scores.mean !== null && summary.scores.mean >= options.threshold;
  }
  return summary.verdicts.fail === 0;
}
