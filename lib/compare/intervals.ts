/**
 * Confidence intervals of one run's figures, drawn as the bands of a trend: the Wilson score
 * interval of a pass rate and the normal interval of a mean score.
 *
 * @module
 */

/** A two-sided interval. */
export interface Interval {
  /** Lower bound. */
  low: number;
  /** Upper bound. */
  high: number;
}

/** z of a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * The Wilson score interval of a proportion `k / n` (95% by default): unlike the normal interval
 * it stays inside [0, 1] and is not empty at 0 or n passes. Null when `n` is 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wilsonInterval } from "./intervals.ts";
 * const ci = wilsonInterval(8, 10)!;
 * assert.deepEqual([ci.low.toFixed(3), ci.high.toFixed(3)], ["0.490", "0.943"]);
 * assert.equal(wilsonInterval(0, 0), null);
 * ```
 */
export function wilsonInterval(k: number, n: number, z: number = Z95): Interval | null {
  if (n <= 0) return null;
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * The normal 95% interval of a mean, mean ± 1.96 · sd / √n from the sample standard deviation,
 * clamped to [`min`, `max`] (scores: 0 to 1). Null below two values (no spread can be measured).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { meanInterval } from "./intervals.ts";
 * const ci = meanInterval(0.5, 0.1, 100)!;
 * assert.deepEqual([ci.low.toFixed(3), ci.high.toFixed(3)], ["0.480", "0.520"]);
 * ```
 */
export function meanInterval(
  mean: number,
  sd: number | null,
  n: number,
  bounds: { min: number; max: number } = { min: 0, max: 1 },
): Interval | null {
  if (n < 2 || sd === null || !Number.isFinite(sd)) return null;
  const half = (Z95 * sd) / Math.sqrt(n);
  return { low: Math.max(bounds.min, mean - half), high: Math.min(bounds.max, mean + half) };
}
