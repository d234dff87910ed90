/**
 * Parses what a CLI agent wrote (its output file or stdout) in the original tool's format:
 * plain text, or a JSON object with `output_messages` (with `tool_calls`), or `text`, plus optional
 * `token_usage`, `cost_usd` and `duration_ms`.
 *
 * @module
 */
import { OutputMessageSchema, TokenUsageSchema } from "../schema/result.ts";
import type { OutputMessage, TokenUsage } from "../schema/result.ts";
import { normalizeToolCall, TOOL_CALL_SHAPES } from "../schema/tool_call_shapes.ts";
import { TargetError } from "./types.ts";

/** What a CLI agent's output contributes to the response. */
export interface CliOutput {
  /** The trace. */
  output_messages: OutputMessage[];
  /** Token usage, when reported. */
  token_usage?: TokenUsage;
  /** Cost, when reported. */
  cost_usd?: number;
  /** Duration the agent reported itself. */
  duration_ms?: number;
}

/**
 * Parses a CLI agent's output. Text that is not JSON, JSON that is not an object, and objects
 * whose `output_messages`/`token_usage` do not fit become one assistant message with the raw text
 * (with a warning when the object looked intended). An object with a non-empty
 * `output_messages` is the trace; else `text` becomes the answer (non-strings JSON-encoded); else
 * the raw JSON text is the answer. Negative `cost_usd`/`duration_ms` are dropped with a warning.
 * Tool calls written with `args`/`arguments` or OpenAI's `function` wrapper are normalised to
 * `{tool, input}`; a tool call that cannot be understood throws a {@link TargetError} naming the
 * expected shape (an error row, never a trace with the call's arguments dropped).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCliOutput } from "./cli_output.ts";
 * assert.deepEqual(parseCliOutput('{"text": "4", "token_usage": {"input": 10, "output": 1}}'), {
 *   output_messages: [{ role: "assistant", content: "4" }],
 *   token_usage: { input: 10, output: 1 },
 * });
 * ```
 */
export function parseCliOutput(
  raw: string,
  options: { onWarning?: (message: string) => void; label?: string } = {},
): CliOutput {
  const text = raw.replace(/\r\n/g, "\n");
  const plain: CliOutput = { output_messages: [{ role: "assistant", content: text }] };
  const warn = (message: string) =>
    options.onWarning?.(`${options.label ?? "CLI output"}: ${message}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return plain;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return plain;
  const obj = parsed as Record<string, unknown>;
  const out: CliOutput = { output_messages: [] };
  if (obj.token_usage !== undefined) {
    const usage = TokenUsageSchema.safeParse(obj.token_usage);
    if (!usage.success) {
      warn("token_usage is not {input, output, cached?}; using the whole output as the answer");
      return plain;
    }
    out.token_usage = usage.data;
  }
  for (const key of ["cost_usd", "duration_ms"] as const) {
    const value = obj[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value)) {
      warn(`ignoring ${key} that is not a number (${JSON.stringify(value)})`);
    } else if (value < 0) {
      warn(`ignoring negative ${key} value (${value})`);
    } else {
      out[key] = value;
    }
  }
  if (Array.isArray(obj.output_messages) && obj.output_messages.length > 0) {
    const messages: OutputMessage[] = [];
    for (const [index, message] of obj.output_messages.entries()) {
      const result = OutputMessageSchema.safeParse(
        withNormalizedToolCalls(message, index, options),
      );
      if (!result.success) {
        const issue = result.error.issues[0];
        warn(
          `output_messages[${index}] is invalid (${
            [...issue.path].join(".") || "message"
          }: ${issue.message}); using the whole output as the answer`,
        );
        return plain;
      }
      messages.push(result.data);
    }
    return { ...out, output_messages: messages };
  }
  if (obj.text !== undefined) {
    const answer = typeof obj.text === "string" ? obj.text : JSON.stringify(obj.text);
    return { ...out, output_messages: [{ role: "assistant", content: answer }] };
  }
  return { ...out, output_messages: plain.output_messages };
}

/** `message` with its `tool_calls` normalised; throws when a call cannot be understood. */
function withNormalizedToolCalls(
  message: unknown,
  index: number,
  options: { label?: string },
): unknown {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return message;
  const calls = (message as Record<string, unknown>).tool_calls;
  const label = options.label ?? "CLI output";
  if (calls === undefined) return message;
  if (!Array.isArray(calls)) {
    throw new TargetError(
      `${label}: output_messages[${index}].tool_calls must be a list of ${TOOL_CALL_SHAPES}`,
    );
  }
  const normalised = calls.map((call, callIndex) => {
    const result = normalizeToolCall(call);
    if (result.ok) return result.call;
    const at = [`output_messages[${index}].tool_calls[${callIndex}]`, ...result.problem.path]
      .join(".");
    const { message: why } = result.problem;
    const expected = why.includes(TOOL_CALL_SHAPES) ? "" : `; expected ${TOOL_CALL_SHAPES}`;
    throw new TargetError(`${label}: ${at}: ${why}${expected}`);
  });
  return { ...message, tool_calls: normalised };
}
