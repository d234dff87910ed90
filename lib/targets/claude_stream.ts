/**
 * Parses Claude Code's `--output-format stream-json --verbose` stream, one line at a time:
 * - `assistant` events carry one content block each; blocks of the same `message.id` form one
 *   assistant message (text joined by newlines, `tool_use` blocks as tool calls started at the
 *   event's `timestamp`);
 * - `user` events carry `tool_result` blocks, paired with their call by `tool_use_id` (output,
 *   `status: error` when `is_error`, ended at the event's `timestamp`, so `duration_ms` is known);
 *   they are never counted as calls;
 * - the final `result` event gives the answer (`result`), `usage`, `total_cost_usd`, `num_turns`,
 *   `duration_ms`, and the agent's own error (`is_error`, or an `error_*` subtype).
 * Other event types (`system`, `stream_event`, ones added by later versions) and lines that are not
 * JSON are ignored here (the runner keeps them in the log).
 *
 * Qwen Code's `--output-format stream-json` is this format without timestamps, with one
 * `assistant` event (and message id) per content block and the error of a failed run under
 * `result.error.message`: {@link ClaudeStreamParserOptions} covers it.
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

/** Options of {@link createClaudeStreamParser}. */
export interface ClaudeStreamParserOptions {
  /**
   * Clock for events without a `timestamp`, in ms since the epoch: such an event is timed when
   * its line arrives. Without it, such events have no time (Claude Code times every event).
   */
  now?: () => number;
  /**
   * How assistant events form messages: `message_id` (default, Claude Code: blocks of one
   * `message.id`) or `turn` (every assistant event until the next tool results: Qwen Code gives
   * each block an id of its own).
   */
  groupBy?: "message_id" | "turn";
  /** The agent's name in messages that have no text of the agent's own (default `Claude Code`). */
  agentName?: string;
}

/**
 * Creates a parser for one Claude Code run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createClaudeStreamParser } from "./claude_stream.ts";
 *
 * const p = createClaudeStreamParser();
 * p.push('{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}');
 * p.push('{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"a.txt","is_error":false}]}}');
 * p.push('{"type":"result","subtype":"success","is_error":false,"result":"Listed.","num_turns":2,"total_cost_usd":0.01,"usage":{"input_tokens":10,"output_tokens":3}}');
 * const trace = p.finish();
 * assert.equal(trace.final_text, "Listed.");
 * assert.equal(trace.output_messages[0].tool_calls?.[0].output, "a.txt");
 * assert.deepEqual(trace.usage, { input: 10, output: 3 });
 * ```
 */
