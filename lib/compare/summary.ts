/**
 * The summary of a comparison of two runs: wins / losses / ties, verdict flips, one-side-only
 * cases, mean and median Δ, per-evaluator Δ, and the significance of the mean Δ (a seeded paired
 * bootstrap interval, confirmed by the Wilcoxon signed-rank test; the sign test is reported too).
 *
 * @module
 */
import type { CasePair, RunPairing, VerdictFlip } from "./pair.ts";
import {
  bootstrapMeanInterval,
  type ConfidenceInterval,
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  mean,
  median,
  signTest,
  type SignTestResult,
  type WilcoxonResult,
  wilcoxonSignedRank,
} from "./statistics.ts";

/** How the two runs are named in outputs (usually the files' paths as the user typed them). */
export interface CompareLabels {
  /** The baseline run. */
  baseline: string;
  /** The candidate run. */
  candidate: string;
}

/** A case whose verdict changed. */
export interface FlipEntry {
  /** Case key (see `CasePair.key`). */
  key: string;
  /** Dataset name. */
  dataset: string;
  /** Case id. */
  eval_id: string;
  /** The change, e.g. `pass→fail`. */
  flip: VerdictFlip;
  /** Mean baseline score. */
  baseline_score: number;
  /** Mean candidate score. */
  candidate_score: number;
  /** Candidate minus baseline. */
  delta: number;
}

/** One evaluator's Δ over the paired cases where it scored on both sides. */
export interface EvaluatorSummary {
  /** Evaluator name. */
  name: string;
  /** Paired cases where it scored on both sides. */
  pairs: number;
  /** Mean baseline score over those cases (null when none). */
  baseline_mean: number | null;
  /** Mean candidate score over those cases (null when none). */
  candidate_mean: number | null;
  /** Mean Δ over those cases (null when none). */
  mean_delta: number | null;
}

/**
 * The overall verdict: `improved` / `regressed` when the mean Δ is significant (its paired
 * bootstrap confidence interval excludes 0 and the Wilcoxon signed-rank test confirms it at
 * `alpha`: a percentile interval over a handful of cases alone is too optimistic), else
 * `no significant change`; `no paired cases` when nothing could be compared.
 */
export type CompareVerdict = "improved" | "regressed" | "no significant change" | "no paired cases";

/** Everything a comparison output shows (the "stats" every renderer receives). */
export interface ComparisonSummary {
  /** Paired cases. */
  pairs: number;
  /** Rows read from the baseline (all trials). */
  baseline_rows: number;
  /** Rows read from the candidate (all trials). */
  candidate_rows: number;
  /** Tie delta used for wins/losses/ties. */
  delta: number;
  /** Pairs with Δ > delta. */
  wins: number;
  /** Pairs with Δ < −delta. */
  losses: number;
  /** Pairs with |Δ| ≤ delta. */
  ties: number;
  /** Verdict changes: pass→fail first, then other downgrades, then upgrades (file order within). */
  flips: FlipEntry[];
  /** Number of pass→fail flips. */
  pass_to_fail: number;
  /** Baseline trials of the paired cases that could not run or be scored (`status: error`, score 0). */
  baseline_errors: number;
  /** Candidate trials of the paired cases that could not run or be scored (`status: error`, score 0). */
  candidate_errors: number;
  /** Cases only in the baseline. */
  only_baseline: number;
  /** Cases only in the candidate. */
  only_candidate: number;
  /** Mean baseline score over the paired cases (null when none). */
  baseline_mean: number | null;
  /** Mean candidate score over the paired cases (null when none). */
  candidate_mean: number | null;
  /** Mean Δ over the paired cases (null when none). */
  mean_delta: number | null;
  /** Median Δ over the paired cases (null when none). */
  median_delta: number | null;
  /** Per-evaluator Δ, in first-seen order. */
  evaluators: EvaluatorSummary[];
  /** Paired bootstrap interval of the mean Δ (null when no pairs). */
  interval: ConfidenceInterval | null;
  /** Exact sign test of the per-case Δ (zero Δ dropped). */
  sign_test: SignTestResult;
  /** Wilcoxon signed-rank test of the per-case Δ (zero Δ dropped). */
  wilcoxon: WilcoxonResult;
  /** Significance level the test must reach to confirm the interval (0.05). */
  alpha: number;
  /** Whether the mean Δ is significant (interval excludes 0 and the Wilcoxon p < alpha). */
  significant: boolean;
  /** The overall verdict. */
  verdict: CompareVerdict;
  /** One line that states the verdict with its numbers. */
  verdict_line: string;
}

