/**
 * Result rows for the HTML report tests: ordinary rows with a full trace, a hostile one and one
 * with shapes no writer produces.
 *
 * @module
 */
import type { ResultRow } from "../../lib/schema/result.ts";

/** Text that would run script if it reached the page as HTML. */
export const HOSTILE = "</script><img src=x onerror=alert(1)>";
/** How many ordinary rows {@link allRows} makes. */
export const CASES = 10_000;
// The datasets the rows cycle through.
const DATASETS = ["alpha", "beta", "gamma"];

/** The verdict the run would give `score`. */
export function verdictOf(score: number): ResultRow["verdict"] {
  return score >= 0.8 ? "pass" : score >= 0.6 ? "borderline" : "fail";
}

/** A row with a full trace: a tool call with input and output, then the answer. */
export function makeRow(i: number, extra: Partial<ResultRow> = {}): ResultRow {
  const score = ((i * 37) % 101) / 100;
  const error = i % 97 === 5;
  const answer = i % 7 === 3 ? `The zebra answer for case ${i}` : `Answer for case ${i}`;
  return {
    run_id: "run-1",
    trial: 0,
    timestamp: "2026-01-21T10:00:00.000Z",
    eval_id: `case-${String(i).padStart(5, "0")}`,
    dataset: DATASETS[i % 3],
    conversation_id: null,
    target: "mock",
    status: error ? "error" : "ok",
    score: error ? 0 : score,
    verdict: error ? "fail" : verdictOf(score),
    hits: [`mentions order ${i}`],
    misses: score < 1 ? [`missing detail ${i}`] : [],
    reasoning: null,
    candidate_answer: answer,
    evaluator_results: [{
      name: "contains-check",
      type: "contains",
      status: "ok",
      score,
      weight: 1,
      verdict: verdictOf(score),
      hits: [`mentions order ${i}`],
      misses: score < 1 ? [`missing detail ${i}`] : [],
      reasoning: `reasoning of case ${i}`,
    }],
    trace_summary: null,
    output_messages: [
      {
        role: "assistant",
        tool_calls: [{
          tool: "lookup_order",
          id: `call-${i}`,
          input: { order_id: `ORD-${i}` },
          output: { state: `shipped-${i}` },
        }],
      },
      { role: "assistant", content: answer },
    ],
    token_usage: { input: 10, output: 5 },
    duration_ms: 100 + i,
    attempts: 1,
    error: error ? `HTTP 500 on case ${i}` : null,
    ...extra,
  };
}

/** A row whose every text field is hostile markup. */
export const hostile = makeRow(CASES, {
  eval_id: HOSTILE,
  dataset: "<b>hostile</b>",
  candidate_answer: `${HOSTILE}\u2028<script>alert(2)</script>&amp;`,
  output_messages: [{
    role: "assistant",
    tool_calls: [{ tool: "<img src=y onerror=alert(3)>", input: { q: HOSTILE } }],
  }],
});

/** A row whose optional parts have shapes no writer produces (read from a foreign file). */
export const oddShapes = makeRow(CASES + 1, {
  eval_id: "odd-shapes",
  status: "constructor" as ResultRow["status"],
  hits: [{ nested: true }] as unknown as string[],
  evaluator_results: [null, { name: { x: 1 }, score: "high" }] as unknown as ResultRow[
    "evaluator_results"
  ],
  output_messages: [null, "plain text", {
    role: "tool",
    tool_calls: [null],
  }] as unknown as ResultRow["output_messages"],
  token_usage: "many" as unknown as ResultRow["token_usage"],
});

/** {@link CASES} rows plus the hostile and the odd-shaped one. */
export function allRows(): ResultRow[] {
  const rows = Array.from({ length: CASES }, (_, i) => makeRow(i));
  rows.push(hostile, oddShapes);
  return rows;
}
