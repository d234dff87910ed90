/**
 * `contains`: the answer contains `value`, or any/all of `values`.
 *
 * @module
 */
import type { ContainsConfig } from "../schema/evaluator.ts";
import { preview } from "./match.ts";
import { scoredOutcome } from "./outcome.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";

/**
 * Looks for each of `value` and `values` in the answer (case-insensitively with
 * `case_sensitive: false`). Mode `all` (default): score = fraction found; mode `any`: 1 when at
 * least one is found, else 0. Every value found is a hit, every value missing a miss.
 *
 * @example
 * ```ts ignore
 * await evaluateContains(
 *   { type: "contains", name: "c", weight: 1, values: ["Paris", "France"], mode: "all", case_sensitive: true },
 *   context,
 * ); // answer "Paris is nice" → score 0.5
 * ```
 */
export function evaluateContains(
  config: ContainsConfig,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const values = [...(config.value !== undefined ? [config.value] : []), ...(config.values ?? [])];
  const norm = (s: string) => config.case_sensitive ? s : s.toLowerCase();
  const answer = norm(context.candidate);
  const hits: string[] = [];
  const misses: string[] = [];
  for (const v of values) {
    if (answer.includes(norm(v))) hits.push(`Contains ${preview(v)}`);
    else misses.push(`Does not contain ${preview(v)}`);
  }
  const score = values.length === 0
    ? 0
    : config.mode === "any"
    ? (hits.length > 0 ? 1 : 0)
    : hits.length / values.length;
  return Promise.resolve(scoredOutcome(score, { hits, misses }));
}
