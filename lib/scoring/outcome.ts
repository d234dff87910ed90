/**
 * Small builders for evaluator outcomes, shared by the evaluators and the runner of evaluators.
 *
 * @module
 */
import type { EvaluatorOutcome } from "./types.ts";
import { clampScore, scoreToVerdict } from "./verdict.ts";

/**
 * An `ok` outcome whose verdict comes from the (clamped) score.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoredOutcome } from "./outcome.ts";
 * assert.equal(scoredOutcome(0.5, { hits: ["a"], misses: ["b"] }).verdict, "fail");
 * ```
 */
export function scoredOutcome(
  score: number,
  parts: Omit<EvaluatorOutcome, "status" | "score" | "verdict">,
): EvaluatorOutcome {
  const s = clampScore(score);
  return { status: "ok", score: s, verdict: scoreToVerdict(s), ...parts };
}

/**
 * An `error` outcome: score 0, verdict `fail`, a miss naming the evaluator, `error` set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorOutcome } from "./outcome.ts";
 * assert.deepEqual(errorOutcome("my-judge", "script exited with code 2").misses, [
 *   "Evaluator 'my-judge' failed: script exited with code 2",
 * ]);
 * ```
 */
export function errorOutcome(
  name: string,
  message: string,
  extra: Pick<EvaluatorOutcome, "details" | "evaluator_provider_request"> = {},
): EvaluatorOutcome {
  return {
    status: "error",
    score: 0,
    verdict: "fail",
    hits: [],
    misses: [`Evaluator '${name}' failed: ${message}`],
    reasoning: message,
    error: message,
    ...extra,
  };
}

/**
 * An `ok` outcome scoring 0 for one reason (e.g. missing data): the reason is the miss and the
 * reasoning.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { zeroOutcome } from "./outcome.ts";
 * assert.equal(zeroOutcome("No duration data available in trace").verdict, "fail");
 * ```
 */
export function zeroOutcome(reason: string): EvaluatorOutcome {
  return scoredOutcome(0, { hits: [], misses: [reason], reasoning: reason });
}

/** Why code judges are skipped in a dry run. */
export const DRY_RUN_SKIP = "Dry run: code judges are not run (skipped, not counted)";

/**
 * A `skipped` outcome: the evaluator did not run (e.g. a code judge in a dry run). It never
 * counts toward a score; score 0 and verdict `fail` are placeholders.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { skippedOutcome } from "./outcome.ts";
 * assert.equal(skippedOutcome("dry run").status, "skipped");
 * ```
 */
export function skippedOutcome(reason: string): EvaluatorOutcome {
  return { status: "skipped", score: 0, verdict: "fail", hits: [], misses: [], reasoning: reason };
}
