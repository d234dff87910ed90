/**
 * The response cache of a run: its mode, its folders and its key (the targets it wraps are in
 * `call_cache.ts`).
 *
 * One precedence rule for the mode: **flags > the user's config > a dataset's config, and a
 * dataset's config can only restrict.** `--cache MODE` or `--replay` decide alone; without
 * them the mode is the user's config's `cache:` (default `off`), narrowed by every dataset
 * config's `cache:` (`off` turns it off, `read` drops writes, `write` drops reads). A dataset,
 * which may come from anyone, can never turn the cache on, so it cannot make a run serve
 * answers it shipped. Even when the user turns the cache on, only entries signed with the user's
 * own key are served (`lib/run/cache_signing.ts`).
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { CacheSecretError, loadCacheSecret } from "./cache_secret.ts";
import { createCacheSigner } from "./cache_signing.ts";
import { type CacheStore, createCacheStore } from "./cache_store.ts";
import { isInside } from "../fs/resolve.ts";
import { loadUserConfig } from "../dataset/user_config.ts";
import { AGENTV_VERSION } from "../results/run_record.ts";
import type { CacheMode, RunConfigSettings } from "../schema/config.ts";
import { cachedTarget, type CacheStats, type CallCache, type RejectedEntry } from "./call_cache.ts";
import { RunConfigError } from "./errors.ts";
import type { RunEvalOptions } from "./run_options.ts";

/** What each mode allows. */
const ALLOWS: Record<CacheMode, { read: boolean; write: boolean }> = {
  off: { read: false, write: false },
  read: { read: true, write: false },
  write: { read: false, write: true },
  readwrite: { read: true, write: true },
};

function modeOf(allows: { read: boolean; write: boolean }): CacheMode {
  if (allows.read) return allows.write ? "readwrite" : "read";
  return allows.write ? "write" : "off";
}

/** Where a run's cache mode may come from. */
export interface CacheModeSources {
  /** `--cache`. */
  flag?: CacheMode;
  /** `--replay` (reads only). */
  replay?: boolean;
  /** The user config's `cache:`. */
  user?: CacheMode;
  /** The `cache:` of each dataset config that sets one. */
  datasets: readonly CacheMode[];
}

/**
 * The cache mode of a run: flags > the user's config > the datasets' configs, which can only
 * take away (what every one of them allows).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cacheModeOf } from "./run_cache.ts";
 * assert.equal(cacheModeOf({ datasets: ["readwrite"] }), "off"); // a dataset cannot turn it on
 * assert.equal(cacheModeOf({ user: "readwrite", datasets: ["read"] }), "read");
 * assert.equal(cacheModeOf({ user: "readwrite", datasets: ["off"] }), "off");
 * assert.equal(cacheModeOf({ flag: "readwrite", user: "off", datasets: ["off"] }), "readwrite");
 * assert.equal(cacheModeOf({ replay: true, datasets: ["off"] }), "read");
 * ```
 */
export function cacheModeOf(sources: CacheModeSources): CacheMode {
  if (sources.replay) return "read";
  if (sources.flag !== undefined) return sources.flag;
  let allows = ALLOWS[sources.user ?? "off"];
  for (const mode of sources.datasets) {
    const narrowed = ALLOWS[mode];
    allows = { read: allows.read && narrowed.read, write: allows.write && narrowed.write };
  }
  return modeOf(allows);
}

/** Options of {@link createCallCache}. */
export interface CallCacheOptions {
  /** `--cache` (wins over every config). */
  cache?: CacheMode;
  /** `--replay`. */
  replay?: boolean;
  /** `--cache-dir` (wins over the config's `cache_dir:`), relative to `cwd`; may be anywhere. */
  cacheDir?: string;
  /** Base of a relative `cacheDir`. */
  cwd: string;
  /** The environment: the user config and the cache key are found through it. */
  env: Readonly<Record<string, string>>;
  /** A dry run caches nothing (its targets are mocks). */
  dryRun?: boolean;
  /** agentv version written on entries. */
  version: string;
  /** Clock in ms. */
  now?: () => number;
  /** Told of each entry that exists but was rejected (edited, forged, another key's). */
  onRejected?: (rejected: RejectedEntry) => void;
}

/**
 * The config's `cache_dir` (relative to the folder holding `.agentv/`): it must stay inside the
 * dataset root, since a dataset's config must not make a run write elsewhere.
 */
function configuredDir(root: string, config: RunConfigSettings): string {
  const dir = resolve(dirname(dirname(config.file)), config.cache_dir!);
  if (!isInside(dir, root)) {
    throw new RunConfigError(
      `${config.file}: cache_dir '${config.cache_dir}' leads outside the dataset root ${root}; nothing ran`,
      { hint: "use a folder inside the dataset root, or pass --cache-dir DIR" },
    );
  }
  return dir;
}

/**
 * Refuses a cache folder chosen by a dataset (its default, or a config's `cache_dir`) whose real
 * path, or that of the nearest folder above it that exists, leaves the dataset root: a link
 * shipped in the dataset must not make a run write elsewhere.
 */
