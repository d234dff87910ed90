/**
 * The embedded store: one SQLite file through `node:sqlite` (no npm package, no native addon
 * beyond Deno's own). Write-ahead logging lets a viewer read while `agentv push` or an index
 * writes; statements are prepared once and cached.
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { SqlDriver, SqlRow, SqlValue } from "./sql_driver.ts";

/**
 * Opens (creating when missing) the SQLite database at `path` (`:memory:` for one in memory).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openSqliteDriver } from "./sqlite_driver.ts";
 * const db = openSqliteDriver(":memory:");
 * assert.deepEqual(await db.all("SELECT ? + 1 AS n", [41]), [{ n: 42 }]);
 * await db.close();
 * ```
 */
export function openSqliteDriver(path: string): SqlDriver {
  const db = new DatabaseSync(path);
  db.exec("PRAGMA busy_timeout = 10000");
  if (path !== ":memory:") db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL");
  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string): StatementSync => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  // One transaction at a time on the connection: a second waits for the first to end.
  let queue: Promise<unknown> = Promise.resolve();
  const driver: SqlDriver = {
    dialect: "sqlite",
    location: path,
    exec(sql) {
      db.exec(sql);
      return Promise.resolve();
    },
    all(sql, params = []) {
      // node:sqlite gives objects without a prototype: plain ones compare and spread as expected.
      return Promise.resolve(prepare(sql).all(...params).map((r) => ({ ...r }) as SqlRow));
    },
    run(sql, params = []) {
      prepare(sql).run(...params);
      return Promise.resolve();
    },
    insertMany(table, columns, rows, suffix = "") {
      const sql = `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${
        columns.map(() => "?").join(", ")
      }) ${suffix}`;
      const statement = prepare(sql);
      for (const row of rows) statement.run(...(row as SqlValue[]));
      return Promise.resolve();
    },
    transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T> {
      // Inside, a nested transaction() is part of the outer one.
      const tx: SqlDriver = { ...driver, transaction: (inner) => inner(tx) };
      const next = queue.then(async () => {
        db.exec("BEGIN IMMEDIATE");
        try {
          const result = await fn(tx);
          db.exec("COMMIT");
          return result;
        } catch (error) {
          db.exec("ROLLBACK");
          throw error;
        }
      });
      queue = next.catch(() => {});
      return next;
    },
    async close() {
      await queue;
      statements.clear();
      db.close();
    },
  };
  return driver;
}
