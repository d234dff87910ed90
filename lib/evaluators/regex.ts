/**
 * `regex`: the answer matches a JavaScript regular expression.
 *
 * @module
 */
import type { RegexConfig } from "../schema/evaluator.ts";
import { preview } from "./match.ts";
import { scoredOutcome } from "./outcome.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";

/**
 * Tests the (untrimmed) answer against `pattern` with `flags`. Score 1 on a match, else 0; the
 * first match is recorded under `details.match`.
 *
 * @example
 * ```ts ignore
 * await evaluateRegex({ type: "regex", name: "r", weight: 1, pattern: "^\\d+$" }, context);
 * ```
 */
export function evaluateRegex(
  config: RegexConfig,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const shown = `/${config.pattern}/${config.flags ?? ""}`;
  // A fresh RegExp per call: `g`/`y` flags make `exec` stateful.
  const match = new RegExp(config.pattern, config.flags).exec(context.candidate);
  return Promise.resolve(
    match
      ? scoredOutcome(1, { hits: [`Matches ${shown}`], misses: [], details: { match: match[0] } })
      : scoredOutcome(0, {
        hits: [],
        misses: [`Does not match ${shown}: ${preview(context.candidate)}`],
      }),
  );
}
