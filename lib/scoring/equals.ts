/**
 * `equals`: the answer equals `value`.
 *
 * @module
 */
import type { EqualsConfig } from "../schema/evaluator.ts";
import { deepEqual, preview } from "./match.ts";
import { scoredOutcome } from "./outcome.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";

/**
 * Compares the answer with `value`. A string `value` is compared with the trimmed answer
 * (case-insensitively when `case_sensitive: false`); any other value (number, boolean, object,
 * array, null) is compared deep-equal with the answer parsed as JSON.
 *
 * @example
 * ```ts ignore
 * await evaluateEquals({ type: "equals", name: "eq", weight: 1, value: 42, case_sensitive: true }, context);
 * // the answer "42" (or " 42\n") scores 1
 * ```
 */
export function evaluateEquals(
  config: EqualsConfig,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const answer = context.candidate.trim();
  const want = config.value;
  if (typeof want === "string") {
    const norm = (s: string) => config.case_sensitive ? s : s.toLowerCase();
    const ok = norm(answer) === norm(want.trim());
    return Promise.resolve(scoredOutcome(ok ? 1 : 0, {
      hits: ok ? [`Answer equals ${preview(want)}`] : [],
      misses: ok ? [] : [`Expected answer to equal ${preview(want)}, got ${preview(answer)}`],
    }));
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch (e) {
    return Promise.resolve(scoredOutcome(0, {
      hits: [],
      misses: [
        `Expected the JSON value ${preview(want)}, but the answer is not JSON ` +
        `(${(e as Error).message}): ${preview(answer)}`,
      ],
    }));
  }
  const ok = deepEqual(want, parsed);
  return Promise.resolve(scoredOutcome(ok ? 1 : 0, {
    hits: ok ? [`Answer equals ${preview(want)}`] : [],
    misses: ok ? [] : [`Expected answer to equal ${preview(want)}, got ${preview(parsed)}`],
  }));
}
