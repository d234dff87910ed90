/**
 * The JSON Schema side of zod refinements. `z.toJSONSchema` exports shapes, not `.refine` /
 * `.superRefine` predicates, so each refinement the loader applies and JSON Schema can express is
 * written here once more, keyed by the zod schema it belongs to, and merged into the generated
 * schema (see {@link applyJsonSchemaRules}). The zod schemas stay the source of truth: a test
 * validates every fixture with both and requires the same verdict.
 *
 * Refinements JSON Schema cannot express (listed so nobody looks for them here): a finite
 * `weight` (YAML `.inf`; JSON has no infinities), regex patterns outside the linear-time subset
 * (`regex` evaluators, `pattern` inside a `json_schema` evaluator's schema), a `json_schema`
 * evaluator's own schema being broken or using a `$ref` it cannot resolve (agentv checks its own
 * subset; the draft 2020-12 meta-schema would reject other things), and everything
 * checked outside the schemas (file references, judge prompt variables, targets, duplicate ids).
 *
 * @module
 */
import type { z } from "zod";
import {
  CodeJudgeSchema,
  ContainsSchema,
  EqualsSchema,
  TokenUsageEvaluatorSchema,
  ToolTrajectorySchema,
} from "./evaluator.ts";
import { ExecutionSchema, RawEvalCaseSchema } from "./eval_file.ts";
import { RawMessageSchema } from "./message.ts";

/** A generated JSON Schema node (mutable). */
export type JsonSchemaNode = Record<string, unknown>;

/**
 * An evaluator list whose evaluators do not all have weight 0 (the weight defaults to 1), as the
 * `someWeight` refinement of eval_file.ts requires. An empty list is fine.
 */
const SOME_WEIGHT: JsonSchemaNode = {
  anyOf: [
    { maxItems: 0 },
    {
      contains: {
        anyOf: [
          { not: { required: ["weight"] } },
          { properties: { weight: { not: { const: 0 } } } },
        ],
      },
    },
  ],
};

/** Adds `rule` to `node` under `allOf` (so it never clashes with a generated `anyOf`). */
function addRule(node: JsonSchemaNode | undefined, rule: JsonSchemaNode): void {
  if (node === undefined) return;
  const all = Array.isArray(node.allOf) ? node.allOf as unknown[] : [];
  node.allOf = [...all, rule];
}

/** `properties[key]` of a node, when the generator wrote it inline. */
function property(node: JsonSchemaNode, key: string): JsonSchemaNode | undefined {
  const properties = node.properties as Record<string, JsonSchemaNode> | undefined;
  return properties?.[key];
}

/**
 * eval_file.ts, an `execution` block: `evaluators` not all of weight 0, `targets` names each
 * target once, and `target` and `targets` are not both given.
 */
function executionRules(node: JsonSchemaNode): void {
  addRule(property(node, "evaluators"), SOME_WEIGHT);
  const targets = property(node, "targets");
  if (targets) targets.uniqueItems = true;
  addRule(node, { not: { required: ["target", "targets"] } });
}

const RULES = new Map<z.ZodType, (node: JsonSchemaNode) => void>([
  // message.ts: "message has neither content nor tool_calls"
  [RawMessageSchema, (node) =>
    addRule(node, {
      anyOf: [
        { required: ["content"] },
        { required: ["tool_calls"], properties: { tool_calls: { minItems: 1 } } },
      ],
    })],
  // eval_file.ts, the case: "missing input" (or its alias `input_messages`), "input has no
  // messages", and the all-weights-0 rule on `evaluators` (inline `rubrics` add a weighted
  // rubric evaluator) and on the case's `execution.evaluators`.
  [RawEvalCaseSchema, (node) => {
    addRule(node, {
      anyOf: [
        { required: ["input"] },
        { required: ["input_messages"], properties: { input_messages: { minItems: 1 } } },
      ],
    });
    const input = property(node, "input");
    for (const branch of (input?.anyOf ?? []) as JsonSchemaNode[]) {
      if (branch.type === "array") branch.minItems = 1;
    }
    addRule(node, {
      if: { not: { required: ["rubrics"] } },
      then: { properties: { evaluators: SOME_WEIGHT } },
    });
    const execution = property(node, "execution");
    if (execution) executionRules(execution);
  }],
  // eval_file.ts, the file's (or sidecar's) `execution`: the same rules.
  [ExecutionSchema, executionRules],
  // evaluator.ts: code_judge needs exactly one of `module` and `script`.
  [
    CodeJudgeSchema as z.ZodType,
    (node) => addRule(node, { oneOf: [{ required: ["module"] }, { required: ["script"] }] }),
  ],
  // evaluator.ts: any_order needs `minimums`; in_order and exact need `expected`.
  [ToolTrajectorySchema as z.ZodType, (node) =>
    addRule(node, {
      if: { properties: { mode: { const: "any_order" } } },
      then: { required: ["minimums"] },
      else: { required: ["expected"] },
    })],
  // evaluator.ts: token_usage needs at least one limit.
  [TokenUsageEvaluatorSchema as z.ZodType, (node) =>
    addRule(node, {
      anyOf: [
        { required: ["max_total"] },
        { required: ["max_input"] },
        { required: ["max_output"] },
      ],
    })],
  // evaluator.ts: equals needs a `value` (any JSON value, null included).
  [EqualsSchema as z.ZodType, (node) => addRule(node, { required: ["value"] })],
  // evaluator.ts: contains needs `value` or `values`.
  [
    ContainsSchema as z.ZodType,
    (node) => addRule(node, { anyOf: [{ required: ["value"] }, { required: ["values"] }] }),
  ],
]);

/**
 * The `override` hook for `z.toJSONSchema`: adds the JSON Schema form of the refinements of the
 * zod schema being converted, if it has any.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { applyJsonSchemaRules } from "./json_schema_rules.ts";
 * import { ContainsSchema } from "./evaluator.ts";
 * const schema = z.toJSONSchema(ContainsSchema, { io: "input", override: applyJsonSchemaRules });
 * assert.deepEqual(schema.allOf, [{ anyOf: [{ required: ["value"] }, { required: ["values"] }] }]);
 * ```
 */
export function applyJsonSchemaRules(
  context: { zodSchema: unknown; jsonSchema: JsonSchemaNode },
): void {
  RULES.get(context.zodSchema as z.ZodType)?.(context.jsonSchema);
}
