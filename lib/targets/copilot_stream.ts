/**
 * Parses GitHub Copilot CLI's `--output-format json` output (Copilot CLI 1.0), one line at a time:
 * - each `assistant.message` is one model response: its `content` is the assistant's text and its
 *   `toolRequests` are the tool calls it asked for (`toolCallId`, `name`, `arguments`); the content
 *   of the last message, when it asks for no tool, is the final answer;
 * - `tool.execution_start` times a call's start and `tool.execution_complete` ends it: the
 *   `result.content` as output, `status: error` when it did not succeed (`success: false`, its
 *   `error.message` kept as `error`) or when the shell command it ran exited non-zero
 *   (`shellExecution.exitCode`, kept as `exit_code`), and the event's `timestamp`, so every call
 *   that ran has `started_at`, `ended_at` and `duration_ms`;
 * - `session.error` is the agent's error (an API error, …); the final `result` gives the session's
 *   duration (`usage.sessionDurationMs`) and its `exitCode` (non-zero without an error event is an
 *   error too); turns are the `assistant.turn_start` events.
 * Copilot CLI reports no token counts in this stream. Other event types (skills, MCP servers,
 * deltas, background tasks, ones added by later versions) and lines that are not JSON are ignored
 * here (the runner keeps them in the log).
 *
 * @module
 */
import {
  type AgentStreamParser,
  type AgentTrace,
  asObject,
  type Json,
  parseEventLine,
  TraceBuilder,
} from "./agent_trace.ts";

/**
 * Creates a parser for one Copilot CLI run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createCopilotStreamParser } from "./copilot_stream.ts";
 *
 * const p = createCopilotStreamParser();
 * p.push('{"type":"assistant.message","data":{"content":"","toolRequests":[{"toolCallId":"t1","name":"bash","arguments":{"command":"ls"}}]}}');
 * p.push('{"type":"tool.execution_start","timestamp":"2026-01-01T00:00:00.000Z","data":{"toolCallId":"t1","toolName":"bash"}}');
 * p.push('{"type":"tool.execution_complete","timestamp":"2026-01-01T00:00:00.300Z","data":{"toolCallId":"t1","success":true,"shellExecution":{"exitCode":0},"result":{"content":"a.txt"}}}');
 * p.push('{"type":"assistant.message","data":{"content":"Listed.","toolRequests":[]}}');
 * p.push('{"type":"result","exitCode":0,"usage":{"sessionDurationMs":900}}');
 * const trace = p.finish();
 * assert.equal(trace.final_text, "Listed.");
 * assert.equal(trace.output_messages[0].tool_calls?.[0].duration_ms, 300);
 * assert.equal(trace.duration_ms, 900);
 * ```
 */
export function createCopilotStreamParser(): AgentStreamParser {
  const builder = new TraceBuilder();
  let lastMessage: { text: string; asksTools: boolean } | undefined;
  let turns = 0;
  let result: Json | undefined;
  let sessionError: string | undefined;

  const onMessage = (data: Json) => {
    builder.endTurn();
    const text = typeof data.content === "string" ? data.content : "";
    builder.addText(text);
    const requests = asArray(data.toolRequests);
    for (const request of requests) {
      if (typeof request.toolCallId !== "string") continue;
      const name = typeof request.name === "string" ? request.name : "unknown";
      builder.startTool(request.toolCallId, name, request.arguments ?? {});
    }
    lastMessage = { text, asksTools: requests.length > 0 };
  };

  const onStart = (data: Json, at: string | undefined) => {
    if (typeof data.toolCallId !== "string") return;
    const name = typeof data.toolName === "string" ? data.toolName : "unknown";
    builder.startTool(data.toolCallId, name, data.arguments ?? {}, {
      ...(at !== undefined ? { startedAt: at } : {}),
    });
  };

  const onComplete = (data: Json, at: string | undefined) => {
    if (typeof data.toolCallId !== "string") return;
    const exitCode = asObject(data.shellExecution)?.exitCode;
    const error = asObject(data.error)?.message;
    const failed = data.success === false || (typeof exitCode === "number" && exitCode !== 0);
    const extra: Json = {
      ...(typeof exitCode === "number" ? { exit_code: exitCode } : {}),
      ...(typeof error === "string" ? { error } : {}),
    };
    builder.endTool(data.toolCallId, asObject(data.result)?.content, failed ? "error" : "ok", {
      ...(at !== undefined ? { endedAt: at } : {}),
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
    });
  };

  return {
    push(line: string) {
      const event = parseEventLine(line);
      if (event === undefined) return;
      const data = asObject(event.data) ?? {};
      const at = typeof event.timestamp === "string" ? event.timestamp : undefined;
      switch (event.type) {
        case "assistant.turn_start":
          turns++;
          break;
        case "assistant.message":
          onMessage(data);
          break;
        case "tool.execution_start":
          onStart(data, at);
          break;
        case "tool.execution_complete":
          onComplete(data, at);
          break;
        case "session.error":
          if (typeof data.message === "string" && data.message.trim() !== "") {
            sessionError = data.message.trim();
          }
          break;
        case "result":
          result = event;
          break;
      }
    },
    finish(): AgentTrace {
      const trace: AgentTrace = { output_messages: builder.messages() };
      const exitCode = result?.exitCode;
      const error = sessionError ??
        (typeof exitCode === "number" && exitCode !== 0
          ? `Copilot CLI ended with exit code ${exitCode}`
          : undefined);
      if (error !== undefined) trace.error = error;
      else if (lastMessage !== undefined && !lastMessage.asksTools && lastMessage.text.trim()) {
        trace.final_text = lastMessage.text;
      }
      const duration = asObject(result?.usage)?.sessionDurationMs;
      if (typeof duration === "number" && Number.isFinite(duration)) trace.duration_ms = duration;
      if (turns > 0) trace.turns = turns;
      return trace;
    },
  };
}

function asArray(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(asObject).filter((v): v is Json => v !== undefined) : [];
}
