/**
 * Rows of a run of 5 cases × 6 trials, as a trials run writes them (interleaved, some cases'
 * trials out of order), each a full valid row: `steady` passes every trial, `broken` fails every
 * one, `coin` passes 3 of 6, `mostly` passes 5 and errors once, `never-ran` was skipped 6 times
 * (the budget ran out).
 *
 * @module
 */
import type { ResultRow } from "../../lib/schema/result.ts";

/** Each case's trial scores (`error` for an error row, `skipped` for a skipped one). */
const PLAN: Record<string, (number | "error" | "skipped")[]> = {
  steady: [1, 1, 1, 1, 1, 1],
  broken: [0, 0, 0, 0, 0, 0],
  coin: [1, 0, 1, 0, 1, 0],
  mostly: [1, 1, "error", 1, 1, 1],
  "never-ran": ["skipped", "skipped", "skipped", "skipped", "skipped", "skipped"],
};

function trialRow(id: string, trial: number, at: number): ResultRow {
  const planned = PLAN[id][trial];
  const score = typeof planned === "number" ? planned : 0;
  const ok = typeof planned === "number";
  const verdict = score >= 0.8 ? "pass" : "fail";
  const answer = ok && score === 1 ? `Thanks! (${id} #${trial})` : `No. (${id} #${trial})`;
  return {
    run_id: "r1",
    trial,
    timestamp: `2026-01-01T00:00:${String(at).padStart(2, "0")}.000Z`,
    eval_id: id,
    dataset: "shop",
    conversation_id: null,
    target: "default",
    status: ok ? "ok" : planned === "error" ? "error" : "skipped",
    score,
    verdict,
    hits: ok && score === 1 ? ["says thanks"] : [],
    misses: ok && score === 0 ? ["does not say thanks"] : [],
    reasoning: null,
    candidate_answer: answer,
    evaluator_results: ok
      ? [{
        name: "says-thanks",
        type: "contains",
        status: "ok",
        score,
        weight: 1,
        verdict,
        hits: score === 1 ? ["says thanks"] : [],
        misses: score === 0 ? ["does not say thanks"] : [],
      }]
      : [],
    trace_summary: ok
      ? { event_count: 1, tool_names: [], tool_calls_by_name: {}, error_count: 0, cost_usd: 0.001 }
      : null,
    output_messages: [{ role: "assistant", content: answer }],
    token_usage: ok ? { input: 10, output: 5 } : null,
    duration_ms: 100 + trial,
    attempts: ok ? 1 : planned === "error" ? 3 : 0,
    error: planned === "error" ? "HTTP 500 from http://127.0.0.1:9/v1" : null,
    input: [{ role: "user", content: `Say thanks (${id})` }],
    expected_outcome: "Says thanks",
  };
}

/** The 30 rows, trial by trial; odd cases' trials written last first. */
export function trialRows(): ResultRow[] {
  const ids = Object.keys(PLAN);
  const rows: ResultRow[] = [];
  for (let t = 0; t < 6; t++) {
    ids.forEach((id, i) => rows.push(trialRow(id, i % 2 === 1 ? 5 - t : t, rows.length)));
  }
  return rows;
}
