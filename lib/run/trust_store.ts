/**
 * The user's trust store: the dataset roots whose needs (commands, environment values sent to a
 * host; see `dataset/dataset_commands.ts`) may be acted on, each with the SHA-256 of every file
 * consent covered when it was trusted (the files that define the needs as the loader parsed them,
 * the files their commands name, the files `--include` matched) and a hash of each need's key
 * (its command, host and variable names). Like `direnv allow`: a changed file, a new file, or a
 * need that was not listed then asks again. It lives in `$XDG_CONFIG_HOME/agentv/trust.json`,
 * else `$HOME/.config/agentv/trust.json` (`%APPDATA%\agentv\trust.json` on Windows).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { join, relative } from "node:path";
import type { DatasetCommand } from "../dataset/dataset_commands.ts";
import type { RunPermissionRequest } from "./run_permission.ts";
import { writeFileAtomic } from "../fs/atomic_write.ts";

/** One trusted dataset root. */
export interface TrustRecord {
  /** When it was trusted (ISO-8601). */
  trusted_at: string;
  /** SHA-256 of each file consent covers, by absolute path. */
  files: Record<string, string>;
  /** {@link needHash} of every need listed when it was trusted. */
  needs?: string[];
  /** `--include` globs (relative to the root): the files they match are covered too. */
  include?: string[];
  /** SHA-256 of each file the `include` globs matched, by absolute path. */
  included?: Record<string, string>;
}

/** The trust store's content. */
export interface TrustStore {
  /** Format version (1). */
  version: 1;
  /** Trusted roots by absolute path. */
  roots: Record<string, TrustRecord>;
}

/**
 * The trust file's path from the environment, or `undefined` when neither `XDG_CONFIG_HOME`
 * nor `HOME` (`APPDATA` on Windows) is set.
 *
 * @example
 * ```ts
 * import { trustFilePath } from "./trust_store.ts";
 * trustFilePath((name) => ({ HOME: "/home/me" } as Record<string, string>)[name], "linux");
 * // "/home/me/.config/agentv/trust.json"
 * ```
 */
export function trustFilePath(
  env: (name: string) => string | undefined,
  os: typeof Deno.build.os = Deno.build.os,
): string | undefined {
  const xdg = env("XDG_CONFIG_HOME");
  if (xdg) return join(xdg, "agentv", "trust.json");
  if (os === "windows") {
    const appData = env("APPDATA");
    if (appData) return join(appData, "agentv", "trust.json");
  }
  const home = env("HOME") ?? (os === "windows" ? env("USERPROFILE") : undefined);
  return home ? join(home, ".config", "agentv", "trust.json") : undefined;
}

function emptyStore(): TrustStore {
  return { version: 1, roots: {} };
}

/** Reads the trust store; a missing or unreadable file is an empty store. */
export async function readTrustStore(path: string | undefined): Promise<TrustStore> {
  if (path === undefined) return emptyStore();
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return emptyStore();
  }
  try {
    const value = JSON.parse(text) as Partial<TrustStore>;
    if (value?.version !== 1 || typeof value.roots !== "object" || value.roots === null) {
      return emptyStore();
    }
    return { version: 1, roots: value.roots };
  } catch {
    return emptyStore();
  }
}

/** Writes the trust store (creating its folder), atomically via a temporary file. */
export async function writeTrustStore(path: string, store: TrustStore): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(store, null, 2) + "\n", { mkdir: true, mode: 0o600 });
}

/** The hex SHA-256 of a need's key, as the store records it. */
export function needHash(need: Pick<DatasetCommand, "key">): string {
  return createHash("sha256").update(need.key).digest("hex");
}

/**
 * Whether `request`'s root is trusted, every file it covers is unchanged (same SHA-256 as when it
 * was trusted) and every need it lists was listed then. (`--include` files are checked by the
 * trust command's permission, which hashes them again.)
 *
 * @example
 * ```ts
 * import { isTrusted } from "./trust_store.ts";
 * const store = { version: 1 as const, roots: { "/d": { trusted_at: "", files: { "/d/a.yaml": "ab" } } } };
 * isTrusted(store, { root: "/d", files: [{ file: "/d/a.yaml", sha256: "ab", commands: [] }] }); // true
 * ```
 */
