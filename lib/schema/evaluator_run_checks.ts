/**
 * Schemas of the evaluators that check the run rather than the answer's text: `tool_trajectory`
 * (the tool calls of the trace) and the metric limits `latency`, `cost` and `token_usage`.
 * `evaluator.ts` adds them to the evaluator union.
 *
 * @module
 */
import { z } from "zod";
import type { Assert, Same } from "./_type_check.ts";
import { evaluatorCommon, nonNegative, withName } from "./evaluator_common.ts";
import type {
  CostConfig,
  LatencyConfig,
  TokenUsageConfig,
  ToolTrajectoryConfig,
} from "./evaluator_types.ts";

const common = evaluatorCommon;

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

// The explicit types must say exactly what the schemas produce.
type _Checks = [
  Assert<Same<ToolTrajectoryConfig, z.output<typeof ToolTrajectorySchema>>>,
  Assert<Same<LatencyConfig, z.output<typeof LatencySchema>>>,
  Assert<Same<CostConfig, z.output<typeof CostSchema>>>,
  Assert<Same<TokenUsageConfig, z.output<typeof TokenUsageEvaluatorSchema>>>,
];
