/**
 * The few SQL operations the history store needs, behind one interface that the embedded SQLite
 * database (`node:sqlite`) and a PostgreSQL server both implement. Statements are written once
 * with `?` placeholders; the PostgreSQL driver numbers them (`$1`, `$2`, ...). Values always
 * travel as parameters, never inside the SQL text.
 *
 * @module
 */

/** A value bound to a placeholder or read from a column. */
export type SqlValue = string | number | null;

/** One row of a query, by column name. */
export type SqlRow = Record<string, SqlValue>;

/** Which database a driver speaks to. */
export type SqlDialect = "sqlite" | "postgres";

/** A connection to the store's database. */
export interface SqlDriver {
  /** The database kind (the column types of the schema differ a little). */
  readonly dialect: SqlDialect;
  /** Where the store is, for messages (a path, or a URL without its password). */
  readonly location: string;
  /** Runs statements that return nothing (the schema), separated by `;`, no parameters. */
  exec(sql: string): Promise<void>;
  /** The rows of a query with `?` placeholders. */
  all(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]>;
  /** Runs one statement with `?` placeholders. */
  run(sql: string, params?: readonly SqlValue[]): Promise<void>;
  /**
   * Inserts `rows` (each one value per column) into `table`; `suffix` follows the `VALUES` list
   * (e.g. `ON CONFLICT DO NOTHING`).
   */
  insertMany(
    table: string,
    columns: readonly string[],
    rows: readonly (readonly SqlValue[])[],
    suffix?: string,
  ): Promise<void>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlDriver) => Promise<T>): Promise<T>;
  /** Closes the connection. */
  close(): Promise<void>;
}

/**
 * `?` placeholders numbered for PostgreSQL (`$1`, `$2`, ...). The store's statements hold no `?`
 * inside string literals.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numberPlaceholders } from "./sql_driver.ts";
 * assert.equal(numberPlaceholders("a = ? AND b = ?"), "a = $1 AND b = $2");
 * ```
 */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/**
 * The rows of an `insertMany` cut into statements of at most `maxParams` values each (PostgreSQL
 * takes at most 65,535 parameters in one statement).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chunkRows } from "./sql_driver.ts";
 * assert.deepEqual(chunkRows([[1, 2], [3, 4], [5, 6]], 4), [[[1, 2], [3, 4]], [[5, 6]]]);
 * ```
 */
export function chunkRows<T extends readonly unknown[]>(
  rows: readonly T[],
  maxParams: number,
): T[][] {
  if (rows.length === 0) return [];
  const per = Math.max(1, Math.floor(maxParams / Math.max(1, rows[0].length)));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += per) out.push(rows.slice(i, i + per));
  return out;
}