export function createClaudeStreamParser(
  options: ClaudeStreamParserOptions = {},
): AgentStreamParser {
  const builder = new TraceBuilder();
  const byTurn = options.groupBy === "turn";
  let messageId: string | undefined;
  let result: Json | undefined;
  let apiError: string | undefined;
  const timeOf = (event: Json): string | undefined =>
    typeof event.timestamp === "string"
      ? event.timestamp
      : options.now !== undefined
      ? new Date(options.now()).toISOString()
      : undefined;

  const onAssistant = (event: Json) => {
    const message = asObject(event.message);
    if (message === undefined) return;
    const id = typeof message.id === "string" ? message.id : undefined;
    if (!byTurn && (id === undefined || id !== messageId)) builder.endTurn();
    messageId = id;
    if (event.is_api_error_message === true || typeof event.error === "string") {
      apiError = textOf(message.content) || String(event.error);
    }
    const timestamp = timeOf(event);
    const parent = typeof event.parent_tool_use_id === "string"
      ? event.parent_tool_use_id
      : undefined;
    for (const block of asArray(message.content)) {
      if (block.type === "text" && typeof block.text === "string") {
        if (event.is_api_error_message !== true) builder.addText(block.text);
      } else if (block.type === "tool_use" && typeof block.id === "string") {
        builder.startTool(
          block.id,
          typeof block.name === "string" ? block.name : "unknown",
          block.input ?? {},
          {
            ...(timestamp !== undefined ? { startedAt: timestamp } : {}),
            ...(parent !== undefined ? { extra: { parent_id: parent } } : {}),
          },
        );
      }
    }
  };

  const onUser = (event: Json) => {
    const message = asObject(event.message);
    if (message === undefined) return;
    const timestamp = timeOf(event);
    for (const block of asArray(message.content)) {
      if (block.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
      builder.endTool(
        block.tool_use_id,
        resultOutput(block.content),
        block.is_error === true ? "error" : "ok",
        timestamp !== undefined ? { endedAt: timestamp } : {},
      );
    }
    // The next assistant message answers these results: a new turn.
    builder.endTurn();
    messageId = undefined;
  };

  return {
    push(line: string) {
      const event = parseEventLine(line);
      if (event === undefined) return;
      switch (event.type) {
        case "assistant":
          onAssistant(event);
          break;
        case "user":
          onUser(event);
          break;
        case "result":
          result = event;
          break;
      }
    },
    finish(): AgentTrace {
      const trace: AgentTrace = { output_messages: [] };
      let finalText: string | undefined;
      if (result !== undefined) {
        const text = typeof result.result === "string" ? result.result : undefined;
        const failed = result.is_error === true ||
          (typeof result.subtype === "string" && result.subtype.startsWith("error"));
        if (failed) {
          trace.error = errorMessage(result, text ?? apiError, options.agentName ?? "Claude Code");
        } else if (text !== undefined) {
          finalText = text;
        }
        const usage = claudeUsage(result.usage);
        if (usage !== undefined) trace.usage = usage;
        if (isNumber(result.total_cost_usd)) trace.cost_usd = result.total_cost_usd;
        if (isNumber(result.num_turns)) trace.turns = result.num_turns;
        if (isNumber(result.duration_ms)) trace.duration_ms = result.duration_ms;
      } else if (apiError !== undefined) {
        trace.error = apiError;
      }
      trace.output_messages = builder.messages(finalText);
      if (finalText !== undefined) trace.final_text = finalText;
      return trace;
    },
  };
}

function errorMessage(result: Json, text: string | undefined, agent: string): string {
  const errors = Array.isArray(result.errors)
    ? result.errors.filter((e): e is string => typeof e === "string")
    : [];
  // Qwen Code: `error: {message}` (its text is also the last assistant event's, kept once).
  const own = asObject(result.error)?.message;
  if (typeof own === "string" && !errors.includes(own)) errors.push(own);
  const parts = [...new Set([text, ...errors])]
    .filter((p): p is string => p !== undefined && p.trim() !== "");
  if (parts.length > 0) return parts.join("; ");
  const subtype = typeof result.subtype === "string" ? result.subtype : "error";
  return `${agent} ended with ${subtype}${
    isNumber(result.num_turns) ? ` after ${result.num_turns} turns` : ""
  }`;
}

/** Usage of the `result` event (Anthropic names) as agentv token counts. */
function claudeUsage(value: unknown): TokenUsage | undefined {
  const u = asObject(value);
  if (u === undefined || !isNumber(u.input_tokens) || !isNumber(u.output_tokens)) return undefined;
  return {
    input: u.input_tokens,
    output: u.output_tokens,
    ...(isNumber(u.cache_read_input_tokens) ? { cached: u.cache_read_input_tokens } : {}),
  };
}

/** A tool result's content: text as a string (text blocks joined), other blocks as they are. */
function resultOutput(content: unknown): unknown {
  if (typeof content === "string" || content === undefined) return content;
  if (Array.isArray(content) && content.every((b) => asObject(b)?.type === "text")) {
    return content.map((b) => String((b as Json).text ?? "")).join("\n");
  }
  return content;
}

function textOf(content: unknown): string {
  return asArray(content).filter((b) => b.type === "text").map((b) => String(b.text ?? ""))
    .join("\n");
}

function asArray(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(asObject).filter((b): b is Json => b !== undefined) : [];
}
