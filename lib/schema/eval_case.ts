/**
 * The normalised eval case handed to targets and evaluators, and the diagnostics the loader
 * reports.
 *
 * @module
 */
import { z } from "zod";
import { EVALUATOR_TYPES, EvaluatorConfigSchema } from "./evaluator.ts";
import { MessageSchema } from "./message.ts";

/** A case's run settings: always has `target`; other keys are kept as written. */
export const CaseExecutionSchema = z.looseObject({ target: z.string() });

/**
 * A normalised eval case (snake_case, as in the files). YAML and JSONL describing the same case
 * produce deep-equal objects. It holds no source locations: diagnostics carry those.
 */
export const EvalCaseSchema = z.object({
  id: z.string(),
  dataset: z.string(),
  conversation_id: z.string().optional(),
  expected_outcome: z.string(),
  input: z.array(MessageSchema),
  expected_output: z.array(MessageSchema),
  execution: CaseExecutionSchema,
  evaluator: z.enum(EVALUATOR_TYPES),
  evaluators: z.array(EvaluatorConfigSchema),
  guideline_paths: z.array(z.string()),
  file_paths: z.array(z.string()),
});

/**
 * A normalised eval case.
 *
 * @example
 * ```ts
 * import { loadEvalCases, type EvalCase } from "@agentv/agentv";
 * const cases: EvalCase[] = await loadEvalCases("evals/dataset.yaml");
 * ```
 */
export type EvalCase = z.infer<typeof EvalCaseSchema>;

/** A problem found in a user's file. */
export const DiagnosticSchema = z.object({
  severity: z.enum(["error", "warning"]),
  file: z.string(),
  line: z.number().int().positive().optional(),
  column: z.number().int().positive().optional(),
  path: z.string().optional(),
  message: z.string(),
});

/**
 * A problem found in a user's file: `path` is the location inside the document, e.g.
 * `evalcases[2].evaluators[0].weight`; `line`/`column` are 1-based.
 */
export type Diagnostic = z.infer<typeof DiagnosticSchema>;
