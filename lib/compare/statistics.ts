/**
 * Paired statistics for comparing two runs: a seeded paired bootstrap confidence interval of the
 * mean Δ, an exact sign test and the Wilcoxon signed-rank test (exact for small n, normal
 * approximation with tie correction for large n). Pure functions over the per-case Δ scores.
 *
 * @module
 */

/** Differences with |Δ| below this are zero (floating-point noise from means of trials). */
const ZERO = 1e-12;

/** The default seed of {@link bootstrapMeanInterval}, so the same files give the same interval. */
export const DEFAULT_SEED = 20251115;

/** The default number of bootstrap resamples. */
export const DEFAULT_RESAMPLES = 10_000;

/**
 * A seeded pseudo-random generator (mulberry32) returning numbers in [0, 1): the same seed gives
 * the same sequence on every machine.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createRng } from "./statistics.ts";
 * const a = createRng(7), b = createRng(7);
 * assert.equal(a(), b());
 * ```
 */
export function createRng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The arithmetic mean (NaN for no values). */
export function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/**
 * The median (mean of the two middle values for an even count; NaN for no values).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { median } from "./statistics.ts";
 * assert.equal(median([3, 1, 2]), 2);
 * assert.equal(median([4, 1, 2, 3]), 2.5);
 * ```
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A confidence interval of a mean. */
export interface ConfidenceInterval {
  /** Lower bound. */
  low: number;
  /** Upper bound. */
  high: number;
  /** Coverage, e.g. 0.95. */
  confidence: number;
  /** Bootstrap resamples drawn. */
  resamples: number;
  /** Seed of the generator. */
  seed: number;
}

/** Options of {@link bootstrapMeanInterval}. */
export interface BootstrapOptions {
  /** Number of resamples (default {@link DEFAULT_RESAMPLES}, 10,000). */
  resamples?: number;
  /** Seed (default {@link DEFAULT_SEED}). */
  seed?: number;
  /** Coverage (default 0.95). */
  confidence?: number;
}

/**
 * Paired bootstrap percentile interval of the mean of `deltas` (one Δ per case): draws
 * `resamples` samples of the cases with replacement, takes each sample's mean, and returns the
 * (1-c)/2 and (1+c)/2 quantiles of those means (linear interpolation between order statistics).
 * Seeded, so it is reproducible. Null when there are no deltas.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bootstrapMeanInterval } from "./statistics.ts";
 * const ci = bootstrapMeanInterval([0.2, 0.3, 0.1, 0.25, 0.15, 0.2]);
 * assert.ok(ci !== null && ci.low > 0 && ci.high < 0.3);
 * ```
 */
export function bootstrapMeanInterval(
  deltas: readonly number[],
  options: BootstrapOptions = {},
): ConfidenceInterval | null {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const seed = options.seed ?? DEFAULT_SEED;
  const confidence = options.confidence ?? 0.95;
  const n = deltas.length;
  if (n === 0) return null;
  if (!(resamples >= 1) || !(confidence > 0 && confidence < 1)) {
    throw new RangeError("resamples must be >= 1 and confidence in (0, 1)");
  }
  const values = Float64Array.from(deltas);
  const means = new Float64Array(resamples);
  // createRng's mulberry32, inlined: this loop runs resamples × n times.
  let state = seed >>> 0;
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      sum += values[Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)];
    }
    means[b] = sum / n;
  }
  means.sort();
  const alpha = 1 - confidence;
  return {
    low: quantileSorted(means, alpha / 2),
    high: quantileSorted(means, 1 - alpha / 2),
    confidence,
    resamples,
    seed,
  };
}

/**
 * Quantile `q` of sorted values (R type 7: linear interpolation between order statistics).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quantileSorted } from "./statistics.ts";
 * // h = (4 - 1) * 0.5 = 1.5: halfway between the 2nd and 3rd values.
 * assert.equal(quantileSorted(Float64Array.from([1, 2, 4, 8]), 0.5), 3);
 * ```
 */
