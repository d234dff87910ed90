/**
 * Parses pi's `--mode json` output (pi 0.73), one line at a time:
 * - each `message_end` of an `assistant` message is one model response (a turn): its `text`
 *   blocks are the assistant's text, its `toolCall` blocks (`id`, `name`, `arguments`) its tool
 *   calls, its `usage` is added to the run's (`input` is the uncached part: `cacheRead` and
 *   `cacheWrite` are added back, `cacheRead` kept as `cached`) and its `usage.cost.total` to the
 *   cost (what pi priced from the model's `cost` in its catalogue; a total of 0 is not reported,
 *   so the target's `pricing` applies). The text of the last response, when it calls no tool, is
 *   the final answer; a last response with `stopReason` `error` or `aborted` is the agent's
 *   error (its `errorMessage`);
 * - `tool_execution_start` / `tool_execution_end` bracket each tool's run: they carry no
 *   timestamps, so the call is timed by their arrival (`now`); `isError` gives the status, the
 *   text blocks of `result.content` the output, and a shell command's `Command exited with code N`
 *   (pi's own line at the end of a failed `bash` result) the `exit_code`.
 * The streaming `message_update` events, the session header, `agent_end` (which repeats every
 * message) and lines that are not JSON are ignored here (the runner keeps them in the log).
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

/** Options of {@link createPiStreamParser}. */
export interface PiStreamParserOptions {
  /** The clock the tool calls are timed by (default `Date.now`). */
  now?: () => number;
}

/** pi's own last line of a failed shell command's result. */
const EXIT_LINE = /Command exited with code (\d+)\s*$/;

/**
 * Creates a parser for one pi run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPiStreamParser } from "./pi_stream.ts";
 *
 * let clock = 1_000;
 * const p = createPiStreamParser({ now: () => clock });
 * const usage = { input: 8, output: 3, cacheRead: 2, cacheWrite: 0, cost: { total: 0 } };
 * p.push(JSON.stringify({ type: "message_end", message: { role: "assistant", usage, stopReason: "toolUse",
 *   content: [{ type: "toolCall", id: "t1", name: "bash", arguments: { command: "ls" } }] } }));
 * p.push('{"type":"tool_execution_start","toolCallId":"t1","toolName":"bash","args":{"command":"ls"}}');
 * clock += 250;
 * p.push('{"type":"tool_execution_end","toolCallId":"t1","toolName":"bash","result":{"content":[{"type":"text","text":"a.txt\\n"}]},"isError":false}');
 * p.push(JSON.stringify({ type: "message_end", message: { role: "assistant", usage, stopReason: "stop",
 *   content: [{ type: "text", text: "Listed." }] } }));
 * const trace = p.finish();
 * assert.equal(trace.final_text, "Listed.");
 * assert.equal(trace.output_messages[0].tool_calls?.[0].duration_ms, 250);
 * assert.deepEqual(trace.usage, { input: 20, output: 6, cached: 4 });
 * assert.equal(trace.turns, 2);
 * ```
 */
export function createPiStreamParser(options: PiStreamParserOptions = {}): AgentStreamParser {
  const now = options.now ?? Date.now;
  const builder = new TraceBuilder();
  let last: { text: string; calls: number; error?: string } | undefined;
  let turns = 0;
  let usage: TokenUsage | undefined;
  let cost = 0;
  const at = () => new Date(now()).toISOString();

  const onAssistant = (message: Json) => {
    builder.endTurn();
    turns++;
    const blocks = Array.isArray(message.content) ? message.content.map(asObject) : [];
    let text = "";
    let calls = 0;
    for (const block of blocks) {
      if (block?.type === "text" && typeof block.text === "string") {
        builder.addText(block.text);
        text += block.text;
      } else if (block?.type === "toolCall" && typeof block.id === "string") {
        const tool = typeof block.name === "string" ? block.name : "unknown";
        builder.startTool(block.id, tool, block.arguments ?? {});
        calls++;
      }
    }
    const stop = message.stopReason;
    const failed = stop === "error" || stop === "aborted";
    const reason = typeof message.errorMessage === "string" && message.errorMessage.trim() !== ""
      ? message.errorMessage
      : `pi stopped (${String(stop)})`;
    last = { text, calls, ...(failed ? { error: reason } : {}) };
    addUsage(asObject(message.usage));
  };

  const addUsage = (reported: Json | undefined) => {
    if (reported === undefined || !isNumber(reported.input) || !isNumber(reported.output)) return;
    const read = isNumber(reported.cacheRead) ? reported.cacheRead : 0;
    const write = isNumber(reported.cacheWrite) ? reported.cacheWrite : 0;
    usage = {
      input: (usage?.input ?? 0) + reported.input + read + write,
      output: (usage?.output ?? 0) + reported.output,
      cached: (usage?.cached ?? 0) + read,
    };
    const total = asObject(reported.cost)?.total;
    if (isNumber(total)) cost += total;
  };

  const onToolEnd = (event: Json) => {
    const id = event.toolCallId as string;
    const output = resultText(asObject(event.result));
    const exit = typeof output === "string" ? EXIT_LINE.exec(output)?.[1] : undefined;
    builder.endTool(id, output, event.isError === true ? "error" : "ok", {
      endedAt: at(),
      ...(typeof event.toolName === "string" ? { tool: event.toolName } : {}),
      ...(exit !== undefined ? { extra: { exit_code: Number(exit) } } : {}),
    });
  };

  return {
    push(line: string) {
      const event = parseEventLine(line);
      if (event === undefined) return;
      switch (event.type) {
        case "message_end": {
          const message = asObject(event.message);
          if (message?.role === "assistant") onAssistant(message);
          break;
        }
        case "tool_execution_start":
          if (typeof event.toolCallId !== "string") break;
          builder.startTool(
            event.toolCallId,
            typeof event.toolName === "string" ? event.toolName : "unknown",
            event.args ?? {},
            { startedAt: at() },
          );
          break;
        case "tool_execution_end":
          if (typeof event.toolCallId === "string") onToolEnd(event);
          break;
      }
    },
    finish(): AgentTrace {
      const trace: AgentTrace = { output_messages: builder.messages() };
      if (last?.error !== undefined) trace.error = last.error;
      else if (last !== undefined && last.calls === 0 && last.text.trim() !== "") {
        trace.final_text = last.text;
      }
      if (usage !== undefined) trace.usage = usage;
      if (cost > 0) trace.cost_usd = cost;
      if (turns > 0) trace.turns = turns;
      return trace;
    },
  };
}

/** The text of a tool result (`content` text blocks joined), else the result itself. */
function resultText(result: Json | undefined): unknown {
  if (result === undefined) return undefined;
  if (!Array.isArray(result.content)) return result;
  const texts = result.content.map(asObject)
    .filter((b) => b?.type === "text" && typeof b.text === "string")
    .map((b) => b!.text as string);
  return texts.length > 0 ? texts.join("\n") : result;
}
