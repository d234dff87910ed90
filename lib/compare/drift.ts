/**
 * The drift gate of `agentv trend`: is the latest run of a series (one dataset on one target)
 * significantly worse than the runs before it?
 *
 * The test is paired by case. A case's score in a run is the mean over its trials (an error
 * counts as 0, as in `compare`). Each case of the latest run that also ran in the window (the
 * `--last N` runs before it) gets Δ = its latest score − the mean of its scores over the window
 * runs it ran in. The latest run is **degrading** when, over at least `minCases` paired cases,
 * the mean Δ is below 0, the one-sided Wilcoxon signed-rank test (H1: the Δ lean negative) gives
 * p < `alpha`, and the one-sided 95% upper bound of the mean Δ (the high end of a seeded paired
 * bootstrap 90% interval) is below 0. Assumptions: cases are independent of each other; a case id
 * names the same case in every run (changed cases should get new ids); under no change a case's Δ
 * is symmetric around 0 (judge noise included); the window runs are comparable with each other.
 * Cases new in the latest run, or missing from it, are not tested (they are counted).
 *
 * @module
 */
import { formatP, signed } from "./summary.ts";
import {
  bootstrapMeanInterval,
  type ConfidenceInterval,
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  mean,
  type WilcoxonResult,
  wilcoxonSignedRank,
} from "./statistics.ts";

/** The default `--last`: how many runs before the latest make the window. */
export const DEFAULT_WINDOW = 5;

/** The fewest paired cases the gate decides on (5 Δ, all negative, give exact p = 1/32). */
export const DEFAULT_MIN_CASES = 5;

/** The default significance level of the drift gate. */
export const DEFAULT_DRIFT_ALPHA = 0.05;

/** One case's outcome in one run: its key (dataset + case id) and score. */
export interface ScoredCase {
  /** Dataset name. */
  dataset: string;
  /** Case id. */
  eval_id: string;
  /** The row's score (0 for an error row). */
  score: number;
}

/**
 * Per-case scores of one run: the mean over each case's trials, keyed by dataset + case id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { caseScores } from "./drift.ts";
 * const scores = caseScores([
 *   { dataset: "d", eval_id: "a", score: 1 },
 *   { dataset: "d", eval_id: "a", score: 0 },
 * ]);
 * assert.deepEqual([...scores.values()], [0.5]);
 * ```
 */
export function caseScores(rows: Iterable<ScoredCase>): Map<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const row of rows) {
    const key = JSON.stringify([row.dataset, row.eval_id]);
    const entry = sums.get(key) ?? { sum: 0, n: 0 };
    entry.sum += row.score;
    entry.n++;
    sums.set(key, entry);
  }
  return new Map([...sums].map(([key, { sum, n }]) => [key, sum / n]));
}

/** What {@link detectDrift} decides. */
export type DriftVerdict = "degrading" | "no significant decline" | "too few cases" | "no window";

/** Options of {@link detectDrift}. */
export interface DriftOptions {
  /** Significance level of the one-sided test (default {@link DEFAULT_DRIFT_ALPHA}, 0.05). */
  alpha?: number;
  /** Fewest paired cases to decide on (default {@link DEFAULT_MIN_CASES}). */
  minCases?: number;
  /** Bootstrap seed (default the seed of `compare`). */
  seed?: number;
  /** Bootstrap resamples (default 10,000). */
  resamples?: number;
}

/** The drift gate's finding on one series. */
export interface DriftResult {
  /** Runs in the window (before the latest). */
  window_runs: number;
  /** Cases of the latest run that also ran in the window (the Δ tested). */
  paired: number;
  /** Cases of the latest run that never ran in the window (not tested). */
  new_cases: number;
  /** Mean latest score over the paired cases (null when none). */
  latest_mean: number | null;
  /** Mean window score over the paired cases (null when none). */
  window_mean: number | null;
  /** Mean Δ (latest − window) over the paired cases (null when none). */
  mean_delta: number | null;
  /** Paired bootstrap 90% interval of the mean Δ: its `high` is the one-sided 95% upper bound. */
  interval: ConfidenceInterval | null;
  /** One-sided (`less`) Wilcoxon signed-rank test of the Δ. */
  wilcoxon: WilcoxonResult;
  /** Significance level used. */
  alpha: number;
  /** Fewest paired cases decided on. */
  min_cases: number;
  /** The verdict. */
  verdict: DriftVerdict;
  /** Whether the gate fails (`verdict` is `degrading`). */
  degrading: boolean;
  /** One line that states the verdict with its numbers. */
  line: string;
}

