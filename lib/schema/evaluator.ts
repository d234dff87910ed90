/**
 * Evaluator configurations: one zod schema per evaluator type, combined into a discriminated
 * union on `type`. The schema's input side is the file format (and the published JSON Schema);
 * its output side is the normalised {@link EvaluatorConfig} (`name` and `weight` always set).
 *
 * @module
 */
import { z } from "zod";
import { linearRegexProblem, SUPPORTED_REGEX_FLAGS } from "../text/linear_regex.ts";
import { jsonSchemaProblems } from "./json_schema_problems.ts";
import { evaluatorCommon, nonNegative, withName } from "./evaluator_common.ts";
import { FileChangesSchema } from "./file_changes.ts";
import type { Assert, Same } from "./_type_check.ts";
import type {
  Aggregator,
  CodeJudgeConfig,
  CompositeConfig,
  ContainsConfig,
  CostConfig,
  EqualsConfig,
  EvaluatorConfig,
  EvaluatorType,
  FieldAccuracyConfig,
  IsJsonConfig,
  JsonSchemaConfig,
  LatencyConfig,
  LlmJudgeConfig,
  RegexConfig,
  Rubric,
  RubricConfig,
  TokenUsageConfig,
  ToolTrajectoryConfig,
} from "./evaluator_types.ts";
export type { EvaluatorType } from "./evaluator_types.ts";

/** Every evaluator type agentv knows. */
export const EVALUATOR_TYPES = [
  "llm_judge",
  "rubric",
  "code_judge",
  "composite",
  "tool_trajectory",
  "field_accuracy",
  "latency",
  "cost",
  "token_usage",
  "equals",
  "contains",
  "regex",
  "is_json",
  "json_schema",
  "file_changes",
] as const;

export { WeightSchema } from "./evaluator_common.ts";

const common = evaluatorCommon;

/** A rubric item: a plain string or `{id?, description, weight?, required?}`. */
export const RubricItemSchema = z.union([
  z.string().min(1, { error: "a rubric must not be empty" }),
  z.strictObject({
    id: z.string().min(1).optional(),
    description: z.string({ error: "description of a rubric must be a string" }).min(1, {
      error: "description of a rubric must not be empty",
    }),
    weight: nonNegative("weight of a rubric").default(1),
    required: z.boolean({ error: "required must be true or false" }).default(true),
  }),
], { error: "a rubric must be a string or an object with a description" });

/** A list of rubrics, normalised to `{id, description, weight, required}` (ids `rubric-<n>`). */
export const RubricListSchema = z.array(RubricItemSchema).min(1, {
  error: "rubrics must list at least one rubric",
}).transform((items) =>
  items.map((item, i) =>
    typeof item === "string"
      ? { id: `rubric-${i + 1}`, description: item, weight: 1, required: true }
      : { ...item, id: item.id ?? `rubric-${i + 1}` }
  )
);

/** `llm_judge`: free-form judge (`prompt` file or inline template), or rubric mode. */
export const LlmJudgeSchema = z.strictObject({
  type: z.literal("llm_judge"),
  ...common,
  prompt: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  rubrics: RubricListSchema.optional(),
}).transform(withName);

/** `rubric`: the judge checks each rubric; plain strings or objects. */
export const RubricEvaluatorSchema = z.strictObject({
  type: z.literal("rubric"),
  ...common,
  rubrics: RubricListSchema,
  model: z.string().min(1).optional(),
}).transform(withName);

/** Names of environment variables a subprocess may see besides PATH, HOME, LANG and TMPDIR. */
export const EnvNamesSchema = z.array(
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
    error: "env lists variable names such as MY_TOKEN (letters, digits, _)",
  }),
  { error: "env must be a list of environment variable names" },
);

/**
 * `code_judge`: a TS/JS `module` run in a permission-limited worker, or a `script` reading a JSON
 * payload on stdin and printing a JSON score.
 */
export const CodeJudgeSchema = z.looseObject({
  type: z.literal("code_judge"),
  ...common,
  script: z.union([
    z.string().trim().min(1, { error: "script must not be empty" }),
    z.array(z.string().trim().min(1, { error: "script arguments must not be empty" })).min(1, {
      error: "script must list at least the program to run",
    }),
  ], { error: "script must be a shell command string or an array of argv strings" }).optional(),
  module: z.string({ error: "module must be the path of a .ts, .js or .mjs file" }).trim()
    .regex(/\.(ts|mts|js|mjs)$/i, { error: "module must be the path of a .ts, .js or .mjs file" })
    .optional(),
  cwd: z.string().optional(),
  env: EnvNamesSchema.optional(),
  target: z.union([z.boolean(), z.strictObject({ max_calls: nonNegative("max_calls").optional() })])
    .optional(),
  timeout_seconds: z.number().positive().optional(),
}).superRefine((v, ctx) => {
  if ((v.script === undefined) === (v.module === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: v.script === undefined ? [] : ["module"],
      message: v.script === undefined
        ? "code_judge needs `module: ./judge.ts` (a default-exported function) or `script` (a command)"
        : "code_judge takes either `module` or `script`, not both; keep one",
    });
  }
}).transform(withName);

