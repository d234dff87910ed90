/**
 * Opening the history store a command names: the embedded SQLite file
 * `<root>/.agentv/history.sqlite` by default, another SQLite file by path, or a PostgreSQL team
 * store by URL (`postgres://…` or `postgresql://…`, from `--store` or `AGENTV_STORE`). The
 * PostgreSQL client is imported only then.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { AgentvError } from "../errors/agentv_error.ts";
import { HistoryStore } from "./history_store.ts";
import { openSqliteDriver } from "./sqlite_driver.ts";
import type { SqlDriver } from "./sql_driver.ts";

/** Where the embedded store lives, relative to the project root. */
export const DEFAULT_STORE_FILE = ".agentv/history.sqlite";

/** The environment variable that names the store when `--store` does not. */
export const STORE_ENV = "AGENTV_STORE";

/** Options of {@link openHistoryStore}. */
export interface OpenHistoryStoreOptions {
  /** `--store` (or `AGENTV_STORE`): a PostgreSQL URL or a SQLite path; default the embedded file. */
  store?: string | undefined;
  /** The project root (default store: `<root>/.agentv/history.sqlite`; paths resolve from it). */
  root: string;
}

/** Whether a store spec names a PostgreSQL server. */
export function isPostgresUrl(spec: string): boolean {
  return /^postgres(ql)?:\/\//i.test(spec);
}

/**
 * Opens the history store (creating its tables when missing). A server that cannot be reached is
 * an {@link AgentvError} that names it (without its password) and says how to fix it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openHistoryStore } from "./open_store.ts";
 * const root = await Deno.makeTempDir();
 * const store = await openHistoryStore({ root });
 * assert.equal(store.driver.location, `${root}/.agentv/history.sqlite`);
 * await store.close();
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function openHistoryStore(options: OpenHistoryStoreOptions): Promise<HistoryStore> {
  const spec = options.store?.trim() || undefined;
  if (spec !== undefined && isPostgresUrl(spec)) {
    const { openPostgresDriver, redactUrl } = await import("./postgres_driver.ts");
    let driver: SqlDriver;
    try {
      driver = await openPostgresDriver(spec);
    } catch (error) {
      throw new AgentvError(
        "store_unreachable",
        `Cannot connect to the store ${redactUrl(spec)}: ${(error as Error).message}`,
        {
          hint: "check the URL (postgres://user:password@host:port/database) and that the " +
            "server is running and accepts this user",
          cause: error,
        },
      );
    }
    return await openOver(driver);
  }
  const path = spec === undefined
    ? join(options.root, DEFAULT_STORE_FILE)
    : resolve(options.root, spec.replace(/^sqlite:/, ""));
  await Deno.mkdir(dirname(path), { recursive: true });
  let driver: SqlDriver;
  try {
    driver = openSqliteDriver(path);
  } catch (error) {
    throw new AgentvError(
      "store_unreadable",
      `Cannot open the store '${path}': ${(error as Error).message}`,
      { hint: "name a SQLite file agentv may write, or a postgres:// URL", cause: error },
    );
  }
  return await openOver(driver);
}

async function openOver(driver: SqlDriver): Promise<HistoryStore> {
  try {
    return await HistoryStore.open(driver);
  } catch (error) {
    await driver.close().catch(() => {});
    if (error instanceof AgentvError) throw error;
    throw new AgentvError(
      "store_unreadable",
      `Cannot use the store ${driver.location}: ${(error as Error).message}`,
      { hint: "is it a history store of agentv? Point --store at another one", cause: error },
    );
  }
}
