/**
 * The history store's tables, one schema for SQLite and PostgreSQL (only the column types of
 * numbers differ). Every table starts with `agentv_`, so a team store may share a database.
 *
 * - `agentv_runs`: one row per run (its list entry and its run record as JSON).
 * - `agentv_run_groups`: one row per run, dataset and target (the points of a trend).
 * - `agentv_results`: every result row as JSON, with the columns queries filter and sort on.
 * - `agentv_labels`: human labels, keyed by a hash of the label (re-importing adds nothing).
 * - `agentv_files`: the results files an index read (path, size, mtime, SHA-256 of the head), so
 *   an unchanged file is not read again.
 *
 * @module
 */
import type { SqlDialect } from "./sql_driver.ts";

/** The version of the store's schema, kept in `agentv_meta`. */
export const STORE_SCHEMA_VERSION = 1;

const FIGURES = (real: string) => `
  row_count INTEGER NOT NULL,
  scored INTEGER NOT NULL,
  passed INTEGER NOT NULL,
  borderline INTEGER NOT NULL,
  failed INTEGER NOT NULL,
  errors INTEGER NOT NULL,
  mean_score ${real},
  score_sd ${real},
  cost_usd ${real},
  duration_mean_ms ${real}`;

/**
 * The statements that create the store's tables and indexes (each `IF NOT EXISTS`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { schemaStatements } from "./schema_sql.ts";
 * assert.match(schemaStatements("postgres").join(";"), /DOUBLE PRECISION/);
 * ```
 */
export function schemaStatements(dialect: SqlDialect): string[] {
  const real = dialect === "postgres" ? "DOUBLE PRECISION" : "REAL";
  return [
    `CREATE TABLE IF NOT EXISTS agentv_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS agentv_runs (
      run_id TEXT PRIMARY KEY,
      source TEXT NOT NULL,
      agentv_version TEXT,
      status TEXT NOT NULL,
      started_at TEXT NOT NULL,
      ended_at TEXT,
      duration_ms ${real},
      datasets TEXT NOT NULL,
      targets TEXT NOT NULL,
      record_json TEXT,
      indexed_at TEXT NOT NULL,${FIGURES(real)}
    )`,
    `CREATE INDEX IF NOT EXISTS agentv_runs_started ON agentv_runs (started_at)`,
    `CREATE TABLE IF NOT EXISTS agentv_run_groups (
      run_id TEXT NOT NULL,
      dataset TEXT NOT NULL,
      target TEXT NOT NULL,
      started_at TEXT NOT NULL,${FIGURES(real)},
      PRIMARY KEY (run_id, dataset, target)
    )`,
    `CREATE INDEX IF NOT EXISTS agentv_run_groups_series
      ON agentv_run_groups (dataset, target, started_at)`,
    `CREATE TABLE IF NOT EXISTS agentv_results (
      run_id TEXT NOT NULL,
      dataset TEXT NOT NULL,
      eval_id TEXT NOT NULL,
      target TEXT NOT NULL,
      trial INTEGER NOT NULL,
      status TEXT NOT NULL,
      verdict TEXT NOT NULL,
      score ${real} NOT NULL,
      duration_ms ${real} NOT NULL,
      seq INTEGER NOT NULL,
      row_json TEXT NOT NULL,
      PRIMARY KEY (run_id, dataset, eval_id, target, trial)
    )`,
    `CREATE INDEX IF NOT EXISTS agentv_results_case ON agentv_results (dataset, eval_id, target)`,
    `CREATE TABLE IF NOT EXISTS agentv_labels (
      label_key TEXT PRIMARY KEY,
      run_id TEXT NOT NULL,
      dataset TEXT NOT NULL,
      eval_id TEXT NOT NULL,
      target TEXT NOT NULL,
      trial INTEGER NOT NULL,
      evaluator TEXT,
      label TEXT,
      score ${real},
      reviewer TEXT NOT NULL,
      note TEXT NOT NULL,
      labelled_at TEXT NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS agentv_labels_run ON agentv_labels (run_id)`,
    `CREATE TABLE IF NOT EXISTS agentv_files (
      path TEXT PRIMARY KEY,
      size ${real} NOT NULL,
      mtime_ms ${real},
      head_sha256 TEXT NOT NULL,
      record_size ${real},
      record_mtime_ms ${real},
      run_id TEXT
    )`,
  ];
}
