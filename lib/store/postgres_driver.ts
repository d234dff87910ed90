/**
 * The team store: a PostgreSQL server through the `postgres` npm client (pure JavaScript, no
 * dependencies, no native addon; it speaks the wire protocol over Deno's `node:net`). Every value
 * is sent as a parameter of the extended protocol, never spliced into SQL text. Imported only when
 * a store URL names PostgreSQL.
 *
 * @module
 */
import postgres from "postgres";
import { chunkRows, numberPlaceholders, type SqlDriver, type SqlRow } from "./sql_driver.ts";

/** Most parameters PostgreSQL takes in one statement. */
const MAX_PARAMS = 65_535;

/** A URL with its password replaced by `***` (what messages and `location` show). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.href;
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@");
  }
}

type Sql = ReturnType<typeof postgres>;
type Query = (text: string, params: unknown[]) => Promise<readonly Record<string, unknown>[]>;

/** A driver over one client (`sql`) or one transaction of it (`tx`). */
function driverOver(
  query: Query,
  location: string,
  begin: Sql["begin"] | undefined,
  end: () => Promise<void>,
): SqlDriver {
  const driver: SqlDriver = {
    dialect: "postgres",
    location,
    async exec(sql) {
      for (const statement of sql.split(";").map((s) => s.trim()).filter((s) => s !== "")) {
        await query(statement, []);
      }
    },
    async all(sql, params = []) {
      return (await query(numberPlaceholders(sql), [...params])) as SqlRow[];
    },
    async run(sql, params = []) {
      await query(numberPlaceholders(sql), [...params]);
    },
    async insertMany(table, columns, rows, suffix = "") {
      for (const chunk of chunkRows(rows, MAX_PARAMS)) {
        let n = 0;
        const values = chunk.map(() => `(${columns.map(() => `$${++n}`).join(", ")})`);
        await query(
          `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${values.join(", ")} ${suffix}`,
          chunk.flat(),
        );
      }
    },
    async transaction(fn) {
      if (begin === undefined) return await fn(driver);
      return await begin(async (tx) => {
        const inner = driverOver(
          (text, params) => tx.unsafe(text, params as never[]),
          location,
          undefined,
          () => Promise.resolve(),
        );
        return await fn(inner);
      }) as never;
    },
    close: end,
  };
  return driver;
}

/**
 * Connects to the PostgreSQL server of `url` (`postgres://user:password@host:port/database`;
 * the `PG*` environment variables fill what it leaves out) and checks the connection.
 *
 * @example
 * ```ts ignore
 * const db = await openPostgresDriver("postgres://agentv@127.0.0.1:5432/agentv");
 * console.log(await db.all("SELECT 1 AS one"));
 * await db.close();
 * ```
 */
export async function openPostgresDriver(url: string): Promise<SqlDriver> {
  const sql = postgres(url, {
    max: 4,
    onnotice: () => {},
    connect_timeout: 10,
    idle_timeout: 30,
    // Counts and sums come back as numbers (the store casts them to 4-byte integers).
    types: {},
  });
  try {
    await sql.unsafe("SELECT 1");
  } catch (error) {
    await sql.end({ timeout: 1 }).catch(() => {});
    throw error;
  }
  return driverOver(
    (text, params) => sql.unsafe(text, params as never[]),
    redactUrl(url),
    sql.begin.bind(sql),
    () => sql.end({ timeout: 5 }),
  );
}
