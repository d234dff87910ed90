/**
 * Verdicts and score clamping shared by every evaluator and the case aggregator.
 *
 * @module
 */
import type { Verdict } from "../schema/result.ts";

/** Scores at or above this are `pass`. */
export const PASS_THRESHOLD = 0.8;
/** Scores at or above this (and below {@link PASS_THRESHOLD}) are `borderline`. */
export const BORDERLINE_THRESHOLD = 0.6;

/**
 * Maps a score to a verdict: `pass` >= 0.8, `borderline` >= 0.6, else `fail`.
 *
 * @example
 * ```ts
 * import { scoreToVerdict } from "./verdict.ts";
 * scoreToVerdict(0.8); // "pass"
 * scoreToVerdict(0.79); // "borderline"
 * scoreToVerdict(0.2); // "fail"
 * ```
 */
export function scoreToVerdict(score: number): Verdict {
  const s = clampScore(score);
  if (s >= PASS_THRESHOLD) return "pass";
  if (s >= BORDERLINE_THRESHOLD) return "borderline";
  return "fail";
}

/**
 * Clamps a score into [0, 1]; NaN, ±Infinity and non-numbers become 0.
 *
 * @example
 * ```ts
 * import { clampScore } from "./verdict.ts";
 * clampScore(1.5); // 1
 * clampScore(Number.NaN); // 0
 * ```
 */
export function clampScore(x: unknown): number {
  if (typeof x !== "number" || !Number.isFinite(x)) return 0;
  return Math.min(1, Math.max(0, x));
}
