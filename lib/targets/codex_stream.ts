/**
 * Parses `codex exec --json` output (Codex 0.169's thread events), one line at a time:
 * - `item.started` / `item.updated` / `item.completed` carry one item each. Tool steps become tool
 *   calls: `command_execution` (tool `command_execution`, input `{command}`, output the command's
 *   `aggregated_output`, `status: error` when it `failed` or exited non-zero; the exit code is
 *   kept as `exit_code`), `file_change` (tool `file_change`, input `{changes: [{path, kind}]}`,
 *   paths inside the workspace relative to it),
 *   `mcp_tool_call` (tool named as the MCP tool, input its `arguments`, `server` kept), and
 *   `web_search` (input `{query}`). `agent_message` items are the assistant's text; the last one
 *   is the final answer. `reasoning`, `todo_list` and `error` items (Codex's non-fatal warnings,
 *   e.g. unknown model metadata) are left to the log.
 * - The stream has no timestamps: a step's `started_at` / `ended_at` are the times its
 *   `item.started` / `item.completed` lines arrived (so `duration_ms` is known for steps Codex
 *   announces when they start, e.g. commands).
 * - `turn.completed` adds its `usage` (`input_tokens`, `cached_input_tokens`, `output_tokens`);
 *   `turn.failed` gives the agent's error. A top-level `error` event (e.g. `Reconnecting... 1/5`)
 *   is the error only when no `turn.completed` follows it.
 * Unknown event and item types, and lines that are not JSON, are ignored here (the runner keeps
 * them in the log).
 *
 * @module
 */
import { isAbsolute, relative, sep } from "node:path";
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

/** Options of {@link createCodexStreamParser}. */
export interface CodexStreamParserOptions {
  /** Clock for the arrival times of items, in ms since the epoch (default `Date.now`). */
  now?: () => number;
  /**
   * The folder Codex runs in: `file_change` paths inside it are recorded relative to it (so
   * rows do not depend on where the workspace was), others as Codex gave them.
   */
  cwd?: string;
}

/** Item types that are tool steps, and the tool name each is recorded under. */
const TOOL_ITEMS: Readonly<Record<string, string>> = {
  command_execution: "command_execution",
  file_change: "file_change",
  web_search: "web_search",
};

/**
 * Creates a parser for one `codex exec --json` run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createCodexStreamParser } from "./codex_stream.ts";
 *
 * let clock = Date.parse("2026-01-01T00:00:00.000Z");
 * const p = createCodexStreamParser({ now: () => clock });
 * p.push('{"type":"turn.started"}');
 * p.push('{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}');
 * clock += 250;
 * p.push('{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"a.txt\\n","exit_code":0,"status":"completed"}}');
 * p.push('{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"Listed."}}');
 * p.push('{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":4,"output_tokens":3}}');
 * const trace = p.finish();
 * assert.equal(trace.final_text, "Listed.");
 * const call = trace.output_messages[0].tool_calls?.[0];
 * assert.equal(call?.output, "a.txt\n");
 * assert.equal(call?.duration_ms, 250);
 * assert.deepEqual(trace.usage, { input: 10, output: 3, cached: 4 });
 * ```
 */
export function createCodexStreamParser(options: CodexStreamParserOptions = {}): AgentStreamParser {
  const now = options.now ?? Date.now;
  const builder = new TraceBuilder();
  const exitCodes = new Map<string, number>();
  let callsInTurn = 0;
  let finalText: string | undefined;
  let usage: TokenUsage | undefined;
  let turns = 0;
  let failure: string | undefined;
  let pendingError: string | undefined;

  const onItem = (phase: "started" | "updated" | "completed", item: Json) => {
    const id = typeof item.id === "string" ? item.id : undefined;
    const type = typeof item.type === "string" ? item.type : "";
    if (type === "agent_message") {
      if (phase !== "completed" || typeof item.text !== "string") return;
      // Text after tool steps answers their results: a new assistant message.
      if (callsInTurn > 0) {
        builder.endTurn();
        callsInTurn = 0;
      }
      builder.addText(item.text);
      finalText = item.text;
      return;
    }
    const step = toolStep(type, item, options.cwd);
    if (step === undefined || id === undefined) return;
    const at = new Date(now()).toISOString();
    if (!builder.hasTool(id)) {
      builder.startTool(id, step.tool, step.input, {
        ...(phase === "started" ? { startedAt: at } : {}),
        ...(step.extra !== undefined ? { extra: step.extra } : {}),
      });
      callsInTurn++;
    } else if (phase !== "completed") {
      builder.startTool(id, step.tool, step.input);
    }
    if (phase !== "completed") return;
    builder.endTool(id, step.output, step.failed ? "error" : "ok", { endedAt: at });
    if (typeof item.exit_code === "number") exitCodes.set(id, item.exit_code);
  };

  return {
    push(line: string) {
      const event = parseEventLine(line);
      if (event === undefined) return;
      switch (event.type) {
        case "turn.started":
          turns++;
          break;
        case "item.started":
        case "item.updated":
        case "item.completed": {
          const item = asObject(event.item);
          if (item !== undefined) {
            onItem(event.type.slice("item.".length) as "started", item);
          }
          break;
        }
        case "turn.completed":
          usage = addUsage(usage, asObject(event.usage));
          pendingError = undefined;
          break;
        case "turn.failed":
          failure = agentMessage(asObject(event.error)?.message) ?? "Codex turn failed";
          break;
        case "error":
          pendingError = agentMessage(event.message) ?? pendingError;
          break;
      }
    },
    finish(): AgentTrace {
      const messages = builder.messages(failure === undefined ? finalText : undefined);
      for (const message of messages) {
        for (const call of message.tool_calls ?? []) {
          const code = call.id !== undefined ? exitCodes.get(call.id) : undefined;
          if (code !== undefined) call.exit_code = code;
        }
      }
      const trace: AgentTrace = { output_messages: messages };
      const error = failure ?? pendingError;
      if (error !== undefined) trace.error = error;
      else if (finalText !== undefined) trace.final_text = finalText;
      if (usage !== undefined) trace.usage = usage;
      if (turns > 0) trace.turns = turns;
      return trace;
    },
  };
}

