/**
 * The cost–quality front of a comparison: which arms no other arm beats on both a score (higher
 * is better) and a cost (lower is better: dollars, or latency). An arm whose cost is unknown is
 * left out of the front, never placed on it by default.
 *
 * @module
 */

/** One arm as a point: its label, score and cost (`null`: unknown). */
export interface ParetoPoint {
  /** The arm's label. */
  label: string;
  /** Higher is better. */
  score: number | null;
  /** Lower is better; `null` when unknown. */
  cost: number | null;
}

/**
 * The labels of the points on the Pareto front, in the order given: a point is on it when no
 * other point has a score at least as high and a cost at most as low, one of them strictly.
 * Points with an unknown score or cost are not on it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paretoFront } from "./pareto.ts";
 * const front = paretoFront([
 *   { label: "big", score: 0.9, cost: 10 },
 *   { label: "small", score: 0.7, cost: 1 },
 *   { label: "worse", score: 0.6, cost: 2 }, // small is better and cheaper
 *   { label: "unpriced", score: 0.95, cost: null },
 * ]);
 * assert.deepEqual(front, ["big", "small"]);
 * ```
 */
export function paretoFront(points: readonly ParetoPoint[]): string[] {
  const known = points.filter((p): p is ParetoPoint & { score: number; cost: number } =>
    p.score !== null && p.cost !== null && Number.isFinite(p.score) && Number.isFinite(p.cost)
  );
  return known.filter((p) =>
    !known.some((q) =>
      q !== p && q.score >= p.score && q.cost <= p.cost && (q.score > p.score || q.cost < p.cost)
    )
  ).map((p) => p.label);
}
