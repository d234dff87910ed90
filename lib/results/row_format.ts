/**
 * How a row is laid out in the results file: the answer is stored once. When a case's trace is
 * only its answer (one assistant message whose content is `candidate_answer`, nothing else), the
 * line leaves `output_messages` out; readers ({@link expandRow}, `readResults`) put it back.
 *
 * @module
 */
import type { ResultRow } from "../schema/result.ts";

/** Whether `row.output_messages` says nothing that `candidate_answer` does not. */
function traceIsOnlyTheAnswer(row: ResultRow): boolean {
  const messages = row.output_messages;
  if (!Array.isArray(messages) || messages.length !== 1) return false;
  const [message] = messages;
  const keys = Object.keys(message);
  return keys.length === 2 && message.role === "assistant" &&
    typeof message.content === "string" && message.content !== "" &&
    message.content === row.candidate_answer &&
    keys.includes("role") && keys.includes("content");
}

/**
 * The row as stored: without `output_messages` when that trace is just the answer (so a long
 * answer is not written twice). Other rows are returned as they are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compactRow } from "./row_format.ts";
 * import type { ResultRow } from "../schema/result.ts";
 * const row = {
 *   candidate_answer: "Paris",
 *   output_messages: [{ role: "assistant", content: "Paris" }],
 * } as ResultRow;
 * assert.equal("output_messages" in compactRow(row), false);
 * ```
 */
export function compactRow(row: ResultRow): ResultRow {
  if (!traceIsOnlyTheAnswer(row)) return row;
  const { output_messages: _, ...rest } = row;
  return rest as ResultRow;
}

/**
 * The row as read back: a stored row without `output_messages` gets the one-message trace its
 * `candidate_answer` stands for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { expandRow } from "./row_format.ts";
 * import type { ResultRow } from "../schema/result.ts";
 * assert.deepEqual(expandRow({ candidate_answer: "Paris" } as ResultRow).output_messages, [
 *   { role: "assistant", content: "Paris" },
 * ]);
 * ```
 */
export function expandRow(row: ResultRow): ResultRow {
  if (Array.isArray(row.output_messages) || typeof row.candidate_answer !== "string") return row;
  return { ...row, output_messages: [{ role: "assistant", content: row.candidate_answer }] };
}