/**
 * Tests whether `latest` (per-case scores of the newest run) is significantly worse than `window`
 * (per-case scores of the runs before it); see the module doc for the test and its assumptions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectDrift } from "./drift.ts";
 * const run = (scores: number[]) => new Map(scores.map((s, i) => [`c${i}`, s]));
 * const before = [run([0.9, 0.9, 0.8, 1, 0.9, 0.8]), run([0.9, 0.8, 0.8, 1, 0.9, 0.9])];
 * assert.equal(detectDrift(run([0.9, 0.85, 0.8, 1, 0.9, 0.85]), before).verdict, "no significant decline");
 * assert.equal(detectDrift(run([0.4, 0.5, 0.3, 0.6, 0.2, 0.5]), before).degrading, true);
 * ```
 */
export function detectDrift(
  latest: ReadonlyMap<string, number>,
  window: readonly ReadonlyMap<string, number>[],
  options: DriftOptions = {},
): DriftResult {
  const alpha = options.alpha ?? DEFAULT_DRIFT_ALPHA;
  const minCases = options.minCases ?? DEFAULT_MIN_CASES;
  const latestScores: number[] = [];
  const windowScores: number[] = [];
  let newCases = 0;
  for (const [key, score] of latest) {
    const earlier = window.map((run) => run.get(key)).filter((s) => s !== undefined);
    if (earlier.length === 0) {
      newCases++;
      continue;
    }
    latestScores.push(score);
    windowScores.push(mean(earlier));
  }
  const deltas = latestScores.map((s, i) => s - windowScores[i]);
  const paired = deltas.length;
  const interval = bootstrapMeanInterval(deltas, {
    confidence: 0.9,
    seed: options.seed ?? DEFAULT_SEED,
    resamples: options.resamples ?? DEFAULT_RESAMPLES,
  });
  const wilcoxon = wilcoxonSignedRank(deltas, { alternative: "less" });
  const mean_delta = paired === 0 ? null : mean(deltas);
  const verdict: DriftVerdict = window.length === 0
    ? "no window"
    : paired < minCases
    ? "too few cases"
    : mean_delta !== null && mean_delta < 0 && wilcoxon.p_value < alpha &&
        interval !== null && interval.high < 0
    ? "degrading"
    : "no significant decline";
  const result: DriftResult = {
    window_runs: window.length,
    paired,
    new_cases: newCases,
    latest_mean: paired === 0 ? null : mean(latestScores),
    window_mean: paired === 0 ? null : mean(windowScores),
    mean_delta,
    interval,
    wilcoxon,
    alpha,
    min_cases: minCases,
    verdict,
    degrading: verdict === "degrading",
    line: "",
  };
  result.line = driftLine(result);
  return result;
}

function driftLine(r: DriftResult): string {
  if (r.verdict === "no window") return "no window: the latest run is the first of its series";
  const runs = r.window_runs === 1 ? "the run before it" : `the ${r.window_runs} runs before it`;
  if (r.verdict === "too few cases") {
    return `too few cases: ${r.paired} case(s) of the latest run also ran in ${runs}; ` +
      `the gate decides on at least ${r.min_cases}`;
  }
  const head = `latest vs ${runs}: mean Δ ${signed(r.mean_delta ?? 0)} over ${r.paired} cases` +
    (r.interval ? `, one-sided 95% upper bound ${signed(r.interval.high)}` : "") +
    `, Wilcoxon one-sided p = ${formatP(r.wilcoxon.p_value)}`;
  return `${r.verdict}: ${head}`;
}
