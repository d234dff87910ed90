/**
 * The normalised eval case handed to targets and evaluators, and the diagnostics the loader
 * reports.
 *
 * @module
 */
import { z } from "zod";
import { EVALUATOR_TYPES, EvaluatorConfigSchema } from "./evaluator.ts";
import { type Message, MessageSchema } from "./message.ts";
import type { EvaluatorConfig, EvaluatorType } from "./evaluator_types.ts";
import type { Assert, Same } from "./_type_check.ts";

/**
 * A case's run settings: always has `target`; `targets` when it runs against several; other keys
 * are kept as written.
 */
export const CaseExecutionSchema = z.looseObject({
  target: z.string(),
  targets: z.array(z.string()).optional(),
});

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
 * import { join } from "node:path";
 * import { type EvalCase, loadEvalCases } from "@agentv/agentv";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const file = join(dir, "dataset.yaml");
 * await Deno.writeTextFile(file, "evalcases:\n  - id: a\n    expected_outcome: Says hi\n    input: Hi\n");
 * const cases: EvalCase[] = await loadEvalCases(file, { root: dir });
 * assert.deepEqual([cases[0].id, cases[0].execution.target], ["a", "default"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export interface EvalCase {
  /** Case id. */
  id: string;
  /** Dataset name (file's `dataset:`, sidecar's, or the file name). */
  dataset: string;
  /** Groups cases of one conversation. */
  conversation_id?: string;
  /** What a good answer does. */
  expected_outcome: string;
  /** Input messages (string shorthand → one user message). */
  input: Message[];
  /** Expected messages (empty when absent). */
  expected_output: Message[];
  /** Run settings; always has `target`. */
  execution: CaseExecution;
  /** Default evaluator kind, used when `evaluators` is empty. */
  evaluator: EvaluatorType;
  /** Evaluators (inline `rubrics` become a leading `rubric` evaluator). */
  evaluators: EvaluatorConfig[];
  /** Absolute paths of guideline files, in order. */
  guideline_paths: string[];
  /** Guideline paths, then other input file paths. */
  file_paths: string[];
}

/** A case's run settings: always has `target`; other keys as written. */
export interface CaseExecution {
  /** Target name (default `default`); the first of `targets` when there are several. */
  target: string;
  /**
   * Every target the case runs against, when it names two or more (`execution.targets`); a list
   * of one is normalised to `target` alone. See `caseTargets` (`lib/dataset/case_targets.ts`).
   */
  targets?: string[];
  /** Other keys are kept. */
  [key: string]: unknown;
}

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
export interface Diagnostic {
  /** `error` makes the file or case invalid; `warning` does not. */
  severity: "error" | "warning";
  /** The file the problem is in. */
  file: string;
  /** 1-based line. */
  line?: number;
  /** 1-based column. */
  column?: number;
  /** Location inside the document, e.g. `evalcases[2].evaluators[0].weight`. */
  path?: string;
  /** What is wrong; what was expected; how to fix. */
  message: string;
}

// The explicit types must say exactly what the schemas produce.
type _Checks = [
  Assert<Same<EvalCase, z.output<typeof EvalCaseSchema>>>,
  Assert<Same<Diagnostic, z.output<typeof DiagnosticSchema>>>,
];
