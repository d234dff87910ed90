/**
 * Reading a target's output: the candidate answer, the trace summary, and lenient JSON parsing
 * of model replies.
 *
 * @module
 */
import type { OutputMessage, TokenUsage, TraceSummary } from "../schema/result.ts";
import { isPlainObject } from "./match.ts";

/**
 * The candidate answer: the content of the last assistant message that has content. A string is
 * used as is, anything else is compact JSON; assistant messages carrying only tool calls are
 * skipped. No such message → `""`.
 *
 * @example
 * ```ts
 * import { candidateAnswer } from "./answer.ts";
 * candidateAnswer([
 *   { role: "assistant", content: "Paris" },
 *   { role: "assistant", tool_calls: [{ tool: "search" }] },
 * ]); // "Paris"
 * ```
 */
export function candidateAnswer(outputMessages: readonly OutputMessage[]): string {
  for (let i = outputMessages.length - 1; i >= 0; i--) {
    const m = outputMessages[i];
    if (m.role !== "assistant" || m.content === undefined || m.content === null) continue;
    return typeof m.content === "string" ? m.content : JSON.stringify(m.content);
  }
  return "";
}

/** Metrics a target reported (or the runner measured) for one call. */
export interface TraceMetrics {
  /** Token counts. */
  token_usage?: TokenUsage;
  /** Cost in USD. */
  cost_usd?: number;
  /** Duration in milliseconds. */
  duration_ms?: number;
}

/** True when a tool call reports an error (a truthy `error` key or `status: "error"`). */
function isErrorCall(call: Record<string, unknown>): boolean {
  return Boolean(call.error) || call.status === "error";
}

/**
 * Summarises a trace: tool call count, distinct tool names (sorted), calls per tool name (names
 * as-is, never re-cased), tool calls that report an error, plus the given metrics.
 *
 * @example
 * ```ts
 * import { summarizeTrace } from "./answer.ts";
 * const s = summarizeTrace(
 *   [{ role: "assistant", tool_calls: [{ tool: "knowledgeSearch" }, { tool: "knowledgeSearch" }] }],
 *   { duration_ms: 120 },
 * );
 * s.tool_calls_by_name; // { knowledgeSearch: 2 }
 * ```
 */
export function summarizeTrace(
  outputMessages: readonly OutputMessage[],
  metrics: TraceMetrics = {},
): TraceSummary {
  const byName: Record<string, number> = {};
  let events = 0;
  let errors = 0;
  for (const m of outputMessages) {
    for (const call of m.tool_calls ?? []) {
      events++;
      byName[call.tool] = (byName[call.tool] ?? 0) + 1;
      if (isErrorCall(call)) errors++;
    }
  }
  return {
    event_count: events,
    tool_names: Object.keys(byName).sort(),
    tool_calls_by_name: byName,
    error_count: errors,
    ...(metrics.token_usage !== undefined ? { token_usage: metrics.token_usage } : {}),
    ...(metrics.cost_usd !== undefined ? { cost_usd: metrics.cost_usd } : {}),
    ...(metrics.duration_ms !== undefined ? { duration_ms: metrics.duration_ms } : {}),
  };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const FENCE = /```[A-Za-z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```/;

/**
 * Parses a JSON object out of a model reply: the whole text, else the content of the first
 * ``` fence, else the span from the first `{` to the last `}`. Returns `undefined` when nothing
 * parses as a JSON object (a reply that is a bare array or number is not an object).
 *
 * @example
 * ```ts
 * import { parseJsonLenient } from "./answer.ts";
 * parseJsonLenient('Sure!\n```json\n{"score": 0.9}\n```'); // { score: 0.9 }
 * parseJsonLenient("no json here"); // undefined
 * ```
 */
export function parseJsonLenient(text: string): Record<string, unknown> | undefined {
  const candidates: string[] = [text.trim()];
  const fence = FENCE.exec(text);
  if (fence) candidates.push(fence[1].trim());
  for (const source of [...candidates]) {
    const first = source.indexOf("{");
    const last = source.lastIndexOf("}");
    if (first !== -1 && last > first) candidates.push(source.slice(first, last + 1));
  }
  for (const candidate of candidates) {
    const parsed = tryParse(candidate);
    if (parsed.ok && isPlainObject(parsed.value)) return parsed.value;
  }
  return undefined;
}
