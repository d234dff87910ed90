/**
 * Verdicts and score clamping shared by every evaluator and the case aggregator.
 *
 * @module
 */
import { type Verdict, verdictOfScore } from "../schema/result.ts";

// The thresholds live with the result schema (results readers map scores to verdicts too).
export { BORDERLINE_THRESHOLD, PASS_THRESHOLD } from "../schema/result.ts";

/**
 * Maps a score to a verdict: `pass` >= 0.8, `borderline` >= 0.6, else `fail`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreToVerdict } from "./verdict.ts";
 * assert.equal(scoreToVerdict(0.8), "pass");
 * assert.equal(scoreToVerdict(0.79), "borderline");
 * assert.equal(scoreToVerdict(0.2), "fail");
 * ```
 */
export function scoreToVerdict(score: number): Verdict {
  return verdictOfScore(clampScore(score));
}

/**
 * Clamps a score into [0, 1]; NaN, ±Infinity and non-numbers become 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clampScore } from "./verdict.ts";
 * assert.equal(clampScore(1.5), 1);
 * assert.equal(clampScore(Number.NaN), 0);
 * ```
 */
export function clampScore(x: unknown): number {
  if (typeof x !== "number" || !Number.isFinite(x)) return 0;
  return Math.min(1, Math.max(0, x));
}
