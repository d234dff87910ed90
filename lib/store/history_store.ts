/**
 * The history store: every run agentv has indexed or been pushed, its rows, the figures of its
 * trends and the human labels, over one {@link SqlDriver} (embedded SQLite or a PostgreSQL team
 * store; the same schema and the same statements). Nothing in it is the only copy of anything:
 * it is built from results files, run records and `.agentv/labels.jsonl`, and can be rebuilt.
 *
 * @module
 */
import type { Label } from "../schema/label.ts";
import type { ResultRow } from "../schema/result.ts";
import { AgentvError } from "../errors/agentv_error.ts";
import { compactRow } from "../results/row_format.ts";
import { schemaStatements, STORE_SCHEMA_VERSION } from "./schema_sql.ts";
import type { SqlDriver, SqlValue } from "./sql_driver.ts";
import type { RunEntry, RunGroup, StoredRun } from "./stored_run.ts";
import type {
  CaseRunHistory,
  FileEntry,
  RunDetail,
  RunFilter,
  SeriesKey,
  StoreFacets,
} from "./store_types.ts";
import {
  entryOfRow,
  figureValues,
  FILE_COLUMNS,
  fileOfRow,
  GROUP_COLUMNS,
  groupOfRow,
  RESULT_COLUMNS,
  rowOfJson,
  RUN_COLUMNS,
} from "./store_rows.ts";
import { LABEL_COLUMNS, labelKey, labelOf, labelValues } from "./store_labels.ts";

export type {
  CaseRunHistory,
  FileEntry,
  RunDetail,
  RunFilter,
  SeriesKey,
  StoreFacets,
} from "./store_types.ts";

