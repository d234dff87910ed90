/** Result rows for compare tests: only the keys compare reads, the rest filled with defaults. */
import type { EvaluatorResult, ResultRow, Verdict } from "../../lib/schema/result.ts";

/** What a test sets on a row. */
export interface RowSpec {
  /** Case id. */
  id: string;
  /** Case score. */
  score: number;
  /** Verdict (default: pass >= 0.8, borderline >= 0.6, else fail). */
  verdict?: Verdict;
  /** Dataset (default `ds`). */
  dataset?: string;
  /** Status (default `ok`). */
  status?: "ok" | "error";
  /** Evaluator scores by name (all `status: ok` unless the value is null: `status: error`). */
  evaluators?: Record<string, number | null>;
  /** Trial number (default 0). */
  trial?: number;
  /** Target (default `mock`). */
  target?: string;
  /** `duration_ms` (default 1). */
  ms?: number;
  /** `trace_summary.cost_usd` (default: none). */
  cost?: number;
  /** `token_usage` (default none). */
  tokens?: { input: number; output: number };
  /** The answer (default `answer`). */
  answer?: string;
}

function verdictOf(score: number): Verdict {
  return score >= 0.8 ? "pass" : score >= 0.6 ? "borderline" : "fail";
}

/** A full result row as agentv writes it. */
export function row(spec: RowSpec): ResultRow {
  const evaluator_results: EvaluatorResult[] = Object.entries(spec.evaluators ?? {}).map((
    [name, score],
  ) => ({
    name,
    type: "contains",
    status: score === null ? "error" : "ok",
    score: score ?? 0,
    weight: 1,
    verdict: verdictOf(score ?? 0),
    hits: [],
    misses: [],
  }));
  return {
    run_id: "run-1",
    trial: spec.trial ?? 0,
    timestamp: "2026-01-01T00:00:00.000Z",
    eval_id: spec.id,
    dataset: spec.dataset ?? "ds",
    conversation_id: null,
    target: spec.target ?? "mock",
    status: spec.status ?? "ok",
    score: spec.score,
    verdict: spec.verdict ?? verdictOf(spec.score),
    hits: [],
    misses: [],
    reasoning: null,
    candidate_answer: spec.answer ?? "answer",
    evaluator_results,
    trace_summary: spec.cost === undefined ? null : {
      event_count: 0,
      tool_names: [],
      tool_calls_by_name: {},
      error_count: 0,
      cost_usd: spec.cost,
    },
    output_messages: [],
    token_usage: spec.tokens ?? null,
    duration_ms: spec.ms ?? 1,
    attempts: 1,
    error: spec.status === "error" ? "boom" : null,
  } as ResultRow;
}

/** A JSONL results file of these rows. */
export function jsonl(specs: RowSpec[]): string {
  return specs.map((s) => JSON.stringify(row(s))).join("\n") + "\n";
}
