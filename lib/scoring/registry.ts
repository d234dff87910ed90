/**
 * The static evaluator registry: evaluator type → implementation. Static so `deno compile`
 * bundles every evaluator it can see.
 *
 * @module
 */
import type { EvaluatorConfig, EvaluatorType } from "../schema/evaluator.ts";
import type { EvaluatorFn } from "./types.ts";
import { evaluateCodeJudge } from "./code_judge.ts";
import { evaluateContains } from "./contains.ts";
import { evaluateEquals } from "./equals.ts";
import { evaluateFileChanges } from "./file_changes.ts";
import { evaluateIsJson } from "./is_json.ts";
import { evaluateJsonSchema } from "./json_schema.ts";
import { evaluateRegex } from "./regex.ts";
import { evaluateToolTrajectory } from "./tool_trajectory.ts";
// --- judged evaluators: imports go here (llm_judge, rubric, composite, field_accuracy, metrics) ---
import { evaluateComposite } from "./composite.ts";
import { evaluateFieldAccuracy } from "./field_accuracy.ts";
import { evaluateLlmJudge } from "./llm_judge.ts";
import { evaluateCost, evaluateLatency, evaluateTokenUsage } from "./metrics.ts";
import { evaluateRubric } from "./rubric.ts";

/** The implementation for each evaluator type, typed by its own config. */
export type EvaluatorRegistry = {
  [K in EvaluatorType]?: EvaluatorFn<Extract<EvaluatorConfig, { type: K }>>;
};

/** Every evaluator agentv can run. A type missing here yields an error result when used. */
export const EVALUATOR_REGISTRY: EvaluatorRegistry = {
  code_judge: evaluateCodeJudge,
  tool_trajectory: evaluateToolTrajectory,
  equals: evaluateEquals,
  contains: evaluateContains,
  regex: evaluateRegex,
  is_json: evaluateIsJson,
  json_schema: evaluateJsonSchema,
  file_changes: evaluateFileChanges,
  // --- judged evaluators: register here (llm_judge, rubric, composite, field_accuracy,
  // latency, cost, token_usage) ---
  llm_judge: evaluateLlmJudge,
  rubric: evaluateRubric,
  composite: evaluateComposite,
  field_accuracy: evaluateFieldAccuracy,
  latency: evaluateLatency,
  cost: evaluateCost,
  token_usage: evaluateTokenUsage,
};

/**
 * Looks up the implementation of an evaluator type.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getEvaluator } from "./registry.ts";
 * assert.equal(typeof getEvaluator("contains"), "function");
 * ```
 */
export function getEvaluator(type: string): EvaluatorFn | undefined {
  if (!Object.hasOwn(EVALUATOR_REGISTRY, type)) return undefined;
  return EVALUATOR_REGISTRY[type as EvaluatorType] as unknown as EvaluatorFn | undefined;
}
