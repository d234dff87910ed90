/**
 * What the history store keeps of one run: its rows as they are, its run record, and figures
 * computed once when it is stored (the run's counts, mean score, cost and duration, and the same
 * per dataset and target: the points of a trend).
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { EvaluatorResult, ResultRow } from "../schema/result.ts";
import type { RunRecord } from "../schema/run_record.ts";

/** Counts and means over a set of rows (a run, or one dataset on one target in it). */
export interface RunFigures {
  /** Rows (case runs, trials counted one by one). */
  rows: number;
  /** Rows with `status: ok`. */
  scored: number;
  /** Scored rows with verdict `pass`. */
  passed: number;
  /** Scored rows with verdict `borderline`. */
  borderline: number;
  /** Scored rows with verdict `fail`. */
  failed: number;
  /** Rows with `status: error`. */
  errors: number;
  /** Mean score over the scored rows (null when none). */
  mean_score: number | null;
  /** Sample standard deviation of those scores (null below two). */
  score_sd: number | null;
  /** Target and judge cost in USD where reported (null when no row reported any). */
  cost_usd: number | null;
  /** Mean `duration_ms` of the rows (the target call's latency; null without rows). */
  duration_mean_ms: number | null;
}

/** One run as the run list shows it. */
export interface RunEntry extends RunFigures {
  /** The run id (the record's, else the rows', else derived from the file's head). */
  run_id: string;
  /** Where the run came from: its results file's path as recorded or found. */
  source: string;
  /** The agentv version that ran it (null without a run record). */
  agentv_version: string | null;
  /** The record's status (`finished`, `interrupted`, `failed`, `running`), or `unknown`. */
  status: string;
  /** When it started (ISO-8601, UTC). */
  started_at: string;
  /** When it ended (null while running, after a crash, or without a record). */
  ended_at: string | null;
  /** Wall time: ended − started, else the sum of the rows' durations. */
  duration_ms: number | null;
  /** Datasets of its rows, sorted. */
  datasets: string[];
  /** Targets of its rows, sorted. */
  targets: string[];
}

/** One dataset on one target within a run: a point of that series' trend. */
export interface RunGroup extends RunFigures {
  /** The run. */
  run_id: string;
  /** The dataset. */
  dataset: string;
  /** The target. */
  target: string;
  /** When the run started (the point's time). */
  started_at: string;
}

/** A run ready to be stored. */
export interface StoredRun {
  /** The run's list entry. */
  entry: RunEntry;
  /** Its groups, one per (dataset, target). */
  groups: RunGroup[];
  /** Its rows, in file order. */
  rows: ResultRow[];
  /** Its run record, when there is one. */
  record: RunRecord | null;
}

/** What {@link buildStoredRun} is given. */
export interface StoredRunInput {
  /** The valid rows of the results file. */
  rows: readonly ResultRow[];
  /** The run record beside it, when there is a valid one. */
  record: RunRecord | null;
  /** The results file's path (shown as the run's source). */
  source: string;
  /** The first bytes of the results file (names a run that has no id anywhere). */
  head?: Uint8Array;
}

