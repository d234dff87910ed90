/**
 * Evaluator configurations: one zod schema per evaluator type, combined into a discriminated
 * union on `type`. The schema's input side is the file format (and the published JSON Schema);
 * its output side is the normalised {@link EvaluatorConfig} (`name` and `weight` always set).
 *
 * The per-type schemas live by kind: judged evaluators in `evaluator_judges.ts`, checks of the run
 * (tool calls and metrics) in `evaluator_run_checks.ts`, checks of the answer in
 * `evaluator_answer_checks.ts`, and `file_changes` in `file_changes.ts`. This module re-exports
 * them and holds `composite` (recursive through the union) and the unions themselves.
 *
 * @module
 */
import { z } from "zod";
import { evaluatorCommon, nonNegative, withName } from "./evaluator_common.ts";
import { CodeJudgeSchema, LlmJudgeSchema, RubricEvaluatorSchema } from "./evaluator_judges.ts";
import {
  CostSchema,
  LatencySchema,
  TokenUsageEvaluatorSchema,
  ToolTrajectorySchema,
} from "./evaluator_run_checks.ts";
import {
  ContainsSchema,
  EqualsSchema,
  FieldAccuracySchema,
  IsJsonSchema,
  JsonSchemaEvaluatorSchema,
  RegexSchema,
} from "./evaluator_answer_checks.ts";
import { FileChangesSchema } from "./file_changes.ts";
import { sandboxShape } from "./sandbox.ts";
import type { Assert, Same } from "./_type_check.ts";
import {
  type Aggregator,
  type CompositeConfig,
  EVALUATOR_TYPES,
  type EvaluatorConfig,
  type EvaluatorType,
} from "./evaluator_types.ts";
export type { EvaluatorType } from "./evaluator_types.ts";

/** Every evaluator type agentv knows (declared in `evaluator_types.ts`, which needs no zod). */
export { EVALUATOR_TYPES };

export { WeightSchema } from "./evaluator_common.ts";
export {
  CodeJudgeSchema,
  EnvNamesSchema,
  LlmJudgeSchema,
  RubricEvaluatorSchema,
  RubricItemSchema,
  RubricListSchema,
} from "./evaluator_judges.ts";
export {
  CostSchema,
  ExpectedToolSchema,
  LatencySchema,
  TokenUsageEvaluatorSchema,
  ToolTrajectorySchema,
} from "./evaluator_run_checks.ts";
export {
  ContainsSchema,
  EqualsSchema,
  FieldAccuracySchema,
  FieldSpecSchema,
  IsJsonSchema,
  JsonSchemaEvaluatorSchema,
  RegexSchema,
} from "./evaluator_answer_checks.ts";
export { FileChangesSchema } from "./file_changes.ts";

const common = evaluatorCommon;

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
    ...sandboxShape(),
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

// The explicit types must say exactly what the schemas produce (per-type checks sit beside the
// schemas, in their modules).
type _Checks = [
  Assert<Same<Aggregator, z.output<typeof AggregatorSchema>>>,
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
