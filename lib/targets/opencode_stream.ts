/**
 * Parses `opencode run --format json` output (opencode 1.18), one line at a time:
 * - each `step_start` begins one model response: its `text` parts are the assistant's text and
 *   its `tool_use` parts its tool calls; the text of the last step, when it calls no tool, is the
 *   final answer;
 * - a `tool_use` part comes once its tool has run: `tool`, `callID`, and a `state` with the
 *   `input`, the `output` (or the `error`), `status` (`error` when the tool failed, also `error`
 *   when a shell command exited non-zero, `metadata.exit` kept as `exit_code`) and the tool's own
 *   `time.start` / `time.end` (ms), so every call has `started_at`, `ended_at` and `duration_ms`.
 *   opencode runs the calls of one step at once and reports each when it ends: the calls of a
 *   step are recorded in the order they started (the order the model asked for them), not the
 *   order they ended;
 * - `step_finish` adds its `tokens` to the usage (`input` is the uncached part: the cached
 *   `cache.read` tokens are added to it and kept as `cached`) and its `cost` (what opencode
 *   priced from its model catalogue; a total of 0 is not reported, so the target's `pricing`
 *   applies); turns are the steps;
 * - an `error` event is the agent's error (`error.data.message`, else its `name`).
 * Other event types and lines that are not JSON are ignored here (the runner keeps them in the
 * log).
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
 * Creates a parser for one opencode run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createOpencodeStreamParser } from "./opencode_stream.ts";
 *
 * const p = createOpencodeStreamParser();
 * p.push('{"type":"step_start","part":{}}');
 * p.push('{"type":"tool_use","part":{"tool":"bash","callID":"t1","state":{"status":"completed","input":{"command":"ls"},"output":"a.txt","metadata":{"exit":0},"time":{"start":1767225600000,"end":1767225600250}}}}');
 * p.push('{"type":"step_finish","part":{"tokens":{"input":8,"output":3,"cache":{"read":2}},"cost":0}}');
 * p.push('{"type":"step_start","part":{}}');
 * p.push('{"type":"text","part":{"text":"Listed."}}');
 * const trace = p.finish();
 * assert.equal(trace.final_text, "Listed.");
 * assert.equal(trace.output_messages[0].tool_calls?.[0].duration_ms, 250);
 * assert.deepEqual(trace.usage, { input: 10, output: 3, cached: 2 });
 * ```
 */
export function createOpencodeStreamParser(): AgentStreamParser {
  const builder = new TraceBuilder();
  let step: { text: string; calls: number } | undefined;
  let lastStep: { text: string; calls: number } | undefined;
  let turns = 0;
  let usage: TokenUsage | undefined;
  let cost = 0;
  let error: string | undefined;
  /** The tool parts of the current step, recorded when it ends (in the order they started). */
  let pending: Json[] = [];

  const startOf = (part: Json): number => {
    const start = asObject(asObject(part.state)?.time)?.start;
    return isNumber(start) ? start : Number.POSITIVE_INFINITY;
  };

  const flushTools = () => {
    // A stable sort: parts without a start time keep their arrival order, after the others.
    for (const part of [...pending].sort((a, b) => startOf(a) - startOf(b))) recordTool(part);
    pending = [];
  };

  const recordTool = (part: Json) => {
    const callID = part.callID as string;
    const state = asObject(part.state) ?? {};
    const time = asObject(state.time);
    const exit = asObject(state.metadata)?.exit;
    const failed = state.status === "error" || (typeof exit === "number" && exit !== 0);
    const tool = typeof part.tool === "string" ? part.tool : "unknown";
    builder.startTool(callID, tool, state.input ?? {}, {
      ...(isNumber(time?.start) ? { startedAt: new Date(time.start).toISOString() } : {}),
    });
    // Only a finished tool (`completed` or `error`) has a result.
    if (state.status !== "completed" && state.status !== "error") return;
    builder.endTool(callID, state.output ?? state.error, failed ? "error" : "ok", {
      ...(isNumber(time?.end) ? { endedAt: new Date(time.end).toISOString() } : {}),
      ...(typeof exit === "number" ? { extra: { exit_code: exit } } : {}),
    });
  };

  const onStepFinish = (part: Json) => {
    flushTools();
    const tokens = asObject(part.tokens);
    if (tokens !== undefined && isNumber(tokens.input) && isNumber(tokens.output)) {
      const cached = asObject(tokens.cache)?.read;
      const read = isNumber(cached) ? cached : 0;
      usage = {
        input: (usage?.input ?? 0) + tokens.input + read,
        output: (usage?.output ?? 0) + tokens.output,
        cached: (usage?.cached ?? 0) + read,
      };
    }
    if (isNumber(part.cost)) cost += part.cost;
  };

  return {
    push(line: string) {
      const event = parseEventLine(line);
      if (event === undefined) return;
      const part = asObject(event.part) ?? {};
      switch (event.type) {
        case "step_start":
          flushTools();
          builder.endTurn();
          turns++;
          step = lastStep = { text: "", calls: 0 };
          break;
        case "text":
          if (typeof part.text === "string") {
            builder.addText(part.text);
            if (step !== undefined) step.text += part.text;
          }
          break;
        case "tool_use":
          if (typeof part.callID !== "string") break;
          pending.push(part);
          if (step !== undefined) step.calls++;
          break;
        case "step_finish":
          onStepFinish(part);
          break;
        case "error": {
          const e = asObject(event.error);
          const message = asObject(e?.data)?.message ?? e?.name;
          error = typeof message === "string" && message.trim() !== ""
            ? message
            : "opencode failed";
          break;
        }
      }
    },
    finish(): AgentTrace {
      flushTools();
      const trace: AgentTrace = { output_messages: builder.messages() };
      if (error !== undefined) trace.error = error;
      else if (lastStep !== undefined && lastStep.calls === 0 && lastStep.text.trim() !== "") {
        trace.final_text = lastStep.text;
      }
      if (usage !== undefined) trace.usage = usage;
      if (cost > 0) trace.cost_usd = cost;
      if (turns > 0) trace.turns = turns;
      return trace;
    },
  };
}
