/**
 * What an agent CLI's event-stream parser produces (`claude-code`, `codex`), and a small builder
 * both parsers use to turn events into the row's `output_messages`: assistant text, and every
 * tool call with `id`, `tool`, `input`, `output`, `status` (`ok` | `error`) and, when the stream
 * gives them, `started_at` / `ended_at` / `duration_ms`. Tool results are paired with their call
 * by id and are never counted as calls; a result whose call was never seen is kept on a call of
 * its own (tool `unknown`) so nothing is lost.
 *
 * @module
 */
import type { OutputMessage, TokenUsage } from "../schema/result.ts";
import type { ToolCall } from "../schema/message.ts";

/** One tool call of an agent, as recorded in `output_messages[].tool_calls`. */
export interface AgentToolStep {
  /** The call id the stream gave it (pairs the call with its result). */
  id: string;
  /** Tool name as the agent called it (`Bash`, `Edit`, `exec_command`, ...). */
  tool: string;
  /** Arguments (any JSON value). */
  input: unknown;
  /** The tool's result, once the stream reported it. */
  output?: unknown;
  /** `error` when the tool reported a failure (`is_error`, non-zero exit code), else `ok`. */
  status: "ok" | "error";
  /** ISO time the call started, when the stream says. */
  started_at?: string;
  /** ISO time the call ended, when the stream says. */
  ended_at?: string;
  /** Duration in ms, when the stream gives it or both times are known. */
  duration_ms?: number;
}

/** Everything an agent run reported, ready to become a target response. */
export interface AgentTrace {
  /** Assistant messages in order; tool calls carry id/tool/input/output/status/times. */
  output_messages: OutputMessage[];
  /** The agent's final answer (also the content of the last assistant message). */
  final_text?: string;
  /** Token counts, when reported. */
  usage?: TokenUsage;
  /** Cost in USD, when the agent reports it (Claude's `total_cost_usd`). */
  cost_usd?: number;
  /** Agent turns, when reported. */
  turns?: number;
  /** Duration the agent reports for the whole run, in ms. */
  duration_ms?: number;
  /** The agent's own error message (an error event, or a final result flagged as an error). */
  error?: string;
}

/** Parses an agent's event stream line by line, as the lines arrive. */
export interface AgentStreamParser {
  /** Takes one stdout line (without its newline). Never throws on bad or unknown input. */
  push(line: string): void;
  /** The trace of everything pushed so far. */
  finish(): AgentTrace;
}

/** Options of {@link TraceBuilder.startTool}. */
export interface StartToolOptions {
  /** ISO start time. */
  startedAt?: string;
  /** Extra keys recorded on the call (e.g. `parent_id` of a sub-agent's call). */
  extra?: Record<string, unknown>;
}

/** Options of {@link TraceBuilder.endTool}. */
export interface EndToolOptions {
  /** ISO end time. */
  endedAt?: string;
  /** Duration in ms reported by the stream (else computed from the times, when both are known). */
  durationMs?: number;
  /** Tool name, used when the call was never seen (the result then gets a call of its own). */
  tool?: string;
  /** Extra keys recorded on the call (e.g. `error`: the tool's own error message). */
  extra?: Record<string, unknown>;
}

/**
 * Accumulates assistant text and tool calls into `output_messages`. Consecutive text and tool
 * calls of one assistant turn share a message; {@link TraceBuilder.endTurn} starts a new one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TraceBuilder } from "./agent_trace.ts";
 *
 * const b = new TraceBuilder();
 * b.startTool("t1", "Bash", { command: "ls" });
 * b.endTool("t1", "a.txt\n", "ok");
 * b.endTurn();
 * b.addText("Done.");
 * const messages = b.messages();
 * assert.equal(messages.length, 2);
 * assert.equal(messages[0].tool_calls?.[0].status, "ok");
 * assert.equal(messages[1].content, "Done.");
 * ```
 */
export class TraceBuilder {
  #messages: OutputMessage[] = [];
  #current: { texts: string[]; calls: ToolCall[] } | undefined;
  #calls = new Map<string, ToolCall>();

  /** Adds assistant text to the current turn (blank text is ignored). */
  addText(text: string): void {
    if (text.trim() === "") return;
    this.#turn().texts.push(text);
  }

