/**
 * Runs one configured evaluator and always returns a complete result: a thrown exception or an
 * unknown type becomes an explicit `status: "error"` result, never a silent 0.
 *
 * @module
 */
import type { EvaluatorConfig } from "../schema/evaluator.ts";
import type { EvaluatorResult } from "../schema/result.ts";
import { getEvaluator } from "./registry.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";
import { errorOutcome } from "./outcome.ts";
import { clampScore } from "./verdict.ts";

/**
 * Builds an error result for an evaluator that could not score.
 *
 * @example
 * ```ts
 * import { evaluatorError } from "./run_evaluator.ts";
 * const r = evaluatorError({ name: "x", type: "regex", weight: 1 }, "boom");
 * r.status; // "error"
 * ```
 */
export function evaluatorError(
  config: Pick<EvaluatorConfig, "name" | "type" | "weight">,
  message: string,
): EvaluatorResult {
  return {
    ...errorOutcome(config.name, message),
    name: config.name,
    type: config.type,
    weight: config.weight,
  };
}

/**
 * Runs an evaluator from the static registry and fills in `name`, `type` and `weight`.
 * Exceptions become `status: "error"` results (score 0, verdict `fail`, a miss naming the
 * evaluator); an unknown or not-yet-available type is an error result too.
 *
 * @example
 * ```ts ignore
 * import { runEvaluator } from "./run_evaluator.ts";
 * const result = await runEvaluator(
 *   { type: "contains", name: "mentions-paris", weight: 1, value: "Paris", mode: "all", case_sensitive: true },
 *   context,
 * );
 * ```
 */
export async function runEvaluator(
  config: EvaluatorConfig,
  context: EvaluationContext,
): Promise<EvaluatorResult> {
  const fn = getEvaluator(config.type);
  if (fn === undefined) {
    return evaluatorError(config, `evaluator type '${config.type}' is not available yet`);
  }
  let outcome: EvaluatorOutcome;
  try {
    outcome = await fn(config, context);
  } catch (e) {
    const message = context.signal.aborted
      ? "interrupted"
      : e instanceof Error
      ? e.message
      : String(e);
    return evaluatorError(config, message);
  }
  // An evaluator may report a more specific type (e.g. `llm_judge` in rubric mode → `rubric`).
  const { type: reported, status, score, verdict, hits, misses, ...rest } = outcome as
    & EvaluatorOutcome
    & { type?: unknown };
  const result: EvaluatorResult = {
    name: config.name,
    type: typeof reported === "string" && reported !== "" ? reported : config.type,
    status,
    score: clampScore(score),
    weight: config.weight,
    verdict,
    hits,
    misses,
    ...rest,
  };
  if (result.status === "error") {
    result.score = 0;
    result.verdict = "fail";
    result.error ??= result.reasoning ?? "evaluator reported an error";
  }
  return result;
}
