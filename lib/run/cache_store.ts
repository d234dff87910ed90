/**
 * The cache folder (`.agentv/cache/`): one readable JSON file per key,
 * `<dir>/<first 2 hex digits>/<key>.json`, holding the request it answers (its key material),
 * the response, who wrote it first, the agentv version, the time, and its `integrity`: an
 * HMAC-SHA256 of all of that under the user's secret (`signing.ts`); plus, per case, trial and
 * role, the keys recorded for it (`<dir>/cases/<2>/<hash>.json`), which explain a later miss.
 *
 * An entry is served only when its signature is the user's own over exactly what it holds: an
 * entry edited by hand, forged, signed with another key or written before entries were signed
 * is a miss with its reason (`rejected`), never served. Writes are atomic (a temporary file in
 * the same folder, then a rename), so processes sharing a cache (shards) never see half an
 * entry; files are 0600 in 0700 folders. Reads stay inside the folder (links are refused), are
 * bounded in size, and a malformed entry is a miss with its reason, never a crash.
 *
 * @module
 */
import { join } from "node:path";
import type { OutputMessage, TokenUsage } from "../schema/result.ts";
import { cacheKey, type CacheKeyMaterial, canonicalJson, isCacheKey } from "./cache_key.ts";
import type { CacheSigner } from "./cache_signing.ts";
import { writeFileAtomic } from "../fs/atomic_write.ts";

/** Version of the entry format (2: signed entries). */
export const CACHE_ENTRY_VERSION = 2;

/** Mode of entry files (owner read and write). */
export const CACHE_FILE_MODE = 0o600;

/** Mode of the cache folder and its subfolders (owner only). */
export const CACHE_FOLDER_MODE = 0o700;

/** Largest entry file read, in bytes (a larger one is a miss). */
export const MAX_ENTRY_BYTES = 32 * 1024 * 1024;

/** Which call wrote an entry: the evaluated target's or a judge's. */
export type CallRole = "target" | "judge";

/** The case, trial and role a call was made for. */
export interface CallOrigin {
  /** `target` or `judge`. */
  role: CallRole;
  /** Name of the target called. */
  target: string;
  /** Dataset of the case. */
  dataset: string;
  /** Id of the case. */
  eval_id: string;
  /** Trial of the case. */
  trial: number;
}

/** The response part of an entry (what a target call returned). */
export interface CachedResponse {
  /** Output messages. */
  output_messages: OutputMessage[];
  /** Token counts, when the provider reported them. */
  token_usage?: TokenUsage;
  /** Cost in USD of the recorded call, when known. */
  cost_usd?: number;
  /** Duration the target reported. */
  duration_ms?: number;
  /** The request as sent, secrets redacted. */
  request?: unknown;
  /** Agent turns. */
  turns?: number;
}

/** One cache file. */
export interface CacheEntry {
  /** Entry format ({@link CACHE_ENTRY_VERSION}). */
  version: number;
  /** Its key (the file name). */
  key: string;
  /** The request it answers (hashed into `key`). */
  request: CacheKeyMaterial;
  /** The response. */
  response: CachedResponse;
  /** The call that wrote it first. */
  written_by: CallOrigin;
  /** agentv version that wrote it. */
  agentv_version: string;
  /** ISO time it was first written. */
  created_at: string;
  /** {@link CacheSigner.keyId} of the key that signed it. */
  signed_by: string;
  /** `hmac-sha256:<hex>` of the canonical JSON of every other field, under that key. */
  integrity: string;
}

/**
 * What a lookup found: a hit, or a miss with its reason; `absent` when there is no entry, else
 * the entry exists and was rejected (malformed, edited, forged, signed with another key).
 */
export type CacheLookup =
  | { hit: true; entry: CacheEntry }
  | { hit: false; reason: string; absent?: boolean };

/** Options of {@link createCacheStore}. */
export interface CacheStoreOptions {
  /** The cache folder (absolute), e.g. `<root>/.agentv/cache`. */
  dir: string;
  /** agentv version written on entries. */
  version: string;
  /** Signs entries and checks them (the user's secret: see `secret.ts`). */
  signer: CacheSigner;
  /** Clock in ms (default `Date.now`). */
  now?: () => number;
  /** Largest entry read, in bytes (default {@link MAX_ENTRY_BYTES}). */
  maxEntryBytes?: number;
}

/** A cache folder. */
export interface CacheStore {
  /** The folder. */
  readonly dir: string;
  /** The file of the entry of `key`. */
  path(key: string): string;
  /**
   * Reads the entry of `key`: a hit only when it is signed by this store's key over exactly
   * what it holds (a miss says why when the file exists but cannot be used).
   */
  read(key: string): Promise<CacheLookup>;
  /** The digest that stands for a value an entry must not hold in clear ({@link CacheSigner.seal}). */
  seal(label: string, value: string): string;
  /**
   * Writes an entry for `material` (atomically) and notes its key for the case; resolves to the
   * key.
   */
  write(material: CacheKeyMaterial, response: CachedResponse, origin: CallOrigin): Promise<string>;
  /** Notes that the entry `key` answers a call of `origin` (a hit shared by another case). */
  note(origin: CallOrigin, key: string): Promise<void>;
  /** Key material of the entries recorded for the same case, trial and role as `origin`. */
  recorded(origin: CallOrigin): Promise<CacheKeyMaterial[]>;
}

