/**
 * Parses Gemini CLI's `--output-format stream-json` output (Gemini CLI 0.61), one line at a time:
 * - `message` events with `role: assistant` carry the model's text, in deltas; text that follows
 *   tool results starts a new assistant message, and the text after the last tool call is the
 *   final answer;
 * - `tool_use` (`tool_name`, `tool_id`, `parameters`, `timestamp`) starts a tool call, and the
 *   `tool_result` with the same `tool_id` ends it: its `output`, `status: error` when the CLI
 *   says `error` (with the tool's `error.message` kept as `error`), and its `timestamp`, so every
 *   call has `started_at`, `ended_at` and `duration_ms`. Gemini CLI reports a shell command that
 *   ran and exited non-zero as `success`: its stream carries no exit code;
 * - the final `result` gives the usage (`stats.input_tokens`, `output_tokens`, `cached`) and
 *   `stats.duration_ms`, and with `status: error` the agent's error (`error.message`; an API
 *   error's JSON body is reduced to its message);
 * - an `error` event with `severity: error` is the error when no `result` follows it; warnings
 *   are left to the log.
 * `init`, user `message` events, unknown event types and lines that are not JSON are ignored here
 * (the runner keeps them in the log).
 *
 * @module
 */
import type { TokenUsage } from "../schema/result.ts";
import {
  type AgentStreamParser,
  type AgentTrace,
  asObject,
  isNumber,
  type Json,
  parseEventLine,
  TraceBuilder,
} from "./agent_trace.ts";

/**
 * Creates a parser for one Gemini CLI run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createGeminiCliStreamParser } from "./gemini_cli_stream.ts";
 *
 * const p = createGeminiCliStreamParser();
 * p.push('{"type":"tool_use","timestamp":"2026-01-01T00:00:00.000Z","tool_name":"run_shell_command","tool_id":"t1","parameters":{"command":"ls"}}');
 * p.push('{"type":"tool_result","timestamp":"2026-01-01T00:00:00.250Z","tool_id":"t1","status":"success","output":"a.txt"}');
 * p.push('{"type":"message","role":"assistant","content":"Listed.","delta":true}');
 * p.push('{"type":"result","status":"success","stats":{"input_tokens":10,"output_tokens":3,"cached":4,"duration_ms":900}}');
 * const trace = p.finish();
 * assert.equal(trace.final_text, "Listed.");
 * assert.equal(trace.output_messages[0].tool_calls?.[0].duration_ms, 250);
 * assert.deepEqual(trace.usage, { input: 10, output: 3, cached: 4 });
 * ```
 */
export function createGeminiCliStreamParser(): AgentStreamParser {
  const builder = new TraceBuilder();
  let text = "";
  let afterTools = false;
  let result: Json | undefined;
  let lastError: string | undefined;

  /** Moves the text gathered so far into the current assistant message. */
  const flushText = () => {
    builder.addText(text);
    text = "";
  };

  const onMessage = (event: Json) => {
    if (event.role !== "assistant" || typeof event.content !== "string") return;
    if (afterTools) {
      // Text after tool results answers them: a new assistant message.
      builder.endTurn();
      afterTools = false;
    }
    text += event.content;
  };

  const onToolUse = (event: Json) => {
    if (typeof event.tool_id !== "string") return;
    if (afterTools) builder.endTurn();
    afterTools = false;
    flushText();
    const at = typeof event.timestamp === "string" ? event.timestamp : undefined;
    builder.startTool(
      event.tool_id,
      typeof event.tool_name === "string" ? event.tool_name : "unknown",
      event.parameters ?? {},
      at !== undefined ? { startedAt: at } : {},
    );
  };

  const onToolResult = (event: Json) => {
    if (typeof event.tool_id !== "string") return;
    const failed = event.status === "error";
    const error = asObject(event.error)?.message;
    const at = typeof event.timestamp === "string" ? event.timestamp : undefined;
    builder.endTool(event.tool_id, event.output, failed ? "error" : "ok", {
      ...(at !== undefined ? { endedAt: at } : {}),
      ...(typeof error === "string" ? { extra: { error } } : {}),
    });
    afterTools = true;
  };

  return {
    push(line: string) {
      const event = parseEventLine(line);
      if (event === undefined) return;
      switch (event.type) {
        case "message":
          onMessage(event);
          break;
        case "tool_use":
          onToolUse(event);
          break;
        case "tool_result":
          onToolResult(event);
          break;
        case "error":
          if (event.severity === "error") lastError = agentMessage(event.message) ?? lastError;
          break;
        case "result":
          result = event;
          break;
      }
    },
    finish(): AgentTrace {
      const finalText = !afterTools && text.trim() !== "" ? text : undefined;
      const failure = result === undefined
        ? lastError
        : result.status === "error"
        ? agentMessage(asObject(result.error)?.message) ?? "Gemini CLI ended with an error"
        : undefined;
      flushText();
      const trace: AgentTrace = { output_messages: builder.messages() };
      if (failure !== undefined) trace.error = failure;
      else if (finalText !== undefined) trace.final_text = finalText;
      const stats = asObject(result?.stats);
      const usage = geminiCliUsage(stats);
      if (usage !== undefined) trace.usage = usage;
      if (isNumber(stats?.duration_ms)) trace.duration_ms = stats.duration_ms;
      return trace;
    },
  };
}

/** The usage of `result.stats`, when it reports any tokens. */
function geminiCliUsage(stats: Json | undefined): TokenUsage | undefined {
  if (stats === undefined || !isNumber(stats.input_tokens) || !isNumber(stats.output_tokens)) {
    return undefined;
  }
  return {
    input: stats.input_tokens,
    output: stats.output_tokens,
    ...(isNumber(stats.cached) ? { cached: stats.cached } : {}),
  };
}

/**
 * The agent's message: Gemini CLI wraps API errors as `[API Error: <the JSON body>]`; the body's
 * `error.message` is what the user needs.
 */
function agentMessage(value: unknown): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const text = value.trim();
  const wrapped = /^\[API Error: ([\s\S]*)\]$/.exec(text)?.[1]?.trim() ?? text;
  if (wrapped.startsWith("{")) {
    try {
      const inner = asObject(asObject(JSON.parse(wrapped))?.error)?.message;
      if (typeof inner === "string" && inner.trim() !== "") return inner.trim();
    } catch { /* not JSON: the text itself */ }
  }
  return wrapped;
}
