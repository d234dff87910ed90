/**
 * Runs for the history store, the viewer and `agentv trend`: real results files with their run
 * records, written as `agentv run` writes them (a row per case, a record beside the file).
 *
 * @module
 */
import { join } from "node:path";
import type { ResultRow } from "../../lib/schema/result.ts";
import type { RunRecord } from "../../lib/schema/run_record.ts";

/** What a fixture run is made of. */
export interface RunSpec {
  /** Run id. */
  runId: string;
  /** Start time (ISO). */
  startedAt: string;
  /** Dataset of every row (default `qa`). */
  dataset?: string;
  /** Target of every row (default `gpt`). */
  target?: string;
  /** One score per case `case-0`, `case-1`, ... (`null`: the case errored). */
  scores: (number | null)[];
  /** The answer of case i (default `answer i of <run id>`). */
  answer?: (i: number) => string;
  /** Extra keys of row i. */
  extra?: (i: number) => Partial<ResultRow>;
  /** The record's status (default `finished`); `null` writes no record. */
  status?: RunRecord["status"] | null;
  /** agentv version in the record (default `0.1.0`). */
  version?: string;
}

function verdictOf(score: number): ResultRow["verdict"] {
  return score >= 0.8 ? "pass" : score >= 0.6 ? "borderline" : "fail";
}

/** The rows of a fixture run. */
export function runRows(spec: RunSpec): ResultRow[] {
  return spec.scores.map((score, i) => {
    const answer = spec.answer?.(i) ?? `answer ${i} of ${spec.runId}`;
    return {
      run_id: spec.runId,
      trial: 0,
      timestamp: spec.startedAt,
      eval_id: `case-${i}`,
      dataset: spec.dataset ?? "qa",
      conversation_id: null,
      target: spec.target ?? "gpt",
      status: score === null ? "error" : "ok",
      score: score ?? 0,
      verdict: score === null ? "fail" : verdictOf(score),
      hits: [],
      misses: score !== null && score < 1 ? [`missed part of case ${i}`] : [],
      reasoning: null,
      candidate_answer: answer,
      evaluator_results: [{
        name: "judge",
        type: "llm_judge",
        status: score === null ? "error" : "ok",
        score: score ?? 0,
        weight: 1,
        verdict: score === null ? "fail" : verdictOf(score),
        hits: [],
        misses: [],
        reasoning: `judged case ${i}`,
        cost_usd: 0.001,
      }],
      trace_summary: null,
      output_messages: [{ role: "assistant", content: answer }],
      token_usage: { input: 10, output: 5 },
      duration_ms: 100 + i * 10,
      attempts: 1,
      error: score === null ? `HTTP 500 on case ${i}` : null,
      ...spec.extra?.(i),
    };
  });
}

/** The run record of a fixture run whose results file is `resultsPath`. */
export function runRecord(spec: RunSpec, resultsPath: string): RunRecord {
  const ended = new Date(Date.parse(spec.startedAt) + 60_000).toISOString();
  return {
    schema_version: 1,
    run_id: spec.runId,
    agentv_version: spec.version ?? "0.1.0",
    status: spec.status ?? "finished",
    started_at: spec.startedAt,
    ended_at: spec.status === "running" ? null : ended,
    results_path: resultsPath,
    options: {
      target: null,
      targets_file: null,
      judge_target: null,
      filter: null,
      workers: 4,
      timeout_ms: 60_000,
      dry_run: false,
      threshold: null,
      root: null,
    },
    targets: [{
      name: spec.target ?? "gpt",
      provider: "mock",
      model: null,
      endpoint: null,
      judge_target: null,
      targets_file: null,
    }],
    datasets: [],
    summary: null,
    error: null,
  };
}

/**
 * Writes a fixture run to `<dir>/<run id>.jsonl` (other characters than letters, digits, `.`, `_`
 * and `-` as `_`) and its record; returns the results path.
 */
export async function writeRun(dir: string, spec: RunSpec): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, `${spec.runId.replace(/[^A-Za-z0-9._-]+/g, "_")}.jsonl`);
  const rows = runRows(spec).map((r) => JSON.stringify(r)).join("\n") + "\n";
  await Deno.writeTextFile(path, rows);
  if (spec.status !== null) {
    await Deno.writeTextFile(`${path}.run.json`, JSON.stringify(runRecord(spec, path), null, 2));
  }
  return path;
}

/** An ISO time `day` days after 2026-01-01 at 10:00 UTC. */
export function day(n: number): string {
  return new Date(Date.UTC(2026, 0, 1 + n, 10)).toISOString();
}
