/**
 * Agreement of a judge's scores with people's scores: Spearman's rank correlation (does the judge
 * order answers as people do?) and the mean absolute difference (how far apart are the numbers?).
 *
 * @module
 */

/** One labelled score: the judge's and the people's, each from 0 to 1. */
export interface ScorePair {
  /** The judge's score. */
  judge: number;
  /** The people's score (the mean of the reviewers' scores). */
  human: number;
}

/**
 * The ranks of `values` (1 = smallest); tied values share the mean of their ranks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ranks } from "./scores.ts";
 * assert.deepEqual(ranks([0.4, 0.1, 0.4, 1]), [2.5, 1, 2.5, 4]);
 * ```
 */
export function ranks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1].value === order[i].value) j++;
    const rank = (i + j + 2) / 2;
    for (let k = i; k <= j; k++) out[order[k].index] = rank;
    i = j + 1;
  }
  return out;
}

/**
 * Spearman's ρ: the Pearson correlation of the ranks (ties share their mean rank). `null` below
 * two pairs or when either side gives every answer the same score.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { spearman } from "./scores.ts";
 * // ranks judge [4, 2, 3, 1], people [4, 2.5, 2.5, 1]; deviations from 2.5:
 * // Σ dx·dy = 2.25 + 0 + 0 + 2.25 = 4.5, Σ dx² = 5, Σ dy² = 4.5; ρ = 4.5 / √(5 · 4.5) = √0.9
 * const rho = spearman([
 *   { judge: 0.9, human: 1 }, { judge: 0.5, human: 0.4 }, { judge: 0.7, human: 0.4 }, { judge: 0.2, human: 0 },
 * ])!;
 * assert.ok(Math.abs(rho - Math.sqrt(0.9)) < 1e-12);
 * ```
 */
export function spearman(pairs: readonly ScorePair[]): number | null {
  if (pairs.length < 2) return null;
  const x = ranks(pairs.map((p) => p.judge));
  const y = ranks(pairs.map((p) => p.human));
  const mean = (pairs.length + 1) / 2;
  let xy = 0, xx = 0, yy = 0;
  for (let i = 0; i < pairs.length; i++) {
    const dx = x[i] - mean, dy = y[i] - mean;
    xy += dx * dy;
    xx += dx * dx;
    yy += dy * dy;
  }
  if (xx === 0 || yy === 0) return null;
  return xy / Math.sqrt(xx * yy);
}

/**
 * The mean of |judge − people| over the pairs; `null` for no pairs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { meanAbsoluteDifference } from "./scores.ts";
 * // (0.1 + 0.1 + 0.3 + 0.2) / 4 = 0.175
 * const mad = meanAbsoluteDifference([
 *   { judge: 0.9, human: 1 }, { judge: 0.5, human: 0.4 }, { judge: 0.7, human: 0.4 }, { judge: 0.2, human: 0 },
 * ])!;
 * assert.ok(Math.abs(mad - 0.175) < 1e-12);
 * ```
 */
export function meanAbsoluteDifference(pairs: readonly ScorePair[]): number | null {
  if (pairs.length === 0) return null;
  let sum = 0;
  for (const p of pairs) sum += Math.abs(p.judge - p.human);
  return sum / pairs.length;
}
