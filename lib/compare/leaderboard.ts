/**
 * One arm's line of the leaderboard of `agentv compare`: its mean score with a 95% seeded
 * bootstrap interval, its pass rate with a 95% Wilson interval, pass@k and pass^k when its cases
 * ran several trials, its cost and tokens, and its latency.
 *
 * Definitions (the same cases and scores as the paired comparison of `pair.ts`):
 * - a case is a (dataset, case id); its score is the mean of its rows' scores (trials; an error
 *   scores 0), its verdict the most common of its rows' (a tie goes to the worse);
 * - mean score: the mean of the case scores; its interval resamples the cases (percentile
 *   bootstrap, {@link DEFAULT_RESAMPLES} draws, seeded);
 * - pass rate: the share of cases whose verdict is `pass`, with the Wilson score interval;
 * - pass@k, pass^k: with k the fewest trials any case of the arm ran (only when k ≥ 2), the mean
 *   over the cases of the unbiased estimators of `lib/results/trials.ts` (a trial passed when its
 *   status is `ok` and its verdict `pass`);
 * - cost and tokens: what the rows report (`trace_summary.cost_usd`, `token_usage`), in total and
 *   per case; `null` when no row reports any;
 * - latency: p50 and p95 (linear interpolation) of `duration_ms` over the rows that ran (not
 *   `skipped`).
 *
 * @module
 */
import type { ResultRow, Verdict } from "../schema/result.ts";
import { passAtK, passHatK, trialPassed } from "../results/trials.ts";
import type { Arm } from "./arms.ts";
import { type Interval, wilsonInterval } from "./intervals.ts";
import { caseKey, caseVerdict } from "./pair.ts";
import {
  bootstrapMeanInterval,
  type ConfidenceInterval,
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  mean,
  quantileSorted,
} from "./statistics.ts";

/** One case of an arm: its key, score and verdict over its trials. */
export interface ArmCase {
  /** Dataset + case id (see `caseKey`). */
  key: string;
  /** Dataset name. */
  dataset: string;
  /** Case id. */
  eval_id: string;
  /** Mean score over its rows. */
  score: number;
  /** Its verdict over its rows. */
  verdict: Verdict;
  /** Rows (trials). */
  trials: number;
  /** Trials that passed (status `ok`, verdict `pass`). */
  passed: number;
  /** Rows with status `error`. */
  errors: number;
}

/** One arm's statistics (see the module doc). */
export interface ArmStats {
  /** The arm's label. */
  label: string;
  /** Its target. */
  target: string;
  /** Its results file. */
  source: string;
  /** Its cases. */
  cases: number;
  /** Its rows. */
  rows: number;
  /** Its rows with status `error`. */
  errors: number;
  /** Mean case score; `null` without cases. */
  mean: number | null;
  /** 95% bootstrap interval of the mean. */
  mean_ci: ConfidenceInterval | null;
  /** Cases whose verdict is `pass`. */
  passed: number;
  /** `passed / cases`; `null` without cases. */
  pass_rate: number | null;
  /** 95% Wilson interval of the pass rate. */
  pass_rate_ci: Interval | null;
  /** The k of pass@k and pass^k (the fewest trials of a case), when it is at least 2. */
  k: number | null;
  /** Mean pass@k over the cases. */
  pass_at_k: number | null;
  /** Mean pass^k over the cases. */
  pass_hat_k: number | null;
  /** Total cost in USD the rows report; `null` when none does. */
  cost_usd: number | null;
  /** `cost_usd` per case. */
  cost_per_case: number | null;
  /** Total tokens the rows report; `null` when none does. */
  tokens: { input: number; output: number } | null;
  /** Input plus output tokens per case. */
  tokens_per_case: number | null;
  /** Median `duration_ms` of the rows that ran. */
  latency_p50_ms: number | null;
  /** 95th percentile of `duration_ms` of the rows that ran. */
  latency_p95_ms: number | null;
}

/** Options of {@link armStats}. */
export interface ArmStatsOptions {
  /** Bootstrap seed (default {@link DEFAULT_SEED}). */
  seed?: number;
  /** Bootstrap resamples (default {@link DEFAULT_RESAMPLES}). */
  resamples?: number;
}

/**
 * The cases of an arm's rows, in the order first seen.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { armCases } from "./leaderboard.ts";
 * const row = (score: number, verdict: "pass" | "fail") =>
 *   ({ dataset: "d", eval_id: "a", status: "ok", score, verdict }) as never;
 * const [c] = armCases([row(1, "pass"), row(0.5, "fail")]);
 * assert.deepEqual([c.score, c.verdict, c.trials, c.passed], [0.75, "fail", 2, 1]);
 * ```
 */