export function quantileSorted(sorted: Float64Array, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** What {@link signTest} found. */
export interface SignTestResult {
  /** Cases with Δ > 0. */
  positive: number;
  /** Cases with Δ < 0. */
  negative: number;
  /** Cases with Δ = 0 (dropped from the test). */
  zero: number;
  /** Exact two-sided p-value (1 when no case changed). */
  p_value: number;
}

/**
 * Exact two-sided sign test of the per-case Δ: under "no change" the number of positive Δ among
 * the n non-zero ones is Binomial(n, ½); p = min(1, 2·P(X ≤ min(k, n−k))). Zero Δ are dropped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { signTest } from "./statistics.ts";
 * // 7 up, 1 down: p = 2·(C(8,0) + C(8,1)) / 2^8 = 2·9/256
 * assert.equal(signTest([1, 1, 1, 1, 1, 1, 1, -1, 0]).p_value, 0.0703125);
 * ```
 */
export function signTest(deltas: readonly number[]): SignTestResult {
  let positive = 0, negative = 0, zero = 0;
  for (const d of deltas) {
    if (Math.abs(d) < ZERO) zero++;
    else if (d > 0) positive++;
    else negative++;
  }
  return { positive, negative, zero, p_value: binomialTwoSidedP(positive, positive + negative) };
}

/**
 * Exact two-sided p-value of `k` successes in `n` fair coin flips: min(1, 2·P(X ≤ min(k, n−k))).
 * Exact (integer arithmetic) up to n = 1000, log-space sums beyond.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { binomialTwoSidedP } from "./statistics.ts";
 * assert.equal(binomialTwoSidedP(4, 5), 2 * (1 + 5) / 32);
 * assert.equal(binomialTwoSidedP(0, 0), 1);
 * ```
 */
export function binomialTwoSidedP(k: number, n: number): number {
  if (n === 0) return 1;
  const tail = Math.min(k, n - k);
  if (n <= 1000) {
    let term = 1n, sum = 1n;
    for (let i = 0; i < tail; i++) {
      term = (term * BigInt(n - i)) / BigInt(i + 1);
      sum += term;
    }
    return Math.min(1, (2 * Number(sum)) / 2 ** n);
  }
  // log C(n, i) - n·log 2, summed in log space.
  let logTerm = -n * Math.LN2;
  let logSum = logTerm;
  for (let i = 0; i < tail; i++) {
    logTerm += Math.log(n - i) - Math.log(i + 1);
    const m = Math.max(logSum, logTerm);
    logSum = m + Math.log(Math.exp(logSum - m) + Math.exp(logTerm - m));
  }
  return Math.min(1, 2 * Math.exp(logSum));
}

/** What {@link wilcoxonSignedRank} found. */
export interface WilcoxonResult {
  /** Non-zero Δ ranked (zero Δ are dropped). */
  n: number;
  /** Sum of the ranks of positive Δ. */
  w_plus: number;
  /** Sum of the ranks of negative Δ. */
  w_minus: number;
  /** p-value of the alternative asked for (two-sided by default; 1 when no case changed). */
  p_value: number;
  /** `exact` (n ≤ {@link WILCOXON_EXACT_MAX}) or `normal` (with tie and continuity correction). */
  method: "exact" | "normal";
}

/**
 * The alternative hypothesis of a test of the per-case Δ: `two-sided` (Δ is not centred on 0),
 * `less` (Δ tends to be negative: the later run is worse) or `greater` (Δ tends to be positive).
 */
export type Alternative = "two-sided" | "less" | "greater";

/** Options of {@link wilcoxonSignedRank}. */
export interface WilcoxonOptions {
  /** The alternative hypothesis (default `two-sided`). */
  alternative?: Alternative;
}

/** Up to this many non-zero Δ the Wilcoxon p-value is exact (the full rank distribution). */
export const WILCOXON_EXACT_MAX = 50;

/**
 * Wilcoxon signed-rank test of the per-case Δ: drops zero Δ, ranks |Δ| (ties get their average
 * rank), W+ = sum of the ranks of positive Δ. Exact two-sided p (the permutation distribution of
 * the signs over the actual ranks) for n ≤ 50; above that the normal approximation with tie
 * correction (variance n(n+1)(2n+1)/24 − Σ(t³−t)/48) and a continuity correction of ½.
 * `options.alternative` asks for a one-sided p instead: `less` is P(W+ ≤ observed) (the Δ lean
 * negative), `greater` P(W+ ≥ observed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wilcoxonSignedRank } from "./statistics.ts";
 * // ranks 1..5, only rank 2 negative: W− = 2; P(W− ≤ 2) = 3/32 ({}, {1}, {2}); p = 6/32
 * const r = wilcoxonSignedRank([0.1, -0.2, 0.3, 0.4, 0.5]);
 * assert.deepEqual([r.w_minus, r.p_value, r.method], [2, 0.1875, "exact"]);
 * // One-sided: five negative Δ out of five, P(W+ ≤ 0) = 1/32
 * assert.equal(wilcoxonSignedRank([-1, -2, -3, -4, -5], { alternative: "less" }).p_value, 1 / 32);
 * ```
 */
export function wilcoxonSignedRank(
  deltas: readonly number[],
  options: WilcoxonOptions = {},
): WilcoxonResult {
  const alternative = options.alternative ?? "two-sided";
  const nonZero = deltas.filter((d) => Math.abs(d) >= ZERO);
  const n = nonZero.length;
  if (n === 0) return { n, w_plus: 0, w_minus: 0, p_value: 1, method: "exact" };
  // Round |Δ| so that float noise (0.82 - 0.72 vs 0.1) does not break ties.
  const abs = nonZero.map((d) => ({ a: Math.round(Math.abs(d) * 1e9) / 1e9, positive: d > 0 }));
  abs.sort((x, y) => x.a - y.a);
  const ranks = new Array<number>(n);
  const tieSizes: number[] = [];
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && abs[j + 1].a === abs[i].a) j++;
    const rank = (i + j + 2) / 2;
    for (let k = i; k <= j; k++) ranks[k] = rank;
    tieSizes.push(j - i + 1);
    i = j + 1;
  }
  let w_plus = 0;
  for (let i = 0; i < n; i++) if (abs[i].positive) w_plus += ranks[i];
  const total = (n * (n + 1)) / 2;
  const w_minus = total - w_plus;
  if (n <= WILCOXON_EXACT_MAX) {
    const p_value = exactSignedRankP(ranks, w_plus, alternative);
    return { n, w_plus, w_minus, p_value, method: "exact" };
  }
  const mu = total / 2;
  let variance = (n * (n + 1) * (2 * n + 1)) / 24;
  for (const t of tieSizes) variance -= (t ** 3 - t) / 48;
  const sd = Math.sqrt(variance);
  let p_value: number;
  if (alternative === "two-sided") {
    const z = variance > 0 ? Math.max(0, Math.abs(w_plus - mu) - 0.5) / sd : 0;
    p_value = Math.min(1, 2 * normalUpperTail(z));
  } else {
    // P(W+ ≤ w) ≈ Φ((w − μ + ½)/σ) for `less`; P(W+ ≥ w) ≈ 1 − Φ((w − μ − ½)/σ) for `greater`.
    const z = variance > 0
      ? (alternative === "less" ? mu - w_plus - 0.5 : w_plus - mu - 0.5) / sd
      : 0;
    p_value = Math.min(1, normalUpperTail(z));
  }
  return { n, w_plus, w_minus, p_value, method: "normal" };
}

