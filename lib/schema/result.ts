/**
 * What a run produces: traces from targets, evaluator results, and result rows (the JSONL lines
 * written as cases finish). Shapes are snake_case, as in the original result files.
 *
 * @module
 */
import { z } from "zod";
import { ToolCallSchema } from "./message.ts";

/** A verdict on a score: pass >= 0.8, borderline >= 0.6, else fail. */
export const VerdictSchema = z.enum(["pass", "borderline", "fail"]);

/** A verdict. */
export type Verdict = z.infer<typeof VerdictSchema>;

/** Token counts reported by a provider. */
export const TokenUsageSchema = z.object({
  input: z.number(),
  output: z.number(),
  cached: z.number().optional(),
});

/** Token counts reported by a provider. */
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

/** A message produced by a target (the trace). `content` is any JSON value. */
export const OutputMessageSchema = z.looseObject({
  role: z.string(),
  name: z.string().optional(),
  content: z.unknown().optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
  timestamp: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** A message produced by a target. */
export type OutputMessage = z.infer<typeof OutputMessageSchema>;

/** Summary of a trace, written to results as `trace_summary`. */
export const TraceSummarySchema = z.object({
  event_count: z.number(),
  tool_names: z.array(z.string()),
  tool_calls_by_name: z.record(z.string(), z.number()),
  error_count: z.number(),
  token_usage: TokenUsageSchema.optional(),
  cost_usd: z.number().optional(),
  duration_ms: z.number().optional(),
});

/** Summary of a trace. */
export type TraceSummary = z.infer<typeof TraceSummarySchema>;

/** The score an evaluator gives: `score` in [0, 1], optional verdict, hits and misses. */
export const EvaluationScoreSchema = z.object({
  score: z.number().min(0).max(1),
  verdict: VerdictSchema.optional(),
  hits: z.array(z.string()),
  misses: z.array(z.string()),
  reasoning: z.string().optional(),
});

/**
 * The score an evaluator gives.
 *
 * @example
 * ```ts
 * import type { EvaluationScore } from "@agentv/agentv";
 * const s: EvaluationScore = { score: 1, verdict: "pass", hits: ["ok"], misses: [] };
 * ```
 */
export type EvaluationScore = z.infer<typeof EvaluationScoreSchema>;

/** One evaluator's result on a case, as written under `evaluator_results`. */
export const EvaluatorResultSchema: z.ZodType<EvaluatorResult> = z.object({
  name: z.string(),
  type: z.string(),
  status: z.enum(["ok", "error"]),
  score: z.number(),
  weight: z.number(),
  verdict: VerdictSchema,
  hits: z.array(z.string()),
  misses: z.array(z.string()),
  reasoning: z.string().optional(),
  error: z.string().optional(),
  details: z.unknown().optional(),
  evaluator_provider_request: z.unknown().optional(),
  get evaluator_results() {
    return z.array(EvaluatorResultSchema).optional();
  },
});

/** One evaluator's result on a case. `status: error` means it could not score (see `error`). */
export interface EvaluatorResult {
  /** Evaluator name. */
  name: string;
  /** Evaluator type. */
  type: string;
  /** `ok` when it scored, `error` when it could not. */
  status: "ok" | "error";
  /** Score in [0, 1] (0 on error). */
  score: number;
  /** Weight in the case score. */
  weight: number;
  /** Verdict from the score (or forced, e.g. a failed required rubric). */
  verdict: Verdict;
  /** What went right. */
  hits: string[];
  /** What went wrong. */
  misses: string[];
  /** Free-text reasoning. */
  reasoning?: string;
  /** Why the evaluator could not score. */
  error?: string;
  /** Evaluator-specific details. */
  details?: unknown;
  /** The (redacted) request sent to a judge or script. */
  evaluator_provider_request?: unknown;
  /** Member results of a composite. */
  evaluator_results?: EvaluatorResult[];
}

/** The status of a case in a run. */
export const CaseStatusSchema = z.enum(["ok", "error", "skipped"]);

/** One line of a results file. */
export const ResultRowSchema = z.looseObject({
  timestamp: z.string(),
  eval_id: z.string(),
  dataset: z.string(),
  conversation_id: z.string().optional(),
  target: z.string(),
  status: CaseStatusSchema,
  score: z.number(),
  verdict: VerdictSchema,
  hits: z.array(z.string()),
  misses: z.array(z.string()),
  reasoning: z.string().optional(),
  candidate_answer: z.string(),
  evaluator_results: z.array(EvaluatorResultSchema),
  trace_summary: TraceSummarySchema.optional(),
  output_messages: z.array(OutputMessageSchema),
  token_usage: TokenUsageSchema.optional(),
  duration_ms: z.number(),
  attempts: z.number(),
  error: z.string().optional(),
  dry_run: z.boolean().optional(),
});

/** One line of a results file. */
export type ResultRow = z.infer<typeof ResultRowSchema>;
