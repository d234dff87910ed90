/**
 * Krippendorff's α: agreement among any number of raters who each rated some of the units, for
 * nominal values (verdicts) or interval values (scores). α = 1 − Dₒ / Dₑ, where Dₒ is the
 * disagreement observed within units and Dₑ the disagreement expected from all values pooled.
 *
 * With mᵤ values in unit u (only units with two or more values count; n is their total):
 * - nominal: Dₒ = (1/n) Σᵤ (mᵤ² − Σ_c mᵤ꜀²) / (mᵤ − 1) and Dₑ = (n² − Σ_c n꜀²) / (n(n − 1)),
 *   m꜀ and n꜀ counting the values equal to c (the coincidence matrix, summed);
 * - interval (δ² = (a − b)²): Dₒ = (1/n) Σᵤ 2(mᵤ Σ v² − (Σ v)²) / (mᵤ − 1) and
 *   Dₑ = 2(n Σ v² − (Σ v)²) / (n(n − 1)), the sums of squared differences over ordered pairs.
 *
 * @module
 */

/** How two values differ: nominal (equal or not) or interval (squared difference). */
export type AlphaMetric = "nominal" | "interval";

/** One unit: the value each rater gave it (`null` or absent: not rated). */
export type AlphaUnit = readonly (string | number | null)[];

/**
 * Krippendorff's α of `units` (each a list of the raters' values; `null` for a missing rating).
 * Units with fewer than two values cannot be paired and are left out. `null` when no unit is
 * pairable or the pooled values do not vary (Dₑ = 0: agreement beyond chance is undefined).
 * Interval values must be numbers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { krippendorffAlpha } from "./krippendorff.ts";
 * // Pairable values n = 10 (3 + 3 + 2 + 2), 6 pass and 4 fail.
 * // Dₒ = (0 + (9 − 5)/2 + 0 + (4 − 2)/1) / 10 = 0.4; Dₑ = (100 − 36 − 16) / 90 = 48/90
 * // α = 1 − 0.4 / (48/90) = 0.25
 * const alpha = krippendorffAlpha([
 *   ["pass", "pass", "pass"], ["pass", "fail", "pass"], ["fail", "fail", null], ["fail", "pass", null],
 * ], "nominal")!;
 * assert.ok(Math.abs(alpha - 0.25) < 1e-12);
 * ```
 */
export function krippendorffAlpha(
  units: Iterable<AlphaUnit>,
  metric: AlphaMetric,
): number | null {
  const { observed, pooled, n } = metric === "nominal" ? nominalSums(units) : intervalSums(units);
  if (n < 2) return null;
  const expected = pooled / (n * (n - 1));
  if (expected <= 1e-15) return null;
  return 1 - observed / n / expected;
}

/** Σᵤ (within-unit disagreement) / (mᵤ − 1), the pooled disagreement, and n, for nominal values. */
function nominalSums(units: Iterable<AlphaUnit>) {
  let observed = 0, n = 0;
  const totals = new Map<string, number>();
  for (const unit of units) {
    const counts = new Map<string, number>();
    let m = 0;
    for (const value of unit) {
      if (value === null || value === undefined) continue;
      const key = String(value);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      m++;
    }
    if (m < 2) continue;
    let same = 0;
    for (const [key, count] of counts) {
      same += count * count;
      totals.set(key, (totals.get(key) ?? 0) + count);
    }
    observed += (m * m - same) / (m - 1);
    n += m;
  }
  let same = 0;
  for (const count of totals.values()) same += count * count;
  return { observed, pooled: n * n - same, n };
}

/** The same sums for interval values: squared differences over ordered pairs. */
function intervalSums(units: Iterable<AlphaUnit>) {
  let observed = 0, n = 0, sum = 0, squares = 0;
  for (const unit of units) {
    let m = 0, s = 0, q = 0;
    for (const value of unit) {
      if (value === null || value === undefined) continue;
      if (typeof value !== "number") throw new TypeError("interval values must be numbers");
      m++;
      s += value;
      q += value * value;
    }
    if (m < 2) continue;
    observed += (2 * (m * q - s * s)) / (m - 1);
    n += m;
    sum += s;
    squares += q;
  }
  return { observed, pooled: 2 * (n * squares - sum * sum), n };
}
