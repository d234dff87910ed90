/**
 * What a run produces: traces from targets, evaluator results, and result rows (the JSONL lines
 * written as cases finish). Shapes are snake_case, as in the original result files.
 *
 * @module
 */
import { z } from "zod";
import { type ToolCall, ToolCallSchema } from "./message.ts";
import type { Assert, Same } from "./_type_check.ts";
import { type RecordedMessage, RecordedMessageSchema } from "./recorded_message.ts";

export {
  type RecordedFile,
  RecordedFileSchema,
  type RecordedMessage,
  RecordedMessageSchema,
} from "./recorded_message.ts";
import { type Integrity, IntegritySchema } from "./integrity.ts";

/** A verdict on a score: pass >= 0.8, borderline >= 0.6, else fail. */
export const VerdictSchema = z.enum(["pass", "borderline", "fail"]);

/** A verdict: pass >= 0.8, borderline >= 0.6, else fail. */
export type Verdict = "pass" | "borderline" | "fail";

/** Scores at or above this are `pass`. */
export const PASS_THRESHOLD = 0.8;
/** Scores at or above this (and below {@link PASS_THRESHOLD}) are `borderline`. */
export const BORDERLINE_THRESHOLD = 0.6;

/**
 * The verdict of a score in [0, 1]: `pass` >= 0.8, `borderline` >= 0.6, else `fail` (NaN fails).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verdictOfScore } from "./result.ts";
 * assert.equal(verdictOfScore(0.6), "borderline");
 * assert.equal(verdictOfScore(0.8), "pass");
 * ```
 */
export function verdictOfScore(score: number): Verdict {
  if (score >= PASS_THRESHOLD) return "pass";
  if (score >= BORDERLINE_THRESHOLD) return "borderline";
  return "fail";
}

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
  turns: z.number().optional(),
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
  /** Agent turns (agent targets that report them). */
  turns?: number;
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
 * import assert from "node:assert/strict";
 * import { type EvaluationScore, EvaluationScoreSchema } from "./result.ts";
 * const s: EvaluationScore = { score: 1, verdict: "pass", hits: ["ok"], misses: [] };
 * assert.equal(EvaluationScoreSchema.safeParse(s).success, true);
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

/** A score as results hold it: a number from 0 to 1. */
export const UnitScoreSchema = z.number()
  .min(0, "is below 0: a score is from 0 to 1")
  .max(1, "is above 1: a score is from 0 to 1");

