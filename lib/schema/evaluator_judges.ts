/**
 * Schemas of the judged evaluators, whose score comes from a judge: `llm_judge` (free-form or
 * rubric mode), `rubric`, and `code_judge` (a module or script), with the rubric lists and
 * environment names they take. `evaluator.ts` adds them to the evaluator union.
 *
 * @module
 */
import { z } from "zod";
import type { Assert, Same } from "./_type_check.ts";
import { evaluatorCommon, nonNegative, withName } from "./evaluator_common.ts";
import type { CodeJudgeConfig, LlmJudgeConfig, Rubric, RubricConfig } from "./evaluator_types.ts";
import { sandboxShape } from "./sandbox.ts";

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
 * payload on stdin and printing a JSON score (in a sandbox with `sandbox:`, see `sandbox.ts`).
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
  max_memory_mb: z.number({ error: "max_memory_mb must be a whole number of megabytes" }).int({
    error: "max_memory_mb must be a whole number of megabytes",
  }).min(16, { error: "max_memory_mb must be at least 16" }).max(65536, {
    error: "max_memory_mb must be at most 65536",
  }).optional(),
  ...sandboxShape(),
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

// The explicit types must say exactly what the schemas produce.
type _Checks = [
  Assert<Same<LlmJudgeConfig, z.output<typeof LlmJudgeSchema>>>,
  Assert<Same<RubricConfig, z.output<typeof RubricEvaluatorSchema>>>,
  Assert<Same<CodeJudgeConfig, z.output<typeof CodeJudgeSchema>>>,
  Assert<Same<Rubric, z.output<typeof RubricListSchema>[number]>>,
];