interface Step {
  tool: string;
  input: unknown;
  output?: unknown;
  failed: boolean;
  extra?: Record<string, unknown>;
}

/** The tool step an item stands for, or `undefined` when it is not one. */
function toolStep(type: string, item: Json, cwd: string | undefined): Step | undefined {
  const status = typeof item.status === "string" ? item.status : "";
  const failedStatus = status === "failed" || status === "declined";
  switch (type) {
    case "command_execution": {
      const code = item.exit_code;
      return {
        tool: TOOL_ITEMS[type]!,
        input: { command: item.command },
        output: typeof item.aggregated_output === "string" ? item.aggregated_output : undefined,
        failed: failedStatus || (typeof code === "number" && code !== 0),
      };
    }
    case "file_change":
      return {
        tool: TOOL_ITEMS[type]!,
        input: {
          changes: asArray(item.changes).map((c) =>
            typeof c.path === "string" ? { ...c, path: workspacePath(c.path, cwd) } : c
          ),
        },
        output: status === "" ? undefined : status,
        failed: failedStatus,
      };
    case "web_search":
      return { tool: TOOL_ITEMS[type]!, input: { query: item.query }, failed: failedStatus };
    case "mcp_tool_call": {
      const error = asObject(item.error);
      const failed = failedStatus || error !== undefined;
      return {
        tool: typeof item.tool === "string" ? item.tool : "mcp_tool_call",
        input: item.arguments ?? {},
        output: error !== undefined ? error.message ?? error : item.result ?? undefined,
        failed,
        ...(typeof item.server === "string" ? { extra: { server: item.server } } : {}),
      };
    }
    default:
      return undefined;
  }
}

/** Adds a `turn.completed` usage to the running total. */
function addUsage(total: TokenUsage | undefined, usage: Json | undefined): TokenUsage | undefined {
  if (usage === undefined || !isNumber(usage.input_tokens) || !isNumber(usage.output_tokens)) {
    return total;
  }
  const cached = isNumber(usage.cached_input_tokens) ? usage.cached_input_tokens : undefined;
  return {
    input: (total?.input ?? 0) + usage.input_tokens,
    output: (total?.output ?? 0) + usage.output_tokens,
    ...(cached !== undefined || total?.cached !== undefined
      ? { cached: (total?.cached ?? 0) + (cached ?? 0) }
      : {}),
  };
}

/**
 * The agent's message: Codex passes API errors on as the raw JSON body
 * (`{"error":{"message":…}}`); the inner message is what the user needs.
 */
function agentMessage(value: unknown): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const text = value.trim();
  if (text.startsWith("{")) {
    try {
      const body = JSON.parse(text) as Json;
      const error = asObject(body.error);
      const inner = error?.message ?? body.message;
      if (typeof inner === "string" && inner.trim() !== "") return inner.trim();
    } catch { /* not JSON: the text itself */ }
  }
  return text;
}

/** `path` relative to `cwd` when it lies inside it (with `/` separators), else as it is. */
function workspacePath(path: string, cwd: string | undefined): string {
  if (cwd === undefined || !isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return path;
  return rel.split(sep).join("/");
}

function asArray(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(asObject).filter((v): v is Json => v !== undefined) : [];
}
