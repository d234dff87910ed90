/**
 * The response cache of a run: its folders and its key (the targets it wraps are in
 * `call_cache.ts`). Its mode and folder are settled by the one precedence rule of run options
 * (`settle_spec.ts`): `--cache MODE` or `--replay` decide alone; without them the mode is the
 * user's config's `cache:` (default `off`), narrowed by every dataset config's `cache:` (`off`
 * turns it off, `read` drops writes, `write` drops reads). A dataset, which may come from anyone,
 * can never turn the cache on, so it cannot make a run serve answers it shipped. Even when the
 * user turns the cache on, only entries signed with the user's own key are served
 * (`lib/run/cache_signing.ts`).
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { CacheSecretError, loadCacheSecret } from "./cache_secret.ts";
import { createCacheSigner } from "./cache_signing.ts";
import { type CacheStore, createCacheStore } from "./cache_store.ts";
import { isInside } from "../fs/resolve.ts";
import type { CacheMode, RunConfigSettings } from "../schema/config.ts";
import { cachedTarget, type CacheStats, type CallCache, type RejectedEntry } from "./call_cache.ts";
import { RunConfigError } from "./errors.ts";

/** Options of {@link createCallCache}. */
export interface CallCacheOptions {
  /** The settled mode (`off`: no cache). */
  mode: CacheMode;
  /** `--replay`: every call must come from the cache. */
  replay: boolean;
  /**
   * The settled cache folder (absolute): the user's `--cache-dir` (`userDir: true`, may be
   * anywhere), else the first dataset config's `cache_dir` (kept inside its dataset root); absent:
   * `<dataset root>/.agentv/cache/` of each eval file.
   */
  dir?: string;
  /** Whether `dir` is the user's (`--cache-dir`) rather than a dataset's. */
  userDir: boolean;
  /** The environment: the cache key is found through it. */
  env: Readonly<Record<string, string>>;
  /** agentv version written on entries. */
  version: string;
  /** Clock in ms. */
  now?: () => number;
  /** Told of each entry that exists but was rejected (edited, forged, another key's). */
  onRejected?: (rejected: RejectedEntry) => void;
}

/**
 * A dataset config's `cache_dir` (made absolute from the folder holding `.agentv/`) must stay
 * inside the dataset root: a dataset's config must not make a run write elsewhere.
 */
function checkConfiguredDir(dir: string, root: string, config: RunConfigSettings): void {
  if (!isInside(dir, root)) {
    throw new RunConfigError(
      `${config.file}: cache_dir '${config.cache_dir}' leads outside the dataset root ${root}; nothing ran`,
      { hint: "use a folder inside the dataset root, or pass --cache-dir DIR" },
    );
  }
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
 * The cache of a run, or `undefined` when its settled mode is `off`: the folder `dir`, else
 * `<dataset root>/.agentv/cache/` of each eval file; entries signed with the user's key
 * (`AGENTV_CACHE_KEY`, else the user's key file). Throws `RunConfigError` when a config's
 * `cache_dir` or a link leads outside its dataset root, or when the key cannot be had.
 *
 * @example
 * ```ts ignore
 * const cache = await createCallCache({ mode: "readwrite", replay: false, userDir: false, env, version }, sets);
 * const target = cache ? cache.wrap(resolved, { role: "target", root }) : resolved;
 * ```
 */
export async function createCallCache(
  options: CallCacheOptions,
  sets: readonly { root: string; config?: RunConfigSettings }[],
): Promise<CallCache | undefined> {
  const { mode, replay } = options;
  if (mode === "off") return undefined;
  const dirOf = (root: string) => options.dir ?? resolve(root, ".agentv", "cache");
  // A folder a dataset chose (its config's, or the default) must really be inside that root.
  const withDir = options.userDir ? undefined : sets.find((s) => s.config?.cache_dir !== undefined);
  if (withDir !== undefined) {
    checkConfiguredDir(options.dir!, withDir.root, withDir.config!);
    await checkConfined(options.dir!, withDir.root);
  } else if (!options.userDir) {
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
        now: options.now,
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
        onRejected: options.onRejected,
      }),
  };
}