async function checkConfined(dir: string, root: string): Promise<void> {
  let existing = dir;
  while (true) {
    try {
      await Deno.lstat(existing);
      break;
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound) || dirname(existing) === existing) throw e;
      existing = dirname(existing);
    }
  }
  const [real, realRoot] = await Promise.all([Deno.realPath(existing), Deno.realPath(root)]);
  if (!isInside(real, realRoot)) {
    throw new RunConfigError(
      `The cache folder ${dir} leads outside the dataset root ${root} (through a link); nothing ran`,
      { hint: "remove the link, or pass --cache-dir DIR" },
    );
  }
}

/** The signer of the user's key; a key that cannot be had is a configuration error. */
async function userSigner(env: Readonly<Record<string, string>>) {
  try {
    return createCacheSigner((await loadCacheSecret(env)).secret);
  } catch (e) {
    if (!(e instanceof CacheSecretError)) throw e;
    throw new RunConfigError(`${e.message}; nothing ran`, { hint: e.hint });
  }
}

/**
 * The cache of a run, or `undefined` when it is off (or in a dry run): the mode by
 * {@link cacheModeOf}; the folder `--cache-dir`, else the first dataset config's `cache_dir`
 * (relative to the folder holding `.agentv/`), else `<dataset root>/.agentv/cache/` of each eval
 * file; entries signed with the user's key (`AGENTV_CACHE_KEY`, else the user's key file).
 * Throws `RunConfigError` when a config's `cache_dir` or a link leads outside its dataset
 * root, or when the key cannot be had; `EvalLoadError` when the user config is invalid.
 *
 * @example
 * ```ts ignore
 * const cache = await createCallCache({ cache: "readwrite", cwd, env, version }, sets);
 * const target = cache ? cache.wrap(resolved, { role: "target", root }) : resolved;
 * ```
 */
export async function createCallCache(
  options: CallCacheOptions,
  sets: readonly { root: string; config?: RunConfigSettings }[],
): Promise<CallCache | undefined> {
  if (options.dryRun) return undefined;
  const replay = options.replay ?? false;
  const user = await loadUserConfig(options.env);
  const chosen = cacheModeOf({
    ...(options.cache !== undefined ? { flag: options.cache } : {}),
    replay,
    ...(user?.cache !== undefined ? { user: user.cache } : {}),
    datasets: sets.flatMap((s) => s.config?.cache !== undefined ? [s.config.cache] : []),
  });
  if (chosen === "off") return undefined;
  const mode = chosen;
  const withDir = sets.find((s) => s.config?.cache_dir !== undefined);
  const fixedDir = options.cacheDir !== undefined
    ? resolve(options.cwd, options.cacheDir)
    : withDir !== undefined
    ? configuredDir(withDir.root, withDir.config!)
    : undefined;
  const dirOf = (root: string) => fixedDir ?? resolve(root, ".agentv", "cache");
  // A folder a dataset chose (its config's, or the default) must really be inside that root.
  if (options.cacheDir === undefined && withDir !== undefined) {
    await checkConfined(fixedDir!, withDir.root);
  } else if (options.cacheDir === undefined) {
    for (const root of new Set(sets.map((s) => s.root))) await checkConfined(dirOf(root), root);
  }
  const signer = await userSigner(options.env);
  const stores = new Map<string, CacheStore>();
  const stats: CacheStats = { hits: 0, misses: 0, writes: 0 };
  const missed = new Set<string>();
  const storeFor = (root: string) => {
    const dir = dirOf(root);
    let store = stores.get(dir);
    if (!store) {
      store = createCacheStore({
        dir,
        version: options.version,
        signer,
        ...(options.now ? { now: options.now } : {}),
      });
      stores.set(dir, store);
    }
    return store;
  };
  return {
    mode,
    replay,
    stats,
    wrap: (target, info) =>
      cachedTarget(target, {
        store: storeFor(info.root),
        mode,
        replay,
        role: info.role,
        stats,
        missed,
        ...(options.onRejected ? { onRejected: options.onRejected } : {}),
      }),
  };
}

/**
 * The {@link CallCacheOptions} of a `runEval` call.
 *
 * @example
 * ```ts ignore
 * const cache = await createCallCache(callCacheOptions(options, { dryRun: false, now: Date.now }), sets);
 * ```
 */
export function callCacheOptions(
  options: Pick<RunEvalOptions, "cache" | "replay" | "cacheDir" | "cwd" | "env">,
  run: { dryRun: boolean; now: () => number; onRejected?: (rejected: RejectedEntry) => void },
): CallCacheOptions {
  return {
    ...(options.cache !== undefined ? { cache: options.cache } : {}),
    ...(options.replay !== undefined ? { replay: options.replay } : {}),
    ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
    cwd: options.cwd,
    env: options.env,
    dryRun: run.dryRun,
    version: AGENTV_VERSION,
    now: run.now,
    ...(run.onRejected ? { onRejected: run.onRejected } : {}),
  };
}
