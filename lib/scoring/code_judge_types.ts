/**
 * The contract between agentv and a code judge: the payload it receives (JSON on stdin for a
 * script; the argument of the default export for a module) and the result it returns.
 *
 * @module
 */
import type { Message } from "../schema/message.ts";
import type { OutputMessage, TraceSummary } from "../schema/result.ts";
import type { WorkspaceChanges } from "../schema/workspace.ts";

/**
 * What a code judge receives. Keys are snake_case; user data inside (messages, tool-call
 * arguments, `config`) is passed as written.
 *
 * @example
 * ```ts
 * import type { CodeJudgePayload, CodeJudgeResult } from "./code_judge_types.ts";
 * export default function judge(payload: CodeJudgePayload): CodeJudgeResult {
 *   const ok = payload.candidate_answer.includes("391");
 *   return { score: ok ? 1 : 0, hits: ok ? ["mentions 391"] : [], misses: ok ? [] : ["no 391"] };
 * }
 * ```
 */
export interface CodeJudgePayload {
  /** The case id. */
  eval_id: string;
  /** The rendered question sent to the target. */
  question: string;
  /** The raw text of the input messages, joined by spaces. */
  input_text: string;
  /** What a good answer does. */
  expected_outcome: string;
  /** The expected messages. */
  expected_messages: Message[];
  /** Same as `expected_messages`. */
  expected_output: Message[];
  /** The last expected message's content as text (or its tool calls as JSON). */
  reference_answer: string;
  /** The target's final answer as text. */
  candidate_answer: string;
  /** Every message the target produced (with tool calls). */
  output_messages: OutputMessage[];
  /** Absolute paths of guideline files. */
  guideline_files: string[];
  /** Absolute paths of the other input files. */
  input_files: string[];
  /** The input messages. */
  input_messages: Message[];
  /** Same as `input_messages`. */
  input: Message[];
  /** Tool-call counts, token usage, cost and duration, or null. */
  trace_summary: TraceSummary | null;
  /** Every key of the evaluator's configuration that agentv does not use itself, or null. */
  config: Record<string, unknown> | null;
  /**
   * The case's workspace (absolute path) as the target left it, when the case ran in one: run
   * the project's tests there. Script judges also get it as `AGENTV_WORKSPACE_PATH`; module
   * judges may read it.
   */
  workspace_path?: string;
  /** What the target changed in its workspace (added / modified / deleted files, diff). */
  workspace_changes?: WorkspaceChanges;
}

/**
 * What a code judge returns (a module's default export, or the last JSON object a script
 * prints). `score` is required and clamped to [0, 1]; the verdict comes from it.
 *
 * @example
 * ```ts
 * import type { CodeJudgeResult } from "./code_judge_types.ts";
 * const result: CodeJudgeResult = { score: 0.5, hits: ["short"], misses: ["no source"] };
 * ```
 */
export interface CodeJudgeResult {
  /** Score from 0 to 1. */
  score: number;
  /** What went right. */
  hits?: string[];
  /** What went wrong. */
  misses?: string[];
  /** Free-text reasoning. */
  reasoning?: string;
  /** Anything else worth recording (written to the row). */
  details?: unknown;
}

/**
 * The default export of a module code judge.
 *
 * @example
 * ```ts
 * import type { CodeJudgeFunction } from "./code_judge_types.ts";
 * const judge: CodeJudgeFunction = (p) => ({ score: p.candidate_answer === "" ? 0 : 1 });
 * ```
 */
export type CodeJudgeFunction = (
  payload: CodeJudgePayload,
) => CodeJudgeResult | Promise<CodeJudgeResult>;