export function armCases(rows: readonly ResultRow[]): ArmCase[] {
  const groups = new Map<string, { dataset: string; eval_id: string; rows: ResultRow[] }>();
  for (const row of rows) {
    const dataset = String(row.dataset ?? "");
    const eval_id = String(row.eval_id);
    const key = caseKey(dataset, eval_id);
    const group = groups.get(key);
    if (group) group.rows.push(row);
    else groups.set(key, { dataset, eval_id, rows: [row] });
  }
  return [...groups].map(([key, g]) => ({
    key,
    dataset: g.dataset,
    eval_id: g.eval_id,
    score: mean(g.rows.map(rowScore)),
    verdict: caseVerdict(g.rows.map(rowVerdict)),
    trials: g.rows.length,
    passed: g.rows.filter(trialPassed).length,
    errors: g.rows.filter((r) => r.status === "error").length,
  }));
}

/** A row's score as `pairRuns` reads it (0 when it has none). */
function rowScore(row: ResultRow): number {
  return typeof row.score === "number" && Number.isFinite(row.score) ? row.score : 0;
}

function rowVerdict(row: ResultRow): Verdict {
  return row.verdict === "pass" || row.verdict === "borderline" ? row.verdict : "fail";
}

/**
 * The statistics of one arm (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { armStats } from "./leaderboard.ts";
 * const row = (eval_id: string, score: number) =>
 *   ({ dataset: "d", eval_id, target: "t", status: "ok", score,
 *      verdict: score >= 0.8 ? "pass" : "fail", duration_ms: 100 }) as never;
 * const stats = armStats({ label: "t", target: "t", source: "r.jsonl",
 *   rows: [row("a", 1), row("b", 0.5)] });
 * assert.deepEqual([stats.mean, stats.passed, stats.pass_rate], [0.75, 1, 0.5]);
 * ```
 */
export function armStats(arm: Arm, options: ArmStatsOptions = {}): ArmStats {
  const cases = armCases(arm.rows);
  const n = cases.length;
  const passed = cases.filter((c) => c.verdict === "pass").length;
  const k = n === 0 ? 0 : Math.min(...cases.map((c) => c.trials));
  const usage = usageOf(arm.rows);
  const latencies = Float64Array.from(
    arm.rows.filter((r) => r.status !== "skipped").map((r) => r.duration_ms),
  ).sort();
  return {
    label: arm.label,
    target: arm.target,
    source: arm.source,
    cases: n,
    rows: arm.rows.length,
    errors: arm.rows.filter((r) => r.status === "error").length,
    mean: n === 0 ? null : mean(cases.map((c) => c.score)),
    mean_ci: bootstrapMeanInterval(cases.map((c) => c.score), {
      seed: options.seed ?? DEFAULT_SEED,
      resamples: options.resamples ?? DEFAULT_RESAMPLES,
    }),
    passed,
    pass_rate: n === 0 ? null : passed / n,
    pass_rate_ci: wilsonInterval(passed, n),
    k: k >= 2 ? k : null,
    pass_at_k: k >= 2 ? mean(cases.map((c) => passAtK(c.trials, c.passed, k))) : null,
    pass_hat_k: k >= 2 ? mean(cases.map((c) => passHatK(c.trials, c.passed, k))) : null,
    cost_usd: usage.cost,
    cost_per_case: usage.cost === null || n === 0 ? null : usage.cost / n,
    tokens: usage.tokens,
    tokens_per_case: usage.tokens === null || n === 0
      ? null
      : (usage.tokens.input + usage.tokens.output) / n,
    latency_p50_ms: latencies.length === 0 ? null : quantileSorted(latencies, 0.5),
    latency_p95_ms: latencies.length === 0 ? null : quantileSorted(latencies, 0.95),
  };
}

/** The cost and tokens the rows report (`null` when none reports any). */
function usageOf(rows: readonly ResultRow[]): {
  cost: number | null;
  tokens: { input: number; output: number } | null;
} {
  let cost: number | null = null;
  let tokens: { input: number; output: number } | null = null;
  for (const row of rows) {
    const c = row.trace_summary?.cost_usd;
    if (typeof c === "number" && Number.isFinite(c)) cost = (cost ?? 0) + c;
    if (row.token_usage) {
      tokens ??= { input: 0, output: 0 };
      tokens.input += row.token_usage.input;
      tokens.output += row.token_usage.output;
    }
  }
  return { cost, tokens };
}