/** Options of {@link summarizeComparison}. */
export interface SummarizeOptions {
  /** Bootstrap seed (default `DEFAULT_SEED`). */
  seed?: number;
  /** Bootstrap resamples (default 10,000). */
  resamples?: number;
}

/** Flip order: pass→fail first, then the other downgrades, then the upgrades. */
const FLIP_ORDER: readonly VerdictFlip[] = [
  "pass→fail",
  "borderline→fail",
  "pass→borderline",
  "fail→pass",
  "fail→borderline",
  "borderline→pass",
];

const ALPHA = 0.05;

/**
 * Summarizes a pairing (see `pairRuns`): counts, flips, Δ statistics and the verdict.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ResultRow } from "../schema/result.ts";
 * import { pairRuns } from "./pair.ts";
 * import { summarizeComparison } from "./summary.ts";
 *
 * const rows = (scores: number[]) =>
 *   scores.map((score, i) =>
 *     ({ eval_id: `c${i}`, dataset: "ds", score, verdict: score >= 0.8 ? "pass" : "fail",
 *        status: "ok", evaluator_results: [] }) as unknown as ResultRow
 *   );
 * const summary = summarizeComparison(
 *   pairRuns(rows([0.9, 0.5, 0.7]), rows([0.9, 0.5, 0.9])),
 * );
 * assert.deepEqual([summary.wins, summary.ties, summary.verdict], [1, 2, "no significant change"]);
 * ```
 */
export function summarizeComparison(
  pairing: RunPairing,
  options: SummarizeOptions = {},
): ComparisonSummary {
  const { pairs } = pairing;
  const deltas = pairs.map((p) => p.delta);
  const interval = bootstrapMeanInterval(deltas, {
    seed: options.seed ?? DEFAULT_SEED,
    resamples: options.resamples ?? DEFAULT_RESAMPLES,
  });
  const sign_test = signTest(deltas);
  const wilcoxon = wilcoxonSignedRank(deltas);
  const mean_delta = pairs.length === 0 ? null : mean(deltas);
  const flips = collectFlips(pairs);
  const confirmed = wilcoxon.p_value < ALPHA;
  const direction = interval === null ? 0 : interval.low > 0 ? 1 : interval.high < 0 ? -1 : 0;
  const significant = direction !== 0 && confirmed;
  const verdict: CompareVerdict = pairs.length === 0
    ? "no paired cases"
    : !significant
    ? "no significant change"
    : direction > 0
    ? "improved"
    : "regressed";
  const summary: ComparisonSummary = {
    pairs: pairs.length,
    baseline_rows: pairs.reduce((n, p) => n + p.baseline.length, 0) +
      pairing.only_baseline.reduce((n, c) => n + c.rows.length, 0),
    candidate_rows: pairs.reduce((n, p) => n + p.candidate.length, 0) +
      pairing.only_candidate.reduce((n, c) => n + c.rows.length, 0),
    delta: pairing.delta,
    wins: pairs.filter((p) => p.outcome === "win").length,
    losses: pairs.filter((p) => p.outcome === "loss").length,
    ties: pairs.filter((p) => p.outcome === "tie").length,
    flips,
    pass_to_fail: flips.filter((f) => f.flip === "pass→fail").length,
    baseline_errors: pairs.reduce((n, p) => n + p.baseline_errors, 0),
    candidate_errors: pairs.reduce((n, p) => n + p.candidate_errors, 0),
    only_baseline: pairing.only_baseline.length,
    only_candidate: pairing.only_candidate.length,
    baseline_mean: pairs.length === 0 ? null : mean(pairs.map((p) => p.baseline_score)),
    candidate_mean: pairs.length === 0 ? null : mean(pairs.map((p) => p.candidate_score)),
    mean_delta,
    median_delta: pairs.length === 0 ? null : median(deltas),
    evaluators: summarizeEvaluators(pairs),
    interval,
    sign_test,
    wilcoxon,
    alpha: ALPHA,
    significant,
    verdict,
    verdict_line: "",
  };
  summary.verdict_line = verdictLine(summary, direction);
  return summary;
}

