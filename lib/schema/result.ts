/**
 * What a run produces: traces from targets, evaluator results, and result rows (the JSONL lines
 * written as cases finish). Shapes are snake_case, as in the original result files.
 *
 * @module
 */
import { z } from "zod";
import { type ToolCall, ToolCallSchema } from "./message.ts";
import type { Assert, Same } from "./_type_check.ts";

/** A verdict on a score: pass >= 0.8, borderline >= 0.6, else fail. */
export const VerdictSchema = z.enum(["pass", "borderline", "fail"]);

/** A verdict: pass >= 0.8, borderline >= 0.6, else fail. */
export type Verdict = "pass" | "borderline" | "fail";

/** Token counts reported by a provider. */
export const TokenUsageSchema = z.object({
  input: z.number(),
  output: z.number(),
  cached: z.number().optional(),
});

/** Token counts reported by a provider. */
export interface TokenUsage {
  /** Prompt tokens. */
  input: number;
  /** Completion tokens. */
  output: number;
  /** Cached prompt tokens, when reported. */
  cached?: number;
}

/** A message produced by a target (the trace). `content` is any JSON value. */
export const OutputMessageSchema = z.looseObject({
  role: z.string(),
  name: z.string().optional(),
  content: z.unknown().optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
  timestamp: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** A message produced by a target (the trace); other keys are kept. */
export interface OutputMessage {
  /** Role, usually `assistant` or `tool`. */
  role: string;
  /** Speaker name. */
  name?: string;
  /** Any JSON value; the candidate answer is the last assistant content. */
  content?: unknown;
  /** Tool calls made in this message. */
  tool_calls?: ToolCall[];
  /** ISO time. */
  timestamp?: string;
  /** Extra data. */
  metadata?: Record<string, unknown>;
  /** Other keys are kept. */
  [key: string]: unknown;
}

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

/** Summary of a trace (counts keyed by tool name as called). */
export interface TraceSummary {
  /** Number of tool calls. */
  event_count: number;
  /** Distinct tool names, sorted. */
  tool_names: string[];
  /** Calls per tool name. */
  tool_calls_by_name: Record<string, number>;
  /** Tool calls that reported an error. */
  error_count: number;
  /** Token counts, when reported. */
  token_usage?: TokenUsage;
  /** Cost in USD, when known. */
  cost_usd?: number;
  /** Duration in ms. */
  duration_ms?: number;
}

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
export interface EvaluationScore {
  /** Score in [0, 1]. */
  score: number;
  /** Verdict from the score. */
  verdict?: "pass" | "fail" | "borderline";
  /** What went right. */
  hits: string[];
  /** What went wrong. */
  misses: string[];
  /** Free-text reasoning. */
  reasoning?: string;
}

/** One evaluator's result on a case, as written under `evaluator_results`. */
export const EvaluatorResultSchema: z.ZodType<EvaluatorResult> = z.object({
  name: z.string(),
  type: z.string(),
  status: z.enum(["ok", "error", "skipped"]),
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
  /**
   * `ok` when it scored, `error` when it could not, `skipped` when it did not run (a code judge
   * in a dry run). Skipped results never count toward the case score; their `score` 0 and
   * `verdict` `fail` are placeholders.
   */
  status: "ok" | "error" | "skipped";
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

/** One line of a results file (snake_case, as in the original tool's results). */
export interface ResultRow {
  /** ISO time the case finished. */
  timestamp: string;
  /** Case id. */
  eval_id: string;
  /** Dataset name. */
  dataset: string;
  /** Conversation id, when set. */
  conversation_id?: string;
  /** Name of the evaluated target. */
  target: string;
  /** `ok`, `error` (see `error`) or `skipped`. */
  status: "ok" | "error" | "skipped";
  /** Case score in [0, 1] (0 on error). */
  score: number;
  /** Case verdict. */
  verdict: Verdict;
  /** What went right. */
  hits: string[];
  /** What went wrong. */
  misses: string[];
  /** Reasoning of the evaluators. */
  reasoning?: string;
  /** The answer that was graded. */
  candidate_answer: string;
  /** Per-evaluator results. */
  evaluator_results: EvaluatorResult[];
  /** Summary of the trace. */
  trace_summary?: TraceSummary;
  /** The target's output messages (so traces can be re-graded). */
  output_messages: OutputMessage[];
  /** Token counts of the target call. */
  token_usage?: TokenUsage;
  /** Wall time of the target call, measured by the runner. */
  duration_ms: number;
  /** Attempts made (retries + 1). */
  attempts: number;
  /** Why the case failed to run or score. */
  error?: string;
  /** Set on `--dry-run` rows. */
  dry_run?: boolean;
  /** Other keys are kept. */
  [key: string]: unknown;
}

// The explicit types must say exactly what the schemas produce.
type _Checks = [
  Assert<Same<Verdict, z.output<typeof VerdictSchema>>>,
  Assert<Same<TokenUsage, z.output<typeof TokenUsageSchema>>>,
  Assert<Same<OutputMessage, z.output<typeof OutputMessageSchema>>>,
  Assert<Same<TraceSummary, z.output<typeof TraceSummarySchema>>>,
  Assert<Same<EvaluationScore, z.output<typeof EvaluationScoreSchema>>>,
  Assert<Same<ResultRow, z.output<typeof ResultRowSchema>>>,
];
