/**
 * `regex`: the answer matches a regular expression (JavaScript syntax without backreferences or
 * lookaround), matched in linear time so that no answer can make it hang.
 *
 * @module
 */
import type { RegexConfig } from "../schema/evaluator.ts";
import { compileLinearRegex, type LinearRegex, loadLinearRegex } from "../text/linear_regex.ts";
import { preview } from "./match.ts";
import { scoredOutcome } from "./outcome.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";

// Patterns are matched by the linear-time engine, loaded with this module (the loader, which
// does not import evaluators, never pays for it).
await loadLinearRegex();

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
  const match = compiled(config.pattern, config.flags ?? "").exec(context.candidate);
  return Promise.resolve(
    match
      ? scoredOutcome(1, { hits: [`Matches ${shown}`], misses: [], details: { match: match.text } })
      : scoredOutcome(0, {
        hits: [],
        misses: [`Does not match ${shown}: ${preview(context.candidate)}`],
      }),
  );
}

const cache = new Map<string, LinearRegex>();

/** The compiled pattern (validated when the dataset was loaded), cached per pattern and flags. */
function compiled(pattern: string, flags: string): LinearRegex {
  const key = `${flags}/${pattern}`;
  let re = cache.get(key);
  if (!re) {
    re = compileLinearRegex(pattern, flags);
    if (cache.size > 1000) cache.clear();
    cache.set(key, re);
  }
  return re;
}
