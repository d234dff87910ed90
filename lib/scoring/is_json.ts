/**
 * `is_json`: the answer is valid JSON.
 *
 * @module
 */
import type { IsJsonConfig } from "../schema/evaluator.ts";
import { scoredOutcome } from "./outcome.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";

/**
 * Why `text` (already trimmed) is not strict JSON, or `undefined` when it parses; sets
 * `out.value` to the parsed value.
 */
export function strictJsonProblem(text: string, out: { value?: unknown } = {}): string | undefined {
  if (text === "") return "the answer is empty";
  try {
    out.value = JSON.parse(text);
    return undefined;
  } catch (e) {
    const fenced = text.startsWith("```")
      ? " (it is wrapped in a ``` code fence; the answer must be bare JSON)"
      : "";
    return `${(e as Error).message}${fenced}`;
  }
}

/**
 * Strict `JSON.parse` of the trimmed answer: score 1 when it parses (any JSON value), else 0
 * with a miss saying what failed. Code fences are not stripped.
 *
 * @example
 * ```ts ignore
 * await evaluateIsJson({ type: "is_json", name: "json", weight: 1 }, context);
 * ```
 */
export function evaluateIsJson(
  _config: IsJsonConfig,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const problem = strictJsonProblem(context.candidate.trim());
  return Promise.resolve(
    problem === undefined
      ? scoredOutcome(1, { hits: ["Answer is valid JSON"], misses: [] })
      : scoredOutcome(0, { hits: [], misses: [`Answer is not valid JSON: ${problem}`] }),
  );
}
