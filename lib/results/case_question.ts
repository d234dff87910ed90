/**
 * The question a row carries, so a report or viewer can show the question, the expectation and the
 * answer from the row alone: the case's input messages as sent, its expected outcome and its
 * expected output (`null` when it has none). A file a message references is kept inline up to {@link INLINE_FILE_BYTES}
 * (its text is what the target was sent); a larger one by reference: the path as written, its
 * size and SHA-256, so the row stays small and still says exactly which bytes were sent. The
 * absolute path the loader resolved is never recorded. Rows are redacted after this (the
 * recorder's redactor walks every field but agentv's own), like every other field.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { EvalCase } from "../schema/eval_case.ts";
import type { Message } from "../schema/message.ts";
import type { RecordedFile, RecordedMessage } from "../schema/recorded_message.ts";

/** Files up to this many bytes (UTF-8) are kept inline in a row's `input`. */
export const INLINE_FILE_BYTES = 16 * 1024;

const encoder = new TextEncoder();

/** A file segment as recorded, per resolved segment (the trials of a case share them). */
const recordedFiles = new WeakMap<object, RecordedFile>();

/** A resolved file segment as recorded: inline text when small, else its size and hash only. */
function recordFile(
  segment: { value: string; text: string; guideline?: boolean | undefined },
): RecordedFile {
  let recorded = recordedFiles.get(segment);
  if (recorded === undefined) {
    const bytes = encoder.encode(segment.text);
    recorded = {
      type: "file",
      value: segment.value,
      ...(segment.guideline ? { guideline: true } : {}),
      bytes: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      ...(bytes.length <= INLINE_FILE_BYTES ? { text: segment.text } : {}),
    };
    recordedFiles.set(segment, recorded);
  }
  return recorded;
}

function isResolvedFile(
  segment: unknown,
): segment is { type: "file"; value: string; text: string; guideline?: boolean } {
  const s = segment as { type?: unknown; text?: unknown; value?: unknown } | null;
  return s !== null && typeof s === "object" && s.type === "file" &&
    typeof s.text === "string" && typeof s.value === "string";
}

/** One message as recorded: file segments by {@link recordFile}, the rest as they are. */
function recordMessage(message: Message): RecordedMessage {
  const content = Array.isArray(message.content)
    ? message.content.map((s) => isResolvedFile(s) ? recordFile(s) : s)
    : message.content;
  return {
    role: message.role,
    ...(message.name !== undefined ? { name: message.name } : {}),
    ...(content !== undefined ? { content } : {}),
    ...(message.tool_calls !== undefined ? { tool_calls: message.tool_calls } : {}),
  };
}

/** The question fields of a row (see {@link caseQuestion}). */
export interface CaseQuestion {
  /** The input messages as sent (files inline when small, else by size and hash). */
  input: RecordedMessage[];
  /** The case's expected outcome. */
  expected_outcome: string;
  /** The case's expected output; `null` when it has none. */
  expected_output: RecordedMessage[] | null;
}

/**
 * The question fields of a case's rows: `input` (the messages as sent), `expected_outcome`, and
 * `expected_output` (`null` when the case has none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { caseQuestion, INLINE_FILE_BYTES } from "./case_question.ts";
 * const q = caseQuestion({
 *   input: [{
 *     role: "user",
 *     content: [
 *       { type: "text", value: "Summarise:" },
 *       { type: "file", value: "big.log", path: "/abs/big.log", text: "x".repeat(INLINE_FILE_BYTES + 1) },
 *     ],
 *   }],
 *   expected_outcome: "A summary",
 *   expected_output: [],
 * });
 * const file = (q.input[0].content as Record<string, unknown>[])[1];
 * assert.equal(file.bytes, INLINE_FILE_BYTES + 1);
 * assert.match(String(file.sha256), /^[0-9a-f]{64}$/);
 * assert.equal("text" in file || "path" in file, false); // by reference, no absolute path
 * assert.equal(q.expected_output, null);
 * ```
 */
export function caseQuestion(
  evalCase: Pick<EvalCase, "input" | "expected_outcome" | "expected_output">,
): CaseQuestion {
  const expected = evalCase.expected_output;
  return {
    input: evalCase.input.map(recordMessage),
    expected_outcome: evalCase.expected_outcome,
    expected_output: expected.length > 0 ? expected.map(recordMessage) : null,
  };
}