/** The end of a `to` date: the next day for a bare date, else the time itself. */
function endOf(to: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(to)) return to;
  const next = new Date(`${to}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

/** The history store over a driver; open one with `openHistoryStore`. */
export class HistoryStore {
  /** The database connection. */
  readonly driver: SqlDriver;

  private constructor(driver: SqlDriver) {
    this.driver = driver;
  }

  /**
   * Creates the tables when missing and checks the schema version. Throws an
   * {@link AgentvError} when the store was written by a newer agentv.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { openSqliteDriver } from "./sqlite_driver.ts";
   * import { HistoryStore } from "./history_store.ts";
   * const store = await HistoryStore.open(openSqliteDriver(":memory:"));
   * assert.deepEqual(await store.listRuns(), []);
   * await store.close();
   * ```
   */
  static async open(driver: SqlDriver): Promise<HistoryStore> {
    await driver.transaction(async (tx) => {
      // Many CI jobs may create the team store at once: one at a time.
      if (tx.dialect === "postgres") await tx.run("SELECT pg_advisory_xact_lock(4242023)");
      for (const statement of schemaStatements(tx.dialect)) await tx.exec(statement);
      const rows = await tx.all("SELECT value FROM agentv_meta WHERE key = ?", [
        "schema_version",
      ]);
      const found = rows.length === 0 ? undefined : Number(rows[0].value);
      if (found === undefined) {
        await tx.run("INSERT INTO agentv_meta (key, value) VALUES (?, ?)", [
          "schema_version",
          String(STORE_SCHEMA_VERSION),
        ]);
      } else if (found > STORE_SCHEMA_VERSION) {
        throw new AgentvError(
          "store_version",
          `The history store ${driver.location} has schema version ${found}; this agentv reads ${STORE_SCHEMA_VERSION}`,
          { hint: "upgrade agentv, or point --store at another store" },
        );
      }
    });
    return new HistoryStore(driver);
  }

  /** Stores a run, replacing what the store held under its id (so storing twice is a no-op). */
  async putRun(run: StoredRun, indexedAt: string = new Date().toISOString()): Promise<void> {
    const e = run.entry;
    await this.driver.transaction(async (tx) => {
      await deleteRunRows(tx, e.run_id);
      await tx.insertMany("agentv_runs", RUN_COLUMNS, [[
        e.run_id,
        e.source,
        e.agentv_version,
        e.status,
        e.started_at,
        e.ended_at,
        e.duration_ms,
        JSON.stringify(e.datasets),
        JSON.stringify(e.targets),
        run.record === null ? null : JSON.stringify(run.record),
        indexedAt,
        ...figureValues(e),
      ]]);
      await tx.insertMany(
        "agentv_run_groups",
        GROUP_COLUMNS,
        run.groups.map((g) => [g.run_id, g.dataset, g.target, g.started_at, ...figureValues(g)]),
      );
      await tx.insertMany(
        "agentv_results",
        RESULT_COLUMNS,
        run.rows.map((row, seq) => [
          e.run_id,
          row.dataset,
          row.eval_id,
          row.target,
          row.trial,
          row.status,
          row.verdict,
          row.score,
          row.duration_ms,
          seq,
          JSON.stringify(compactRow(row)),
        ]),
      );
    });
  }

  /** Removes a run and its rows (labels stay: they name the run and are never lost). */
  async deleteRun(runId: string): Promise<void> {
    await this.driver.transaction((tx) => deleteRunRows(tx, runId));
  }

  /** Whether the store holds a run. */
  async hasRun(runId: string): Promise<boolean> {
    return (await this.driver.all("SELECT 1 AS one FROM agentv_runs WHERE run_id = ?", [runId]))
      .length > 0;
  }

  /** The runs that match `filter`, newest first. */
  async listRuns(filter: RunFilter = {}): Promise<RunEntry[]> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (filter.dataset !== undefined || filter.target !== undefined) {
      const inner: string[] = [];
      if (filter.dataset !== undefined) {
        inner.push("dataset = ?");
        params.push(filter.dataset);
      }
      if (filter.target !== undefined) {
        inner.push("target = ?");
        params.push(filter.target);
      }
      where.push(`run_id IN (SELECT run_id FROM agentv_run_groups WHERE ${inner.join(" AND ")})`);
    }
    if (filter.status !== undefined) {
      where.push("status = ?");
      params.push(filter.status);
    }
    if (filter.from !== undefined) {
      where.push("started_at >= ?");
      params.push(filter.from);
    }
    if (filter.to !== undefined) {
      where.push("started_at < ?");
      params.push(endOf(filter.to));
    }
    params.push(Math.max(1, Math.min(filter.limit ?? 5000, 100_000)));
    const rows = await this.driver.all(
      `SELECT * FROM agentv_runs ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
       ORDER BY started_at DESC, run_id DESC LIMIT ?`,
      params,
    );
    return rows.map(entryOfRow);
  }

  /** A run with its groups and record, or undefined when the store does not hold it. */
  async getRun(runId: string): Promise<RunDetail | undefined> {
    const [run] = await this.driver.all("SELECT * FROM agentv_runs WHERE run_id = ?", [runId]);
    if (run === undefined) return undefined;
    const groups = await this.driver.all(
      "SELECT * FROM agentv_run_groups WHERE run_id = ? ORDER BY dataset, target",
      [runId],
    );
    return {
      entry: entryOfRow(run),
      groups: groups.map(groupOfRow),
      record: run.record_json === null ? null : JSON.parse(String(run.record_json)),
    };
  }

  /** A run's rows in file order (optionally of one dataset and target). */
  async rows(
    runId: string,
    only: { dataset?: string; target?: string } = {},
  ): Promise<ResultRow[]> {
    const where = ["run_id = ?"];
    const params: SqlValue[] = [runId];
    if (only.dataset !== undefined) {
      where.push("dataset = ?");
      params.push(only.dataset);
    }
    if (only.target !== undefined) {
      where.push("target = ?");
      params.push(only.target);
    }
    const rows = await this.driver.all(
      `SELECT row_json FROM agentv_results WHERE ${where.join(" AND ")} ORDER BY seq`,
      params,
    );
    return rows.map((r) => rowOfJson(r.row_json));
  }

  /** Every run of one case (dataset, case id, target), oldest first. */
  async caseHistory(key: { dataset: string; eval_id: string; target: string }): Promise<
    CaseRunHistory[]
  > {
    const rows = await this.driver.all(
      `SELECT r.run_id AS run_id, g.started_at AS started_at, r.row_json AS row_json
       FROM agentv_results r JOIN agentv_runs g ON g.run_id = r.run_id
       WHERE r.dataset = ? AND r.eval_id = ? AND r.target = ?
       ORDER BY g.started_at, r.run_id, r.trial`,
      [key.dataset, key.eval_id, key.target],
    );
    const out: CaseRunHistory[] = [];
    for (const r of rows) {
      const last = out.at(-1);
      const row = rowOfJson(r.row_json);
      if (last !== undefined && last.run_id === r.run_id) last.rows.push(row);
      else out.push({ run_id: String(r.run_id), started_at: String(r.started_at), rows: [row] });
    }
    return out;
  }

  /** The points of one series (a dataset on a target), oldest first. */
  async series(key: { dataset: string; target: string }): Promise<RunGroup[]> {
    const rows = await this.driver.all(
      `SELECT * FROM agentv_run_groups WHERE dataset = ? AND target = ?
       ORDER BY started_at, run_id`,
      [key.dataset, key.target],
    );
    return rows.map(groupOfRow);
  }

  /** Every series, with its number of runs and its latest start. */
  async seriesKeys(): Promise<SeriesKey[]> {
    const rows = await this.driver.all(
      `SELECT dataset, target, CAST(COUNT(*) AS INTEGER) AS runs, MAX(started_at) AS latest
       FROM agentv_run_groups GROUP BY dataset, target ORDER BY dataset, target`,
    );
    return rows.map((r) => ({
      dataset: String(r.dataset),
      target: String(r.target),
      runs: Number(r.runs),
      latest: String(r.latest),
    }));
  }

  /** Case id and score of every row of `runIds` on one dataset and target (the drift gate's data). */
  async scores(
    runIds: readonly string[],
    key: { dataset: string; target: string },
  ): Promise<{ run_id: string; dataset: string; eval_id: string; score: number }[]> {
    if (runIds.length === 0) return [];
    const rows = await this.driver.all(
      `SELECT run_id, dataset, eval_id, score FROM agentv_results
       WHERE dataset = ? AND target = ? AND run_id IN (${runIds.map(() => "?").join(", ")})
       AND status <> 'skipped'`,
      [key.dataset, key.target, ...runIds],
    );
    return rows.map((r) => ({
      run_id: String(r.run_id),
      dataset: String(r.dataset),
      eval_id: String(r.eval_id),
      score: Number(r.score),
    }));
  }

  /** Every dataset, target and status, sorted (the viewer's filters). */
  async facets(): Promise<StoreFacets> {
    const column = async (sql: string) =>
      (await this.driver.all(sql)).map((r) => String(Object.values(r)[0]));
    return {
      datasets: await column("SELECT DISTINCT dataset FROM agentv_run_groups ORDER BY 1"),
      targets: await column("SELECT DISTINCT target FROM agentv_run_groups ORDER BY 1"),
      statuses: await column("SELECT DISTINCT status FROM agentv_runs ORDER BY 1"),
    };
  }

  /** Adds labels; a label already held (same fields) is not added twice. Returns how many were new. */
  async addLabels(labels: readonly Label[]): Promise<number> {
    if (labels.length === 0) return 0;
    return await this.driver.transaction(async (tx) => {
      const keys = labels.map(labelKey);
      const before = await countLabels(tx);
      await tx.insertMany(
        "agentv_labels",
        LABEL_COLUMNS,
        labels.map((l, i) => [keys[i], ...labelValues(l)]),
        "ON CONFLICT (label_key) DO NOTHING",
      );
      return (await countLabels(tx)) - before;
    });
  }

  /** Labels, in the order they were made (of one run when `runId` is given). */
  async labels(runId?: string): Promise<Label[]> {
    const rows = await this.driver.all(
      `SELECT * FROM agentv_labels ${runId === undefined ? "" : "WHERE run_id = ?"}
       ORDER BY labelled_at, label_key`,
      runId === undefined ? [] : [runId],
    );
    return rows.map(labelOf);
  }

  /** The indexed file at `path`, if any. */
  async fileEntry(path: string): Promise<FileEntry | undefined> {
    const [row] = await this.driver.all("SELECT * FROM agentv_files WHERE path = ?", [path]);
    return row === undefined ? undefined : fileOfRow(row);
  }

  /** Every indexed file. */
  async fileEntries(): Promise<FileEntry[]> {
    return (await this.driver.all("SELECT * FROM agentv_files ORDER BY path")).map(fileOfRow);
  }

  /** Records (or replaces) an indexed file. */
  async putFileEntry(entry: FileEntry): Promise<void> {
    await this.driver.transaction(async (tx) => {
      await tx.run("DELETE FROM agentv_files WHERE path = ?", [entry.path]);
      await tx.insertMany("agentv_files", FILE_COLUMNS, [[
        entry.path,
        entry.size,
        entry.mtime_ms,
        entry.head_sha256,
        entry.record_size,
        entry.record_mtime_ms,
        entry.run_id,
      ]]);
    });
  }

  /** Forgets an indexed file. */
  async deleteFileEntry(path: string): Promise<void> {
    await this.driver.run("DELETE FROM agentv_files WHERE path = ?", [path]);
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    await this.driver.close();
  }
}

async function deleteRunRows(tx: SqlDriver, runId: string): Promise<void> {
  // Two jobs pushing one run at once: the second waits for the first to commit, then replaces it.
  if (tx.dialect === "postgres") await tx.run("SELECT pg_advisory_xact_lock(hashtext(?))", [runId]);
  for (const table of ["agentv_results", "agentv_run_groups", "agentv_runs"]) {
    await tx.run(`DELETE FROM ${table} WHERE run_id = ?`, [runId]);
  }
}

async function countLabels(tx: SqlDriver): Promise<number> {
  const [row] = await tx.all("SELECT CAST(COUNT(*) AS INTEGER) AS n FROM agentv_labels");
  return Number(row.n);
}
