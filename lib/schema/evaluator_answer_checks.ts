/**
 * Schemas of the deterministic evaluators that check the answer itself: `field_accuracy`
 * (fields of a JSON answer), `equals`, `contains`, `regex` (linear-time patterns), `is_json` and
 * `json_schema` (an inline schema, itself checked). `evaluator.ts` adds them to the evaluator
 * union.
 *
 * @module
 */
import { z } from "zod";
import { linearRegexProblem, SUPPORTED_REGEX_FLAGS } from "../text/linear_regex.ts";
import { jsonSchemaProblems } from "./json_schema_problems.ts";
import type { Assert, Same } from "./_type_check.ts";
import { evaluatorCommon, nonNegative, withName } from "./evaluator_common.ts";
import type {
  ContainsConfig,
  EqualsConfig,
  FieldAccuracyConfig,
  IsJsonConfig,
  JsonSchemaConfig,
  RegexConfig,
} from "./evaluator_types.ts";

const common = evaluatorCommon;

/** A field checked by `field_accuracy`. */
export const FieldSpecSchema = z.strictObject({
  path: z.string().min(1),
  match: z.enum(["exact", "numeric_tolerance", "date"], {
    error: "match must be one of exact, numeric_tolerance, date",
  }),
  required: z.boolean().default(true),
  weight: nonNegative("weight of a field").default(1),
  tolerance: nonNegative("tolerance").optional(),
  relative: z.boolean().optional(),
  formats: z.array(z.string()).optional(),
});

/** `field_accuracy`: compares fields of a JSON answer with the expected object. */
export const FieldAccuracySchema = z.strictObject({
  type: z.literal("field_accuracy"),
  ...common,
  fields: z.array(FieldSpecSchema).min(1, { error: "fields must list at least one field" }),
  aggregation: z.enum(["weighted_average", "all_or_nothing"]).default("weighted_average"),
}).transform(withName);

/** `equals`: the answer equals `value` (strings compared after trimming). */
export const EqualsSchema = z.strictObject({
  type: z.literal("equals"),
  ...common,
  value: z.unknown().refine((v) => v !== undefined, { error: "equals needs a `value`" }),
  case_sensitive: z.boolean().default(true),
}).transform(withName);

/** `contains`: the answer contains `value`, or `any`/`all` of `values`. */
export const ContainsSchema = z.strictObject({
  type: z.literal("contains"),
  ...common,
  value: z.string().optional(),
  values: z.array(z.string()).min(1).optional(),
  mode: z.enum(["any", "all"], { error: "mode must be any or all" }).default("all"),
  case_sensitive: z.boolean().default(true),
}).superRefine((v, ctx) => {
  if (v.value === undefined && v.values === undefined) {
    ctx.addIssue({ code: "custom", message: "contains needs `value` or `values`" });
  }
}).transform(withName);

/**
 * `regex`: the answer matches `pattern` (JavaScript syntax without backreferences or lookaround,
 * matched in linear time; optional `flags`).
 */
export const RegexSchema = z.strictObject({
  type: z.literal("regex"),
  ...common,
  pattern: z.string().min(1),
  flags: z.string().regex(/^[dgimsuy]*$/, {
    error: `flags may only contain ${SUPPORTED_REGEX_FLAGS}`,
  }).optional(),
}).superRefine((v, ctx) => {
  const problem = linearRegexProblem(v.pattern, v.flags);
  if (problem !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["pattern"],
      message: `pattern cannot be used: ${problem}`,
    });
  }
}).transform(withName);

/** `is_json`: the answer parses as JSON. */
export const IsJsonSchema = z.strictObject({
  type: z.literal("is_json"),
  ...common,
}).transform(withName);

/** `json_schema`: the answer is JSON that validates against the inline `schema`. */
export const JsonSchemaEvaluatorSchema = z.strictObject({
  type: z.literal("json_schema"),
  ...common,
  schema: z.record(z.string(), z.unknown()),
}).superRefine((v, ctx) => {
  // A schema that is itself broken would score every answer 0, silently.
  for (const problem of jsonSchemaProblems(v.schema)) {
    ctx.addIssue({
      code: "custom",
      path: ["schema", ...problem.path],
      message: `schema: ${problem.message}`,
    });
  }
  for (const { path, pattern } of schemaPatterns(v.schema, ["schema"])) {
    const problem = linearRegexProblem(pattern);
    if (problem !== undefined) {
      ctx.addIssue({ code: "custom", path, message: `pattern cannot be used: ${problem}` });
    }
  }
}).transform(withName);

/** Every `pattern` keyword in a JSON Schema, with its path (values under `const`/`enum` skipped). */
function* schemaPatterns(
  node: unknown,
  path: (string | number)[],
): Generator<{ path: (string | number)[]; pattern: string }> {
  if (typeof node !== "object" || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    if (!Array.isArray(node) && ["const", "enum", "default", "examples"].includes(key)) continue;
    const at = [...path, Array.isArray(node) ? Number(key) : key];
    if (key === "pattern" && typeof value === "string") yield { path: at, pattern: value };
    else yield* schemaPatterns(value, at);
  }
}

// The explicit types must say exactly what the schemas produce.
type _Checks = [
  Assert<Same<FieldAccuracyConfig, z.output<typeof FieldAccuracySchema>>>,
  Assert<Same<EqualsConfig, z.output<typeof EqualsSchema>>>,
  Assert<Same<ContainsConfig, z.output<typeof ContainsSchema>>>,
  Assert<Same<RegexConfig, z.output<typeof RegexSchema>>>,
  Assert<Same<IsJsonConfig, z.output<typeof IsJsonSchema>>>,
  Assert<Same<JsonSchemaConfig, z.output<typeof JsonSchemaEvaluatorSchema>>>,
];