  /**
   * Records a tool call (a second start with the same id updates its input, and gives it a start
   * time when it had none: an agent may announce a call before it runs it).
   */
  startTool(id: string, tool: string, input: unknown, options: StartToolOptions = {}): void {
    const known = this.#calls.get(id);
    if (known !== undefined) {
      known.tool = tool;
      known.input = input;
      if (options.startedAt !== undefined) known.started_at ??= options.startedAt;
      return;
    }
    const call: ToolCall = { ...options.extra, tool, input, id, status: "ok" };
    if (options.startedAt !== undefined) call.started_at = options.startedAt;
    this.#calls.set(id, call);
    this.#turn().calls.push(call);
  }

  /** Records the result of call `id`; a result without a call gets a call of its own. */
  endTool(id: string, output: unknown, status: "ok" | "error", options: EndToolOptions = {}): void {
    let call = this.#calls.get(id);
    if (call === undefined) {
      this.startTool(id, options.tool ?? "unknown", undefined);
      call = this.#calls.get(id)!;
    }
    if (output !== undefined) call.output = output;
    if (options.extra !== undefined) Object.assign(call, options.extra);
    call.status = status;
    if (options.endedAt !== undefined) call.ended_at = options.endedAt;
    const duration = options.durationMs ??
      durationBetween(call.started_at as string | undefined, options.endedAt);
    if (duration !== undefined) call.duration_ms = duration;
  }

  /** Whether a call with this id was recorded. */
  hasTool(id: string): boolean {
    return this.#calls.has(id);
  }

  /** Ends the current assistant turn: later text and calls go into a new message. */
  endTurn(): void {
    if (this.#current === undefined) return;
    const { texts, calls } = this.#current;
    const message: OutputMessage = { role: "assistant" };
    if (texts.length > 0) message.content = texts.join("\n");
    if (calls.length > 0) message.tool_calls = calls;
    this.#messages.push(message);
    this.#current = undefined;
  }

  /** The number of tool calls recorded. */
  get toolCount(): number {
    return this.#calls.size;
  }

  /**
   * The messages so far (the open turn included). With `finalText`, the last assistant message
   * carries it as content: appended as a message of its own unless the last message already
   * ends with exactly that text.
   */
  messages(finalText?: string): OutputMessage[] {
    this.endTurn();
    const out = [...this.#messages];
    if (finalText === undefined || finalText.trim() === "") return out;
    const last = out.at(-1);
    if (last !== undefined && last.tool_calls === undefined && typeof last.content === "string") {
      if (last.content === finalText || last.content.endsWith(`\n${finalText}`)) return out;
    }
    out.push({ role: "assistant", content: finalText });
    return out;
  }

  #turn(): { texts: string[]; calls: ToolCall[] } {
    return this.#current ??= { texts: [], calls: [] };
  }
}

/**
 * Milliseconds between two ISO times, or `undefined` when either is missing or unparsable (or
 * the end comes first).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { durationBetween } from "./agent_trace.ts";
 * assert.equal(durationBetween("2026-01-01T00:00:00.000Z", "2026-01-01T00:00:01.500Z"), 1500);
 * ```
 */
export function durationBetween(start?: string, end?: string): number | undefined {
  if (start === undefined || end === undefined) return undefined;
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** A JSON object of an agent's stream. */
export type Json = Record<string, unknown>;

/** `value` when it is a JSON object (not `null`, not an array), else `undefined`. */
export function asObject(value: unknown): Json | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Json
    : undefined;
}

/** Whether `value` is a finite number (token counts, costs and times in a stream). */
export function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/**
 * Parses one stream line as a JSON object; `undefined` for a blank line, a line that is not JSON,
 * or JSON that is not an object (callers keep such lines in the log and go on).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseEventLine } from "./agent_trace.ts";
 * assert.deepEqual(parseEventLine('{"type":"x"}'), { type: "x" });
 * assert.equal(parseEventLine("Loading..."), undefined);
 * ```
 */
export function parseEventLine(line: string): Record<string, unknown> | undefined {
  const text = line.trim();
  if (!text.startsWith("{")) return undefined;
  try {
    const value = JSON.parse(text);
    return asObject(value);
  } catch {
    return undefined;
  }
}

/**
 * Tool-call statistics of a trace: calls, and calls whose status is `error`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countToolSteps } from "./agent_trace.ts";
 * assert.deepEqual(
 *   countToolSteps([{ role: "assistant", tool_calls: [{ tool: "Bash", status: "error" }] }]),
 *   { calls: 1, errors: 1 },
 * );
 * ```
 */
export function countToolSteps(messages: readonly OutputMessage[]): {
  calls: number;
  errors: number;
} {
  let calls = 0;
  let errors = 0;
  for (const m of messages) {
    for (const c of m.tool_calls ?? []) {
      calls++;
      if (c.status === "error") errors++;
    }
  }
  return { calls, errors };
}