export function isTrusted(store: TrustStore, request: RunPermissionRequest): boolean {
  return trustGaps(store, request).length === 0;
}

/**
 * Why `request` is not covered by the store, file by file and need by need (empty when it is):
 * `not trusted`, `evals/a.yaml changed since it was trusted`, `judges/x.py is new`,
 * `code_judge 'x' was not listed when the root was trusted`. Paths are relative to the root.
 */
export function trustGaps(store: TrustStore, request: RunPermissionRequest): string[] {
  const record = store.roots[request.root];
  if (record === undefined) return [`${request.root} is not trusted`];
  const gaps: string[] = [];
  const known = new Set(record.needs ?? []);
  for (const f of request.files) {
    const shown = relative(request.root, f.file) || f.file;
    const recorded = record.files[f.file];
    if (f.sha256 === "") gaps.push(`${shown} was not read by agentv's loader, so it has no hash`);
    else if (recorded === undefined) gaps.push(`${shown} is new since the root was trusted`);
    else if (recorded !== f.sha256) gaps.push(`${shown} changed since it was trusted`);
    for (const need of f.commands) {
      if (!known.has(needHash(need))) {
        gaps.push(
          `${
            need.kind === "env_host" ? "target" : need.kind
          } '${need.name}' in ${shown} was not listed when the root was trusted`,
        );
      }
    }
  }
  return gaps;
}

/**
 * How the files the record's `--include` globs match differ from the ones it recorded: one line
 * per file that changed, appeared or went away (empty when none did).
 */
export async function includedGaps(root: string, record: TrustRecord): Promise<string[]> {
  if (record.include === undefined || record.include.length === 0) return [];
  // The glob matcher is loaded only for a root trusted with --include.
  const { hashIncluded } = await import("./trust_include.ts");
  const now = await hashIncluded(root, record.include);
  const before = record.included ?? {};
  const gaps: string[] = [];
  for (const file of new Set([...Object.keys(before), ...Object.keys(now)])) {
    const shown = `${relative(root, file)} (--include)`;
    if (before[file] === undefined) gaps.push(`${shown} is new since the root was trusted`);
    else if (now[file] === undefined) gaps.push(`${shown} is gone since the root was trusted`);
    else if (before[file] !== now[file]) gaps.push(`${shown} changed since it was trusted`);
  }
  return gaps;
}

/**
 * What changed under a root since `previous` trusted it, as `agentv trust` says when it trusts the
 * root again: each file that changed, is new or is gone, each need not listed then, and the
 * `--include` files that changed (empty when nothing did). Paths are relative to the root.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { retrustChanges } from "./trust_store.ts";
 * const previous = { trusted_at: "", files: { "/d/a.yaml": "ab", "/d/old.sh": "cd" } };
 * const now = { root: "/d", files: [{ file: "/d/a.yaml", sha256: "ef", commands: [] }] };
 * assert.deepEqual(await retrustChanges(previous, [now]), [
 *   "a.yaml changed since it was trusted",
 *   "old.sh is gone since the root was trusted",
 * ]);
 * ```
 */
export async function retrustChanges(
  previous: TrustRecord,
  requests: readonly RunPermissionRequest[],
): Promise<string[]> {
  const changes: string[] = [];
  const seen = new Set<string>();
  for (const request of requests) {
    const store: TrustStore = { version: 1, roots: { [request.root]: previous } };
    changes.push(...trustGaps(store, request));
    for (const f of request.files) seen.add(f.file);
  }
  const root = requests[0]?.root;
  for (const file of Object.keys(previous.files)) {
    if (seen.has(file)) continue;
    const shown = root === undefined ? file : relative(root, file) || file;
    changes.push(`${shown} is gone since the root was trusted`);
  }
  if (root !== undefined) changes.push(...await includedGaps(root, previous));
  return [...new Set(changes)];
}

/**
 * Whether `store` covers a request (a `RunPermission`): every file unchanged, every need listed
 * when the root was trusted, the `--include` files unchanged.
 */
export function storeCheck(
  store: TrustStore,
): (request: RunPermissionRequest) => Promise<boolean> {
  return async (request) =>
    isTrusted(store, request) &&
    (await includedGaps(request.root, store.roots[request.root])).length === 0;
}
