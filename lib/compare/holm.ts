/**
 * Holm's step-down correction of p-values for several tests at once (Holm 1979, "A simple
 * sequentially rejective multiple test procedure"): comparing N targets pair by pair makes
 * N(N−1)/2 tests, and the chance that one of them looks significant by luck grows with their
 * number. Holm controls that family-wise error rate at α with no assumption about how the tests
 * depend on each other, and rejects at least what Bonferroni does.
 *
 * @module
 */

/**
 * Holm-adjusted p-values, in the order given: with the m p-values sorted ascending,
 * p̃₍ᵢ₎ = max over j ≤ i of min(1, (m − j + 1) · p₍ⱼ₎). A test is significant at α after the
 * correction exactly when its adjusted p is below α. Ties keep their order (a stable sort).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holmAdjust } from "./holm.ts";
 * // sorted 0.01, 0.02, 0.04: 3·0.01 = 0.03, 2·0.02 = 0.04, max(0.04, 1·0.04) = 0.04
 * assert.deepEqual(holmAdjust([0.04, 0.01, 0.02]), [0.04, 0.03, 0.04]);
 * assert.deepEqual(holmAdjust([0.3]), [0.3]); // one test: unchanged
 * ```
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}