function collectFlips(pairs: CasePair[]): FlipEntry[] {
  const flips: FlipEntry[] = [];
  for (const p of pairs) {
    if (p.flip === null) continue;
    flips.push({
      key: p.key,
      dataset: p.dataset,
      eval_id: p.eval_id,
      flip: p.flip,
      baseline_score: p.baseline_score,
      candidate_score: p.candidate_score,
      delta: p.delta,
    });
  }
  // Array.prototype.sort is stable: file order is kept within one kind of flip.
  return flips.sort((a, b) => FLIP_ORDER.indexOf(a.flip) - FLIP_ORDER.indexOf(b.flip));
}

function summarizeEvaluators(pairs: CasePair[]): EvaluatorSummary[] {
  const byName = new Map<string, { base: number[]; cand: number[] }>();
  for (const p of pairs) {
    for (const e of p.evaluators) {
      let entry = byName.get(e.name);
      if (entry === undefined) byName.set(e.name, entry = { base: [], cand: [] });
      if (e.baseline_score === null || e.candidate_score === null) continue;
      entry.base.push(e.baseline_score);
      entry.cand.push(e.candidate_score);
    }
  }
  return [...byName].map(([name, { base, cand }]) => {
    const n = base.length;
    const baseline_mean = n === 0 ? null : mean(base);
    const candidate_mean = n === 0 ? null : mean(cand);
    return {
      name,
      pairs: n,
      baseline_mean,
      candidate_mean,
      mean_delta: n === 0 ? null : mean(cand.map((c, i) => c - base[i])),
    };
  });
}

/**
 * Formats a signed number with a fixed number of decimals (`+0.054`, `-0.100`, `0.000`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { signed } from "./summary.ts";
 * assert.equal(signed(0.0537), "+0.054");
 * assert.equal(signed(-0.1, 2), "-0.10");
 * ```
 */
export function signed(value: number, decimals = 3): string {
  const text = value.toFixed(decimals);
  if (Number(text) === 0) return (0).toFixed(decimals);
  return value > 0 ? `+${text}` : text;
}

/**
 * Formats a p-value: 4 significant digits, `< 0.0001` below that.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatP } from "./summary.ts";
 * assert.equal(formatP(0.0703125), "0.07031");
 * assert.equal(formatP(1e-9), "< 0.0001");
 * ```
 */
export function formatP(p: number): string {
  if (p < 0.0001) return "< 0.0001";
  return String(Number(p.toPrecision(4)));
}

function verdictLine(s: ComparisonSummary, direction: number): string {
  if (s.pairs === 0 || s.mean_delta === null || s.interval === null) {
    return "no paired cases: the two files share no dataset + eval id";
  }
  const ci = `${Math.round(s.interval.confidence * 100)}% CI ${signed(s.interval.low)} to ` +
    signed(s.interval.high);
  const head = `mean Δ ${signed(s.mean_delta)}, ${ci}`;
  const p = `sign test p = ${formatP(s.sign_test.p_value)}, Wilcoxon p = ${
    formatP(s.wilcoxon.p_value)
  }`;
  const pairs = s.pairs === 1 ? "1 pair" : `${s.pairs} pairs`;
  if (s.significant) return `${s.verdict}: ${head} excludes 0 (${p}, ${pairs})`;
  if (direction === 0) return `no significant change: ${head} spans 0 (${p}, ${pairs})`;
  return `no significant change: ${head} excludes 0, but the Wilcoxon signed-rank test does ` +
    `not confirm it (p = ${formatP(s.wilcoxon.p_value)} ≥ ${s.alpha}; sign test p = ${
      formatP(s.sign_test.p_value)
    }, ${pairs})`;
}