/**
 * Exact p of W+ = `w` over the 2^n sign assignments of `ranks` (which may be averaged,
 * i.e. halves: doubled to integers for the count).
 */
function exactSignedRankP(
  ranks: readonly number[],
  w: number,
  alternative: Alternative,
): number {
  const doubled = ranks.map((r) => Math.round(r * 2));
  const max = doubled.reduce((a, b) => a + b, 0);
  // counts[s] = number of subsets of the ranks whose doubled sum is s.
  let counts = new Float64Array(max + 1);
  counts[0] = 1;
  for (const r of doubled) {
    const next = counts.slice();
    for (let s = r; s <= max; s++) next[s] += counts[s - r];
    counts = next;
  }
  const target = Math.round(w * 2);
  let lower = 0, upper = 0;
  for (let s = 0; s <= max; s++) {
    if (s <= target) lower += counts[s];
    if (s >= target) upper += counts[s];
  }
  const all = 2 ** ranks.length;
  if (alternative === "less") return Math.min(1, lower / all);
  if (alternative === "greater") return Math.min(1, upper / all);
  return Math.min(1, (2 * Math.min(lower, upper)) / all);
}

/** P(Z > z) for a standard normal Z (erfc by a Chebyshev fit, relative error < 1.2e-7). */
export function normalUpperTail(z: number): number {
  return erfc(z / Math.SQRT2) / 2;
}

function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r = t * Math.exp(
    -z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 +
                  t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 +
                                  t * (-0.82215223 + t * 0.17087277)))))))),
  );
  return x >= 0 ? r : 2 - r;
}
