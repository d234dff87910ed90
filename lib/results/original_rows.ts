/**
 * Result rows written by the original agentv (TypeScript) tool, read as ours. Its rows have no
 * `status`, `verdict`, `output_messages`, `attempts` or `duration_ms`; hand-made comparison files
 * (the corpus `features/compare/**`) have even less (`eval_id`, `score`, `target`, `timestamp`).
 * The mapping fills in what the original means:
 *
 * - `status`: `error` when the row has a non-blank `error`, else `ok`; `verdict` from the score.
 * - `dataset`: `""` when absent; `hits`, `misses`, `evaluator_results`: `[]` when absent; each
 *   evaluator result gets `status: "ok"` (`error` when it has an `error`), `weight` 1 and a verdict
 *   from its score when absent.
 * - `output_messages`: `[]` (the original did not write the trace); `token_usage` and
 *   `duration_ms` from `trace_summary` when there (else `null` and 0); `attempts`: 1.
 * - `run_id`: `null`, `trial`: 0; keys the original wrote that agentv does not (such as
 *   `lm_provider_request`) are kept.
 * - `input` (the question, as agentv's rows record it): the row's own `input` (a string is a user
 *   message), else the chat prompt or the question of its `lm_provider_request` or
 *   `agent_provider_request`; absent when the row has none of them.
 *
 * @module
 */
import { verdictOfScore } from "../schema/result.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Whether a parsed results line is a row of the original tool: agentv always writes `status`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isOriginalRow } from "./original_rows.ts";
 * assert.equal(isOriginalRow({ eval_id: "a", score: 1 }), true);
 * assert.equal(isOriginalRow({ eval_id: "a", score: 1, status: "ok" }), false);
 * ```
 */
export function isOriginalRow(value: Json): boolean {
  return !("status" in value);
}

function nonBlank(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** A value as messages: a message is kept, anything else is the content of a user message. */
function asMessages(value: unknown): Json[] {
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) =>
    isObject(item) && typeof item.role === "string" ? item : { role: "user", content: item }
  );
}

/** The question of an original row as messages (see the module doc), or undefined. */
function inputFromOriginal(value: Json): Json[] | undefined {
  if (value.input !== undefined && value.input !== null) return asMessages(value.input);
  for (const key of ["lm_provider_request", "agent_provider_request"]) {
    const request = value[key];
    if (!isObject(request)) continue;
    if (Array.isArray(request.chat_prompt) && request.chat_prompt.length > 0) {
      return asMessages(request.chat_prompt);
    }
    if (typeof request.question === "string" && request.question !== "") {
      return asMessages(request.question);
    }
  }
  return undefined;
}

function evaluatorFromOriginal(value: unknown): unknown {
  if (!isObject(value)) return value;
  const error = nonBlank(value.error);
  const score = value.score;
  return {
    ...value,
    status: error !== null ? "error" : "ok",
    weight: value.weight ?? 1,
    verdict: value.verdict ?? (typeof score === "number" ? verdictOfScore(score) : undefined),
    hits: value.hits ?? [],
    misses: value.misses ?? [],
    ...(Array.isArray(value.evaluator_results)
      ? { evaluator_results: value.evaluator_results.map(evaluatorFromOriginal) }
      : {}),
  };
}

/**
 * A row of the original tool in agentv's shape (see the module doc); the result is checked by
 * the caller like any row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rowFromOriginal } from "./original_rows.ts";
 * const row = rowFromOriginal({
 *   eval_id: "a", score: 0.72, target: "t", timestamp: "2025",
 *   lm_provider_request: { question: "Capital of France?" },
 * });
 * assert.deepEqual([row.status, row.verdict, row.dataset], ["ok", "borderline", ""]);
 * assert.deepEqual(row.input, [{ role: "user", content: "Capital of France?" }]);
 * ```
 */
export function rowFromOriginal(value: Json): Json {
  const error = nonBlank(value.error);
  const input = inputFromOriginal(value);
  const trace = isObject(value.trace_summary) ? value.trace_summary : null;
  const score = value.score;
  return {
    run_id: null,
    trial: 0,
    ...value,
    dataset: value.dataset ?? "",
    conversation_id: value.conversation_id ?? null,
    status: error !== null ? "error" : "ok",
    verdict: typeof score === "number" ? verdictOfScore(score) : undefined,
    hits: value.hits ?? [],
    misses: value.misses ?? [],
    reasoning: value.reasoning ?? null,
    candidate_answer: value.candidate_answer ?? "",
    evaluator_results: Array.isArray(value.evaluator_results)
      ? value.evaluator_results.map(evaluatorFromOriginal)
      : value.evaluator_results ?? [],
    trace_summary: trace,
    output_messages: value.output_messages ?? [],
    token_usage: isObject(trace?.token_usage) ? trace.token_usage : null,
    duration_ms: typeof trace?.duration_ms === "number" ? trace.duration_ms : 0,
    attempts: 1,
    error,
    ...(input !== undefined ? { input } : {}),
  };
}
