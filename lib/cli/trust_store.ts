/**
 * The user's trust store: the dataset roots whose commands may run, each with the SHA-256 of
 * every file that defined commands when it was trusted (like `direnv allow`: a changed file, or
 * a new one that defines commands, asks again). It lives in `$XDG_CONFIG_HOME/agentv/trust.json`,
 * else `$HOME/.config/agentv/trust.json` (`%APPDATA%\agentv\trust.json` on Windows).
 *
 * @module
 */
import { join } from "node:path";
import type { RunPermissionRequest } from "../runner/run_permission.ts";
import { writeFileAtomic } from "../text/atomic_write.ts";

/** One trusted dataset root. */
export interface TrustRecord {
  /** When it was trusted (ISO-8601). */
  trusted_at: string;
  /** SHA-256 of each file that defined commands, by absolute path. */
  files: Record<string, string>;
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

/**
 * Whether `request`'s root is trusted and every file that defines its commands is unchanged
 * (same SHA-256 as when it was trusted).
 *
 * @example
 * ```ts
 * import { isTrusted } from "./trust_store.ts";
 * const store = { version: 1 as const, roots: { "/d": { trusted_at: "", files: { "/d/a.yaml": "ab" } } } };
 * isTrusted(store, { root: "/d", files: [{ file: "/d/a.yaml", sha256: "ab", commands: [] }] }); // true
 * ```
 */
export function isTrusted(store: TrustStore, request: RunPermissionRequest): boolean {
  const record = store.roots[request.root];
  if (record === undefined) return false;
  return request.files.every((f) => f.sha256 !== "" && record.files[f.file] === f.sha256);
}