/** An expected tool call in a `tool_trajectory` evaluator. */
export const ExpectedToolSchema = z.looseObject({
  tool: z.string({ error: "tool must be a string naming the tool" }).min(1),
  args: z.unknown().optional(),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  max_duration_ms: z.number({ error: "max_duration_ms must be a number of milliseconds >= 0" })
    .min(0, { error: "max_duration_ms must be a number of milliseconds >= 0" }).optional(),
  status: z.enum(["ok", "error"], {
    error: (i) =>
      `status '${
        String(i.input)
      }' is not supported; expected ok (the step succeeded) or error (it failed)`,
  }).optional(),
});

/** `tool_trajectory`: checks the tool calls of the trace. */
export const ToolTrajectorySchema = z.strictObject({
  type: z.literal("tool_trajectory"),
  ...common,
  mode: z.enum(["any_order", "in_order", "exact"], {
    error: (issue) =>
      `mode ${
        issue.input === undefined ? "is missing" : `'${String(issue.input)}' is not supported`
      }; expected one of any_order, in_order, exact`,
  }),
  minimums: z.record(z.string(), nonNegative("a minimum count")).optional(),
  expected: z.array(ExpectedToolSchema).optional(),
}).superRefine((v, ctx) => {
  if (v.mode === "any_order" && v.minimums === undefined) {
    ctx.addIssue({
      code: "custom",
      message: "any_order mode requires `minimums` (tool name → minimum call count)",
    });
  }
  if (v.mode !== "any_order" && v.expected === undefined) {
    ctx.addIssue({
      code: "custom",
      message: `${v.mode} mode requires \`expected\` (a list of {tool: name})`,
    });
  }
}).transform(withName);

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

/** `latency`: passes when the call took at most `threshold` ms. */
export const LatencySchema = z.strictObject({
  type: z.literal("latency"),
  ...common,
  threshold: nonNegative("threshold (milliseconds)"),
}).transform(withName);

/** `cost`: passes when the call cost at most `budget` USD. */
export const CostSchema = z.strictObject({
  type: z.literal("cost"),
  ...common,
  budget: nonNegative("budget (USD)"),
}).transform(withName);

/** `token_usage`: passes when token counts stay within the given limits. */
export const TokenUsageEvaluatorSchema = z.strictObject({
  type: z.literal("token_usage"),
  ...common,
  max_total: nonNegative("max_total").optional(),
  max_input: nonNegative("max_input").optional(),
  max_output: nonNegative("max_output").optional(),
}).superRefine((v, ctx) => {
  if (v.max_total === undefined && v.max_input === undefined && v.max_output === undefined) {
    ctx.addIssue({
      code: "custom",
      message: "token_usage needs at least one of max_total, max_input, max_output",
    });
  }
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

export { FileChangesSchema } from "./file_changes.ts";

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

/** Aggregator of a `composite` evaluator; `weighted_average` when omitted. */
export const AggregatorSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("weighted_average"),
    weights: z.record(z.string(), nonNegative("a member weight")).optional(),
  }),
  z.strictObject({
    type: z.literal("code_judge"),
    path: z.string().min(1).optional(),
    script: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    cwd: z.string().optional(),
  }),
  z.strictObject({
    type: z.literal("llm_judge"),
    prompt: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
  }),
], { error: "aggregator type must be one of weighted_average, code_judge, llm_judge" });

/** `composite`: runs member evaluators and aggregates their results. */
export const CompositeSchema: z.ZodType<CompositeConfig, CompositeInput> = z.strictObject({
  type: z.literal("composite"),
  ...common,
  get evaluators() {
    return z.array(EvaluatorConfigSchema).min(1, {
      error: "composite needs at least one member evaluator",
    });
  },
  aggregator: AggregatorSchema.default({ type: "weighted_average" }),
}).transform(withName);

/** Input (file) shape of a composite evaluator. */
export interface CompositeInput {
  /** Always `composite`. */
  type: "composite";
  /** Name, defaults to the type. */
  name?: string;
  /** Weight in the case score. */
  weight?: number;
  /** Member evaluators. */
  evaluators: EvaluatorConfigInput[];
  /** How members are combined. */
  aggregator?: z.input<typeof AggregatorSchema>;
}

