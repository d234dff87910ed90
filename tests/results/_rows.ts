/** Result rows for report tests. */
import type { ResultRow } from "../../lib/schema/result.ts";

/** A scored row with the given id and score (verdict from the score). */
export function row(id: string, score: number, extra: Partial<ResultRow> = {}): ResultRow {
  return {
    run_id: "2026-01-21T10-00-00-000Z-00000000",
    trial: 0,
    timestamp: "2026-01-21T10:00:00.000Z",
    eval_id: id,
    dataset: "ds",
    conversation_id: null,
    target: "default",
    status: "ok",
    score,
    verdict: score >= 0.8 ? "pass" : score >= 0.6 ? "borderline" : "fail",
    hits: [],
    misses: [],
    reasoning: null,
    candidate_answer: "answer",
    evaluator_results: [],
    trace_summary: null,
    output_messages: [],
    token_usage: null,
    duration_ms: 10,
    attempts: 1,
    error: null,
    ...extra,
  };
}