/** The cases file of a case, trial and role (the target name is left out: it may be renamed). */
function originHash(origin: CallOrigin): string {
  return cacheKey([origin.role, origin.dataset, origin.eval_id, origin.trial]);
}

/** Makes `path` a folder only its owner can enter (0700), refusing a link or a file there. */
async function privateFolder(path: string): Promise<void> {
  await Deno.mkdir(path, { recursive: true, mode: CACHE_FOLDER_MODE });
  const info = await Deno.lstat(path);
  if (!info.isDirectory) throw new Error(`${path} is not a folder (a link?)`);
  // Modes are POSIX: Windows has none (`mode` is null there).
  if (info.mode !== null && (info.mode & 0o777) !== CACHE_FOLDER_MODE) {
    await Deno.chmod(path, CACHE_FOLDER_MODE);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Why `value` is not an entry for `key` signed by `signer`, or `undefined` when it is one. */
function entryProblem(value: unknown, key: string, signer: CacheSigner): string | undefined {
  if (!isRecord(value)) return "the entry is not a JSON object";
  if (value.key !== key) return "the entry holds another key";
  if (!isRecord(value.request)) return "the entry has no request";
  if (!isRecord(value.response) || !Array.isArray(value.response.output_messages)) {
    return "the entry has no response.output_messages";
  }
  if (cacheKey(value.request as unknown as CacheKeyMaterial) !== key) {
    return "the entry's request does not hash to its key (edited by hand?)";
  }
  if (value.version !== CACHE_ENTRY_VERSION) {
    // Only agentv's own shapes are echoed: the file may come from anyone.
    const format = Number.isInteger(value.version) ? String(value.version) : "unknown";
    return `the entry has format ${format}, not ${CACHE_ENTRY_VERSION} (written before entries were signed?); record it again`;
  }
  const { integrity, ...signed } = value;
  if (typeof integrity !== "string") return "the entry has no integrity signature";
  if (value.signed_by !== signer.keyId) {
    const id = typeof value.signed_by === "string" && /^[0-9a-f]{16}$/.test(value.signed_by)
      ? `'${value.signed_by}'`
      : "an unnamed one";
    return `the entry is signed with another cache key (${id}, yours is '${signer.keyId}'): ` +
      "it was recorded by another user or machine, or forged; share a cache with AGENTV_CACHE_KEY";
  }
  if (!signer.verify(canonicalJson(signed), integrity)) {
    return "the entry does not match its integrity signature: it was edited by hand or forged";
  }
  return undefined;
}

/**
 * Opens a cache folder (created on the first write).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createCacheSigner } from "./cache_signing.ts";
 * import { createCacheStore } from "./cache_store.ts";
 * const dir = await Deno.makeTempDir();
 * const signer = createCacheSigner("k".repeat(32)); // the user's secret, see secret.ts
 * const store = createCacheStore({ dir, version: "0.0.0", signer });
 * const material = {
 *   provider: "mock",
 *   settings: {},
 *   request: { messages: [], prompt: "hi", guidelines: "", overrides: null, trial: 0 },
 * };
 * const key = await store.write(material, { output_messages: [] }, {
 *   role: "target",
 *   target: "default",
 *   dataset: "demo",
 *   eval_id: "a",
 *   trial: 0,
 * });
 * assert.equal((await store.read(key)).hit, true);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function createCacheStore(options: CacheStoreOptions): CacheStore {
  const { dir } = options;
  const now = options.now ?? Date.now;
  const maxBytes = options.maxEntryBytes ?? MAX_ENTRY_BYTES;
  let realDir: Promise<string | undefined> | undefined;
  // The cases files a process updates, one update at a time per file.
  const caseLocks = new Map<string, Promise<unknown>>();

  const realRoot = () => realDir ??= Deno.realPath(dir).catch(() => undefined);

  /** Reads a file of the folder: refused when it is a link, leads outside, or is too big. */
  async function readInside(
    sub: string,
    name: string,
  ): Promise<{ ok: true; text: string } | { ok: false; reason: string; absent?: boolean }> {
    const root = await realRoot();
    if (root === undefined) {
      realDir = undefined; // the folder may be created later
      return { ok: false, reason: "the cache folder does not exist", absent: true };
    }
    const folder = join(dir, sub);
    const path = join(folder, name);
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(path);
    } catch {
      return { ok: false, reason: "no entry", absent: true };
    }
    if (info.isSymlink) return { ok: false, reason: `${path} is a link (refused)` };
    if (!info.isFile) return { ok: false, reason: `${path} is not a regular file` };
    if (info.size > maxBytes) {
      return { ok: false, reason: `${path} is larger than ${maxBytes} bytes` };
    }
    const realFolder = await Deno.realPath(folder).catch(() => undefined);
    if (realFolder !== join(root, sub)) {
      return { ok: false, reason: `${folder} leads outside the cache folder (refused)` };
    }
    try {
      using file = await Deno.open(path, { read: true });
      const stat = await file.stat();
      if (!stat.isFile || stat.size > maxBytes) {
        return { ok: false, reason: `${path} is not a regular file of at most ${maxBytes}` };
      }
      const bytes = new Uint8Array(stat.size);
      let read = 0;
      while (read < bytes.length) {
        const n = await file.read(bytes.subarray(read));
        if (n === null) break;
        read += n;
      }
      return { ok: true, text: new TextDecoder().decode(bytes.subarray(0, read)) };
    } catch (e) {
      return { ok: false, reason: `${path} cannot be read: ${(e as Error).message}` };
    }
  }

  /**
   * Writes `text` to `<dir>/<sub>/<name>` atomically (temporary file + rename), mode 0600; the
   * cache folder and each folder of `sub` are made 0700 (also when they were made otherwise,
   * e.g. by a checkout), and none may be a link.
   */
  async function writeInside(sub: string, name: string, text: string): Promise<void> {
    let folder = dir;
    await privateFolder(folder);
    for (const part of sub.split(/[\\/]/)) {
      folder = join(folder, part);
      await privateFolder(folder);
    }
    await writeFileAtomic(join(folder, name), text, { mode: CACHE_FILE_MODE });
  }

  async function readEntry(key: string): Promise<CacheLookup> {
    if (!isCacheKey(key)) return { hit: false, reason: `'${key}' is not a cache key` };
    const read = await readInside(key.slice(0, 2), `${key}.json`);
    if (!read.ok) {
      return { hit: false, reason: read.reason, ...(read.absent ? { absent: true } : {}) };
    }
    let value: unknown;
    try {
      value = JSON.parse(read.text);
    } catch (e) {
      return { hit: false, reason: `malformed JSON in the entry: ${(e as Error).message}` };
    }
    const problem = entryProblem(value, key, options.signer);
    if (problem !== undefined) return { hit: false, reason: problem };
    return { hit: true, entry: value as CacheEntry };
  }

  async function recordedKeys(origin: CallOrigin): Promise<string[]> {
    const hash = originHash(origin);
    const read = await readInside(join("cases", hash.slice(0, 2)), `${hash}.json`);
    if (!read.ok) return [];
    try {
      const value = JSON.parse(read.text) as { keys?: unknown };
      return Array.isArray(value.keys)
        ? value.keys.filter((k): k is string => typeof k === "string" && isCacheKey(k))
        : [];
    } catch {
      return [];
    }
  }

  async function noteKey(origin: CallOrigin, key: string): Promise<void> {
    const hash = originHash(origin);
    const previous = caseLocks.get(hash) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(async () => {
      const keys = await recordedKeys(origin);
      if (keys.includes(key)) return;
      const { target: _, ...which } = origin;
      await writeInside(
        join("cases", hash.slice(0, 2)),
        `${hash}.json`,
        JSON.stringify({ case: which, keys: [...keys, key].slice(-20) }, null, 2) + "\n",
      );
    });
    caseLocks.set(hash, next);
    try {
      await next;
    } finally {
      if (caseLocks.get(hash) === next) caseLocks.delete(hash);
    }
  }

  return {
    dir,
    path: (key) => join(dir, key.slice(0, 2), `${key}.json`),
    read: readEntry,
    seal: (label, value) => options.signer.seal(label, value),
    async write(material, response, origin) {
      const key = cacheKey(material);
      // A rewritten entry (`--cache write`) keeps the call that wrote it first.
      const before = await readEntry(key);
      // What is signed is what a reader parses back: the entry through JSON, `request` in
      // canonical key order (which also keeps the file diff-friendly when it is committed).
      const signed = JSON.parse(JSON.stringify({
        version: CACHE_ENTRY_VERSION,
        key,
        request: JSON.parse(canonicalJson(material)),
        response,
        written_by: before.hit ? before.entry.written_by : origin,
        agentv_version: options.version,
        created_at: before.hit ? before.entry.created_at : new Date(now()).toISOString(),
        signed_by: options.signer.keyId,
      })) as Omit<CacheEntry, "integrity">;
      const entry: CacheEntry = {
        ...signed,
        integrity: options.signer.sign(canonicalJson(signed)),
      };
      await writeInside(key.slice(0, 2), `${key}.json`, JSON.stringify(entry, null, 2) + "\n");
      await noteKey(origin, key);
      return key;
    },
    note: noteKey,
    async recorded(origin) {
      const out: CacheKeyMaterial[] = [];
      for (const key of await recordedKeys(origin)) {
        const found = await readEntry(key);
        if (found.hit) out.push(found.entry.request);
      }
      return out;
    },
  };
}