/** Any evaluator configuration, discriminated on `type`. */
export const EvaluatorConfigSchema: z.ZodType<EvaluatorConfig, EvaluatorConfigInput> = z
  .discriminatedUnion("type", [
    LlmJudgeSchema,
    RubricEvaluatorSchema,
    CodeJudgeSchema,
    CompositeSchema as unknown as typeof LlmJudgeSchema,
    ToolTrajectorySchema,
    FieldAccuracySchema,
    LatencySchema,
    CostSchema,
    TokenUsageEvaluatorSchema,
    EqualsSchema,
    ContainsSchema,
    RegexSchema,
    IsJsonSchema,
    JsonSchemaEvaluatorSchema,
    FileChangesSchema,
  ], {
    error: (issue) =>
      issue.code === "invalid_union" && "note" in issue
        ? `evaluator type ${
          (issue.input as { type?: unknown })?.type === undefined
            ? "is missing"
            : `'${String((issue.input as { type?: unknown }).type)}' is not supported`
        }; expected one of ${EVALUATOR_TYPES.join(", ")}`
        : undefined,
  }) as unknown as z.ZodType<EvaluatorConfig, EvaluatorConfigInput>;

/**
 * Every evaluator type except `composite`. Unlike {@link EvaluatorConfigSchema} it is not
 * recursive, so `z.compile` can generate a fast parser for schemas built on it (the loader's fast
 * path; anything it rejects is re-checked with the full schema).
 */
export const SimpleEvaluatorConfigSchema: z.ZodType<EvaluatorConfig, EvaluatorConfigInput> = z
  .discriminatedUnion("type", [
    LlmJudgeSchema,
    RubricEvaluatorSchema,
    CodeJudgeSchema,
    ToolTrajectorySchema,
    FieldAccuracySchema,
    LatencySchema,
    CostSchema,
    TokenUsageEvaluatorSchema,
    EqualsSchema,
    ContainsSchema,
    RegexSchema,
    IsJsonSchema,
    JsonSchemaEvaluatorSchema,
    FileChangesSchema,
  ]) as unknown as z.ZodType<EvaluatorConfig, EvaluatorConfigInput>;

export type {
  Aggregator,
  CodeJudgeConfig,
  CompositeConfig,
  ContainsConfig,
  CostConfig,
  EqualsConfig,
  EvaluatorBase,
  EvaluatorConfig,
  ExpectedTool,
  FieldAccuracyConfig,
  FieldSpec,
  FileChangesConfig,
  IsJsonConfig,
  JsonSchemaConfig,
  LatencyConfig,
  LlmJudgeConfig,
  RegexConfig,
  Rubric,
  RubricConfig,
  TokenUsageConfig,
  ToolTrajectoryConfig,
} from "./evaluator_types.ts";

// The explicit types must say exactly what the schemas produce.
type _Checks = [
  Assert<Same<LlmJudgeConfig, z.output<typeof LlmJudgeSchema>>>,
  Assert<Same<RubricConfig, z.output<typeof RubricEvaluatorSchema>>>,
  Assert<Same<CodeJudgeConfig, z.output<typeof CodeJudgeSchema>>>,
  Assert<Same<ToolTrajectoryConfig, z.output<typeof ToolTrajectorySchema>>>,
  Assert<Same<FieldAccuracyConfig, z.output<typeof FieldAccuracySchema>>>,
  Assert<Same<LatencyConfig, z.output<typeof LatencySchema>>>,
  Assert<Same<CostConfig, z.output<typeof CostSchema>>>,
  Assert<Same<TokenUsageConfig, z.output<typeof TokenUsageEvaluatorSchema>>>,
  Assert<Same<EqualsConfig, z.output<typeof EqualsSchema>>>,
  Assert<Same<ContainsConfig, z.output<typeof ContainsSchema>>>,
  Assert<Same<RegexConfig, z.output<typeof RegexSchema>>>,
  Assert<Same<IsJsonConfig, z.output<typeof IsJsonSchema>>>,
  Assert<Same<JsonSchemaConfig, z.output<typeof JsonSchemaEvaluatorSchema>>>,
  Assert<Same<Aggregator, z.output<typeof AggregatorSchema>>>,
  Assert<Same<Rubric, z.output<typeof RubricListSchema>[number]>>,
  Assert<Same<EvaluatorType, typeof EVALUATOR_TYPES[number]>>,
];

/** An evaluator configuration as written in a file. */
export type EvaluatorConfigInput =
  | z.input<typeof LlmJudgeSchema>
  | z.input<typeof RubricEvaluatorSchema>
  | z.input<typeof CodeJudgeSchema>
  | CompositeInput
  | z.input<typeof ToolTrajectorySchema>
  | z.input<typeof FieldAccuracySchema>
  | z.input<typeof LatencySchema>
  | z.input<typeof CostSchema>
  | z.input<typeof TokenUsageEvaluatorSchema>
  | z.input<typeof EqualsSchema>
  | z.input<typeof ContainsSchema>
  | z.input<typeof RegexSchema>
  | z.input<typeof IsJsonSchema>
  | z.input<typeof JsonSchemaEvaluatorSchema>
  | z.input<typeof FileChangesSchema>;
