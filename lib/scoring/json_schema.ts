/**
 * `json_schema`: the answer is JSON that validates against an inline JSON Schema.
 *
 * @module
 */
import type { JsonSchemaConfig } from "../schema/evaluator.ts";
import { strictJsonProblem } from "./is_json.ts";
import { checkJsonSchema } from "./json_schema_check.ts";
import { scoredOutcome } from "./outcome.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";

/**
 * Parses the trimmed answer strictly as JSON and validates it against `schema`. Score 1 when
 * valid, else 0 with one miss per violation (`<json pointer>: <problem>`). Schema keywords the
 * validator does not check are listed under `details.unsupported_keywords`.
 *
 * @example
 * ```ts ignore
 * await evaluateJsonSchema(
 *   { type: "json_schema", name: "shape", weight: 1, schema: { type: "object", required: ["answer"] } },
 *   context,
 * );
 * ```
 */
export function evaluateJsonSchema(
  config: JsonSchemaConfig,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const parsed: { value?: unknown } = {};
  const problem = strictJsonProblem(context.candidate.trim(), parsed);
  if (problem !== undefined) {
    return Promise.resolve(
      scoredOutcome(0, { hits: [], misses: [`Answer is not valid JSON: ${problem}`] }),
    );
  }
  const { violations, unsupported } = checkJsonSchema(config.schema, parsed.value);
  const details = unsupported.length > 0 ? { details: { unsupported_keywords: unsupported } } : {};
  return Promise.resolve(
    violations.length === 0
      ? scoredOutcome(1, { hits: ["Answer matches the JSON schema"], misses: [], ...details })
      : scoredOutcome(0, {
        hits: [],
        misses: violations.map((v) => `${v.pointer === "" ? "(root)" : v.pointer}: ${v.message}`),
        ...details,
      }),
  );
}
