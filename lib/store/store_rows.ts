/**
 * How the history store's records map to table rows and back: the column lists of
 * `agentv_runs`, `agentv_run_groups`, `agentv_results` and `agentv_files`, and the readers of
 * their rows (numbers come back as numbers from SQLite and PostgreSQL alike).
 *
 * @module
 */
import { expandRow } from "../results/row_format.ts";
import type { ResultRow } from "../schema/result.ts";
import type { FileEntry } from "./store_types.ts";
import type { SqlRow, SqlValue } from "./sql_driver.ts";
import type { RunEntry, RunFigures, RunGroup } from "./stored_run.ts";

/** The figure columns every run and group row has. */
export const FIGURE_COLUMNS = [
  "row_count",
  "scored",
  "passed",
  "borderline",
  "failed",
  "errors",
  "mean_score",
  "score_sd",
  "cost_usd",
  "duration_mean_ms",
] as const;

/** Columns of the table. */
export const RUN_COLUMNS: readonly string[] = [
  "run_id",
  "source",
  "agentv_version",
  "status",
  "started_at",
  "ended_at",
  "duration_ms",
  "datasets",
  "targets",
  "record_json",
  "indexed_at",
  ...FIGURE_COLUMNS,
];

/** Columns of the table. */
export const GROUP_COLUMNS: readonly string[] = [
  "run_id",
  "dataset",
  "target",
  "started_at",
  ...FIGURE_COLUMNS,
];

/** Columns of the table. */
export const RESULT_COLUMNS: readonly string[] = [
  "run_id",
  "dataset",
  "eval_id",
  "target",
  "trial",
  "status",
  "verdict",
  "score",
  "duration_ms",
  "seq",
  "row_json",
];

/** See the module doc. */
export function figureValues(f: RunFigures): SqlValue[] {
  return [
    f.rows,
    f.scored,
    f.passed,
    f.borderline,
    f.failed,
    f.errors,
    f.mean_score,
    f.score_sd,
    f.cost_usd,
    f.duration_mean_ms,
  ];
}

/** See the module doc. */
export function figuresOfRow(r: SqlRow): RunFigures {
  const n = (v: SqlValue) => (v === null ? null : Number(v));
  return {
    rows: Number(r.row_count),
    scored: Number(r.scored),
    passed: Number(r.passed),
    borderline: Number(r.borderline),
    failed: Number(r.failed),
    errors: Number(r.errors),
    mean_score: n(r.mean_score),
    score_sd: n(r.score_sd),
    cost_usd: n(r.cost_usd),
    duration_mean_ms: n(r.duration_mean_ms),
  };
}

/** See the module doc. */
export function entryOfRow(r: SqlRow): RunEntry {
  return {
    run_id: String(r.run_id),
    source: String(r.source),
    agentv_version: r.agentv_version === null ? null : String(r.agentv_version),
    status: String(r.status),
    started_at: String(r.started_at),
    ended_at: r.ended_at === null ? null : String(r.ended_at),
    duration_ms: r.duration_ms === null ? null : Number(r.duration_ms),
    datasets: JSON.parse(String(r.datasets)),
    targets: JSON.parse(String(r.targets)),
    ...figuresOfRow(r),
  };
}

/** See the module doc. */
export function groupOfRow(r: SqlRow): RunGroup {
  return {
    run_id: String(r.run_id),
    dataset: String(r.dataset),
    target: String(r.target),
    started_at: String(r.started_at),
    ...figuresOfRow(r),
  };
}

/** See the module doc. */
export function rowOfJson(text: SqlValue): ResultRow {
  return expandRow(JSON.parse(String(text)) as ResultRow);
}

/** Columns of the table. */
export const FILE_COLUMNS: readonly string[] = [
  "path",
  "size",
  "mtime_ms",
  "head_sha256",
  "record_size",
  "record_mtime_ms",
  "run_id",
];

/** See the module doc. */
export function fileOfRow(r: SqlRow): FileEntry {
  const n = (v: SqlValue) => (v === null ? null : Number(v));
  return {
    path: String(r.path),
    size: Number(r.size),
    mtime_ms: n(r.mtime_ms),
    head_sha256: String(r.head_sha256),
    record_size: n(r.record_size),
    record_mtime_ms: n(r.record_mtime_ms),
    run_id: r.run_id === null ? null : String(r.run_id),
  };
}
