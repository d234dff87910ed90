/**
 * The history store as the commands that use it (`view`, `push`, `trend`, `label import`) name
 * it: `--store URL|FILE`, else `AGENTV_STORE`, else `.agentv/history.sqlite` under the project
 * root (the nearest folder at or above the working directory that holds `.agentv/` or `.git`).
 *
 * @module
 */
import { resolve } from "node:path";
import type { OptionSpec, ParsedArgs } from "./command.ts";
import type { CommandIO } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import type { HistoryStore } from "../store/history_store.ts";
import { isPostgresUrl, openHistoryStore, STORE_ENV } from "../store/open_store.ts";
import { projectRoot } from "./project_root.ts";

/** The `--store` option. */
export const STORE_OPTION: OptionSpec = {
  type: "string",
  valueName: "URL|FILE",
  description:
    `History store: a postgres:// URL or a SQLite file (default $${STORE_ENV}, else .agentv/history.sqlite)`,
};

/** The `--root` option. */
export const ROOT_OPTION: OptionSpec = {
  type: "string",
  valueName: "DIR",
  description: "Project root (default: the nearest folder above holding .agentv/ or .git)",
};

/** An opened store and where it is. */
export interface StoreArg {
  /** The store. */
  store: HistoryStore;
  /** The project root. */
  root: string;
  /** The spec given (`--store` or `AGENTV_STORE`), or undefined for the embedded default. */
  spec: string | undefined;
  /** Whether it is a PostgreSQL team store. */
  team: boolean;
}

/** Opens the store a command names (see the module doc). */
export async function openStoreArg(args: ParsedArgs, io: CommandIO): Promise<StoreArg> {
  const given = args.values.store;
  if (given !== undefined && (typeof given !== "string" || given.trim() === "")) {
    throw new UsageError(
      "--store must name a store",
      "e.g. --store postgres://agentv@db:5432/agentv or --store history.sqlite",
    );
  }
  const spec = (given as string | undefined) ?? (io.env(STORE_ENV) || undefined);
  const root = await projectRoot(io.cwd, args.values.root);
  const store = await openHistoryStore({
    store: spec === undefined || isPostgresUrl(spec) ? spec : resolve(io.cwd, spec),
    root,
  });
  return { store, root, spec, team: spec !== undefined && isPostgresUrl(spec) };
}