/** An ISO-8601 UTC time for a date text, or undefined when it is not one. */
function isoTime(text: string | null | undefined): string | undefined {
  if (typeof text !== "string" || text === "") return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function judgeCost(results: readonly EvaluatorResult[] | undefined): number | undefined {
  let total: number | undefined;
  for (const r of results ?? []) {
    if (typeof r?.cost_usd === "number") total = (total ?? 0) + r.cost_usd;
    const nested = judgeCost(r?.evaluator_results);
    if (nested !== undefined) total = (total ?? 0) + nested;
  }
  return total;
}

/** The cost in USD a row reports (target and judges), or undefined when it reports none. */
export function rowCost(row: ResultRow): number | undefined {
  const target = row.trace_summary?.cost_usd;
  const judges = judgeCost(row.evaluator_results);
  if (typeof target !== "number" && judges === undefined) return undefined;
  return (typeof target === "number" ? target : 0) + (judges ?? 0);
}

/**
 * The figures of a set of rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ResultRow } from "../schema/result.ts";
 * import { figuresOf } from "./stored_run.ts";
 * const row = (score: number, verdict: string) =>
 *   ({ status: "ok", score, verdict, duration_ms: 10, evaluator_results: [] }) as unknown as ResultRow;
 * const f = figuresOf([row(1, "pass"), row(0.5, "fail")]);
 * assert.deepEqual([f.scored, f.passed, f.mean_score], [2, 1, 0.75]);
 * ```
 */
export function figuresOf(rows: readonly ResultRow[]): RunFigures {
  const scores: number[] = [];
  const figures: RunFigures = {
    rows: rows.length,
    scored: 0,
    passed: 0,
    borderline: 0,
    failed: 0,
    errors: 0,
    mean_score: null,
    score_sd: null,
    cost_usd: null,
    duration_mean_ms: null,
  };
  let duration = 0;
  for (const row of rows) {
    duration += row.duration_ms;
    const cost = rowCost(row);
    if (cost !== undefined) figures.cost_usd = (figures.cost_usd ?? 0) + cost;
    if (row.status === "error") figures.errors++;
    if (row.status !== "ok") continue;
    figures.scored++;
    scores.push(row.score);
    if (row.verdict === "pass") figures.passed++;
    else if (row.verdict === "borderline") figures.borderline++;
    else figures.failed++;
  }
  if (rows.length > 0) figures.duration_mean_ms = duration / rows.length;
  if (scores.length > 0) {
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    figures.mean_score = mean;
    if (scores.length > 1) {
      const ss = scores.reduce((a, s) => a + (s - mean) ** 2, 0);
      figures.score_sd = Math.sqrt(ss / (scores.length - 1));
    }
  }
  return figures;
}

/**
 * The run id of a results file: its record's, else its first row's, else `sha-` and the first 16
 * hex digits of the SHA-256 of its head (rows of the original tool carry no run id).
 */
export function runIdOf(input: StoredRunInput): string {
  if (input.record !== null) return input.record.run_id;
  const fromRows = input.rows.find((r) => typeof r.run_id === "string" && r.run_id !== "");
  if (fromRows?.run_id) return fromRows.run_id;
  const hash = createHash("sha256").update(input.head ?? new TextEncoder().encode(input.source));
  return `sha-${hash.digest("hex").slice(0, 16)}`;
}

/**
 * Builds what the store keeps of a run from its rows and record.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ResultRow } from "../schema/result.ts";
 * import { buildStoredRun } from "./stored_run.ts";
 * const row = { run_id: "r1", dataset: "qa", target: "t", status: "ok", score: 1, verdict: "pass",
 *   duration_ms: 5, timestamp: "2026-01-01T00:00:00Z", evaluator_results: [] } as unknown as ResultRow;
 * const run = buildStoredRun({ rows: [row], record: null, source: "r.jsonl" });
 * assert.deepEqual([run.entry.run_id, run.groups.length, run.entry.status], ["r1", 1, "unknown"]);
 * ```
 */
export function buildStoredRun(input: StoredRunInput): StoredRun {
  const { rows, record } = input;
  const run_id = runIdOf(input);
  const times = rows.map((r) => isoTime(r.timestamp)).filter((t) => t !== undefined).sort();
  const started_at = isoTime(record?.started_at) ?? times[0] ?? new Date(0).toISOString();
  const ended_at = isoTime(record?.ended_at) ?? null;
  const duration_ms = ended_at !== null
    ? Date.parse(ended_at) - Date.parse(started_at)
    : rows.length > 0
    ? rows.reduce((a, r) => a + r.duration_ms, 0)
    : null;
  const byGroup = new Map<string, ResultRow[]>();
  for (const row of rows) {
    const key = JSON.stringify([row.dataset, row.target]);
    const list = byGroup.get(key);
    if (list) list.push(row);
    else byGroup.set(key, [row]);
  }
  const groups: RunGroup[] = [...byGroup].map(([key, list]) => {
    const [dataset, target] = JSON.parse(key) as [string, string];
    return { run_id, dataset, target, started_at, ...figuresOf(list) };
  });
  const entry: RunEntry = {
    run_id,
    source: record?.results_path ?? input.source,
    agentv_version: record?.agentv_version ?? null,
    status: record?.status ?? "unknown",
    started_at,
    ended_at,
    duration_ms,
    datasets: [...new Set(rows.map((r) => r.dataset))].sort(),
    targets: [...new Set(rows.map((r) => r.target))].sort(),
    ...figuresOf(rows),
  };
  return { entry, groups, rows: [...rows], record };
}
