/**
 * Reading a target's output: the candidate answer, the trace summary, and lenient JSON parsing
 * of model replies.
 *
 * @module
 */
import type { OutputMessage, TokenUsage, TraceSummary } from "../schema/result.ts";

/**
 * The candidate answer: the content of the last assistant message that has content. A string is
 * used as is, anything else is compact JSON; assistant messages carrying only tool calls are
 * skipped. No such message → `""`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { candidateAnswer } from "./answer.ts";
 * const answer = candidateAnswer([
 *   { role: "assistant", content: "Paris" },
 *   { role: "assistant", tool_calls: [{ tool: "search" }] },
 * ]);
 * assert.equal(answer, "Paris");
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
  /** Agent turns, when the agent reports them. */
  turns?: number;
}

/**
 * True when a tool call reports an error (a truthy `error` key or `status: "error"`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isErrorCall } from "./answer.ts";
 * assert.equal(isErrorCall({ tool: "Bash", status: "error" }), true);
 * assert.equal(isErrorCall({ tool: "Bash" }), false);
 * ```
 */
export function isErrorCall(call: Record<string, unknown>): boolean {
  return Boolean(call.error) || call.status === "error";
}

/**
 * Summarises a trace: tool call count, distinct tool names (sorted), calls per tool name (names
 * as-is, never re-cased), tool calls that report an error, plus the given metrics.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summarizeTrace } from "./answer.ts";
 * const s = summarizeTrace(
 *   [{ role: "assistant", tool_calls: [{ tool: "knowledgeSearch" }, { tool: "knowledgeSearch" }] }],
 *   { duration_ms: 120 },
 * );
 * assert.deepEqual(s.tool_calls_by_name, { knowledgeSearch: 2 });
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
    ...(metrics.turns !== undefined ? { turns: metrics.turns } : {}),
  };
}

/**
 * Returns the JSON values found in a judge's text, most likely first: the whole text, the
 * contents of code fences, the span from the first `{` to the last `}`, then every balanced
 * `{...}` object in order. Only objects are returned.
 *
 * @example
 * ```ts
 * import { extractJsonCandidates } from "./answer.ts";
 * const fence = "`".repeat(3);
 * const found = extractJsonCandidates(`Sure! ${fence}json\n{"score": 1}\n${fence} Hope it helps.`);
 * if (JSON.stringify(found[0]) !== '{"score":1}') throw new Error(JSON.stringify(found));
 * ```
 */
export function extractJsonCandidates(text: string): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  const tryParse = (snippet: string) => {
    const s = snippet.trim();
    if (s === "" || seen.has(s)) return;
    seen.add(s);
    try {
      const value = JSON.parse(s);
      if (value !== null && typeof value === "object" && !Array.isArray(value)) found.push(value);
    } catch {
      // not JSON; other candidates may be
    }
  };
  tryParse(text);
  for (const m of text.matchAll(/```[A-Za-z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/g)) tryParse(m[1]);
  const first = text.indexOf("{");
  const last = text.lastIndexOf("}");
  if (first !== -1 && last > first) tryParse(text.slice(first, last + 1));
  for (const span of balancedObjects(text)) tryParse(span);
  return found;
}

/** Every top-level balanced `{...}` span of `text` (string literals respected). */
function balancedObjects(text: string): string[] {
  const spans: string[] = [];
  let i = text.indexOf("{");
  while (i !== -1 && spans.length < 50) {
    const end = matchBrace(text, i);
    if (end === -1) {
      i = text.indexOf("{", i + 1);
      continue;
    }
    spans.push(text.slice(i, end + 1));
    i = text.indexOf("{", end + 1);
  }
  return spans;
}

function matchBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/**
 * Parses a JSON object out of a model reply: the most likely of {@link extractJsonCandidates}
 * (the whole text, a ``` fence, the first `{` to the last `}`, a balanced `{...}`). Returns
 * `undefined` when nothing parses as a JSON object (a bare array or number is not an object).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonLenient } from "./answer.ts";
 * assert.deepEqual(parseJsonLenient('Sure!\n```json\n{"score": 0.9}\n```'), { score: 0.9 });
 * assert.equal(parseJsonLenient("no json here"), undefined);
 * ```
 */
export function parseJsonLenient(text: string): Record<string, unknown> | undefined {
  return extractJsonCandidates(text)[0];
}