/** One evaluator's result on a case, as written under `evaluator_results`. */
export const EvaluatorResultSchema: z.ZodType<EvaluatorResult> = z.object({
  name: z.string(),
  type: z.string(),
  status: z.enum(["ok", "error", "skipped"]),
  score: UnitScoreSchema,
  weight: z.number(),
  verdict: VerdictSchema,
  hits: z.array(z.string()),
  misses: z.array(z.string()),
  reasoning: z.string().optional(),
  error: z.string().optional(),
  details: z.unknown().optional(),
  evaluator_provider_request: z.unknown().optional(),
  token_usage: TokenUsageSchema.optional(),
  cost_usd: z.number().optional(),
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
  /**
   * Tokens the judge model used for this result (every call, re-asks included), when the judge
   * reported them; absent for evaluators that call no judge. A composite's own value counts only
   * its `llm_judge` aggregator: its members carry theirs.
   */
  token_usage?: TokenUsage;
  /** Cost in USD of the judge calls for this result, when reported or priced (`pricing`). */
  cost_usd?: number;
  /** Member results of a composite. */
  evaluator_results?: EvaluatorResult[];
}

/** The status of a case in a run. */
export const CaseStatusSchema = z.enum(["ok", "error", "skipped"]);

/**
 * One line of a results file. Every key is present on every row agentv writes (`null` when it does
 * not apply); `output_messages` alone may be left out of the stored line when the trace is only
 * the answer (`lib/results/row_format.ts`). `dry_run` is set on `--dry-run` rows only. `input`,
 * `expected_outcome` and `expected_output` are absent from rows written before agentv recorded
 * them.
 */
export const ResultRowSchema = z.looseObject({
  run_id: z.string().nullable(),
  trial: z.number().int().min(0),
  timestamp: z.string(),
  eval_id: z.string(),
  dataset: z.string(),
  conversation_id: z.string().nullable(),
  target: z.string(),
  status: CaseStatusSchema,
  score: UnitScoreSchema,
  verdict: VerdictSchema,
  hits: z.array(z.string()),
  misses: z.array(z.string()),
  reasoning: z.string().nullable(),
  candidate_answer: z.string(),
  evaluator_results: z.array(EvaluatorResultSchema),
  trace_summary: TraceSummarySchema.nullable(),
  output_messages: z.array(OutputMessageSchema),
  token_usage: TokenUsageSchema.nullable(),
  duration_ms: z.number(),
  attempts: z.number(),
  error: z.string().nullable(),
  cached: z.boolean().optional(),
  dry_run: z.boolean().optional(),
  input: z.array(RecordedMessageSchema).optional(),
  expected_outcome: z.string().optional(),
  expected_output: z.array(RecordedMessageSchema).nullable().optional(),
  integrity: IntegritySchema.optional(),
});

/** Row keys that are `null` when they do not apply (and when an older file left them out). */
export const NULLABLE_ROW_KEYS = [
  "run_id",
  "conversation_id",
  "reasoning",
  "trace_summary",
  "token_usage",
  "error",
] as const;

/** One line of a results file (snake_case, as in the original tool's results). */
export interface ResultRow {
  /**
   * Id of the run that wrote the row (its `<results>.run.json` has the same `run_id`); `null` on
   * rows read from files written without one (the original tool, older agentv).
   */
  run_id: string | null;
  /** Trial of the case (0: every case runs once). */
  trial: number;
  /** ISO time the case finished. */
  timestamp: string;
  /** Case id. */
  eval_id: string;
  /** Dataset name. */
  dataset: string;
  /** Conversation id, `null` when the case sets none. */
  conversation_id: string | null;
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
  /** Reasoning of the evaluators, `null` when none gave any. */
  reasoning: string | null;
  /** The answer that was graded. */
  candidate_answer: string;
  /** Per-evaluator results. */
  evaluator_results: EvaluatorResult[];
  /** Summary of the trace, `null` when the target was not reached. */
  trace_summary: TraceSummary | null;
  /** The target's output messages (so traces can be re-graded). */
  output_messages: OutputMessage[];
  /** Token counts of the target call, `null` when the target reported none. */
  token_usage: TokenUsage | null;
  /** Wall time of the target call, measured by the runner. */
  duration_ms: number;
  /** Attempts made (retries + 1). */
  attempts: number;
  /** Why the case failed to run or score, `null` when it did not. */
  error: string | null;
  /**
   * Whether the target's answer came from the response cache (`--cache`, `--replay`); on every
   * row agentv writes, absent from older files (read as not cached).
   */
  cached?: boolean;
  /** Set on `--dry-run` rows. */
  dry_run?: boolean;
  /**
   * The case's input messages as sent (a file's text inline up to 16 KiB, else its size and
   * SHA-256), so a report shows the question from the row alone; absent on older rows.
   */
  input?: RecordedMessage[];
  /** What a good answer does (the case's `expected_outcome`); absent on older rows. */
  expected_outcome?: string;
  /**
   * The case's expected messages (recorded as `input` is), `null` when it has none; absent on
   * older rows.
   */
  expected_output?: RecordedMessage[] | null;
  /**
   * What the integrity guard found (rows of agent targets, and of cases with `integrity: on`):
   * `clean`, `flagged` (the case failed; see `findings`) or `skipped` (`integrity: off`). Absent
   * on other rows and in files written before it existed.
   */
  integrity?: Integrity;
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
