/**
 * The response cache of a run (`--cache`, `--replay`): a {@link Target} decorator,
 * {@link cachedTarget}, that answers a call from `.agentv/cache/` when the same request was
 * answered before, and records successful responses. It is applied to evaluated targets and
 * judges in `resolve_targets.ts` only when the cache is on (off: no wrapper at all).
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { explainMiss } from "../cache/explain.ts";
import { cacheKey, type CacheKeyMaterial, type JsonValue } from "../cache/key.ts";
import {
  type CachedResponse,
  type CacheStore,
  type CallOrigin,
  type CallRole,
  createCacheStore,
} from "../cache/store.ts";
import { AGENTV_VERSION } from "../report/run_record.ts";
import type { CacheMode, RunConfigSettings } from "../schema/config.ts";
import type { CacheSummary } from "../schema/run_record.ts";
import { COMMAND_PROVIDERS } from "../targets/call_identity.ts";
import { redactValue } from "../targets/redact.ts";
import { isInside } from "../loader/resolve.ts";
import { RunConfigError } from "./errors.ts";
import type { RunEvalOptions } from "./run_eval.ts";
import {
  type CallIdentity,
  type Target,
  TargetError,
  type TargetRequest,
  type TargetResponse,
} from "../targets/types.ts";

/** Hits, misses and writes of a run (the summary's `cache`). */
export type CacheStats = CacheSummary;

/** Options of {@link cachedTarget}. */
export interface CachedTargetOptions {
  /** The cache folder. */
  store: CacheStore;
  /** `read`: look up, never write; `write`: call and record, never look up; `readwrite`: both. */
  mode: Exclude<CacheMode, "off">;
  /** Every call must be a hit: a miss is an error that says why; nothing is called or written. */
  replay: boolean;
  /** Whether the target is the evaluated one or a judge (entries and miss messages say it). */
  role: CallRole;
  /** Counters, updated as calls go (shared by every wrapped target of a run). */
  stats: CacheStats;
  /** Keys that missed already (a retried call counts one miss); default: a new set. */
  missed?: Set<string>;
}

/** The key material of one call of `target`. */
function keyMaterial(
  target: Target,
  identity: CallIdentity,
  request: TargetRequest,
): CacheKeyMaterial {
  const command = COMMAND_PROVIDERS.has(target.provider);
  return {
    provider: target.provider,
    settings: identity.settings as { [key: string]: JsonValue },
    request: {
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      prompt: request.prompt,
      guidelines: request.guidelines,
      overrides: request.overrides !== undefined && Object.keys(request.overrides).length > 0
        ? { ...request.overrides }
        : null,
      trial: request.trial ?? 0,
      ...(command && request.judgeOf === undefined
        ? { eval_id: request.evalCase.id, files: [...request.evalCase.file_paths] }
        : {}),
    },
  };
}

/** The case, trial and role a call is made for. */
function originOf(target: Target, role: CallRole, request: TargetRequest): CallOrigin {
  const of = request.judgeOf ?? { dataset: request.evalCase.dataset, eval_id: request.evalCase.id };
  return {
    role,
    target: target.name,
    dataset: of.dataset,
    eval_id: of.eval_id,
    trial: request.trial ?? 0,
  };
}

/** The part of a response an entry keeps (not the agent's log path: it belongs to its run). */
function toCached(response: TargetResponse): CachedResponse {
  return {
    output_messages: response.output_messages,
    ...(response.token_usage !== undefined ? { token_usage: response.token_usage } : {}),
    ...(response.cost_usd !== undefined ? { cost_usd: response.cost_usd } : {}),
    ...(response.duration_ms !== undefined ? { duration_ms: response.duration_ms } : {}),
    ...(response.request !== undefined ? { request: response.request } : {}),
    ...(response.turns !== undefined ? { turns: response.turns } : {}),
  };
}

/** `the judge 'x' of case 'id' (dataset 'd', trial 0)` / `case 'id' (...)`. */
function callText(origin: CallOrigin): string {
  const what = `case '${origin.eval_id}' (dataset '${origin.dataset}', trial ${origin.trial})`;
  return origin.role === "judge" ? `judge '${origin.target}' of ${what}` : what;
}

/**
 * Wraps `target` so its calls go through the response cache. Calls of a target that is not
 * cacheable (a `cli` or agent target without `cache: true`, any target with `cache: false`) pass
 * straight through, except under `replay`, where they are errors. Errors and timed-out or
 * interrupted calls are never recorded. A hit returns the recorded response with `cached: true`.
 *
 * @example
 * ```ts ignore
 * import { cachedTarget } from "./call_cache.ts";
 * const target = cachedTarget(resolved, { store, mode: "readwrite", replay: false, role: "target", stats });
 * ```
 */
export function cachedTarget(target: Target, options: CachedTargetOptions): Target {
  const { store, mode, replay, role, stats } = options;
  const missed = options.missed ?? new Set<string>();
  const wrapped: Target = {
    ...target,
    async invoke(request: TargetRequest): Promise<TargetResponse> {
      const identity = target.callIdentity?.();
      if (identity === undefined || !identity.cacheable) {
        if (!replay) return await target.invoke(request);
        throw new TargetError(
          `Cannot replay ${
            callText(originOf(target, role, request))
          }: target '${target.name}' (${target.provider}) is not cached; ${
            identity === undefined || COMMAND_PROVIDERS.has(target.provider)
              ? "set `cache: true` on it in the targets file and record the run again"
              : "remove `cache: false` from it in the targets file and record the run again"
          }`,
        );
      }
      const material = keyMaterial(target, identity, request);
      const key = cacheKey(material);
      const origin = originOf(target, role, request);
      if (replay || mode !== "write") {
        const found = await store.read(key);
        if (found.hit) {
          stats.hits++;
          // Another case's entry answered: note it for this case too (explains later misses).
          if (mode === "readwrite" && !replay) await store.note(origin, key).catch(() => {});
          return { ...found.entry.response, cached: true };
        }
        if (!missed.has(key)) {
          missed.add(key);
          stats.misses++;
        }
        if (replay) {
          const why = found.absent
            ? explainMiss(material, await store.recorded(origin))
            : `its entry cannot be used: ${found.reason}`;
          throw new TargetError(`Replay miss for ${callText(origin)}: ${why}`);
        }
      }
      const response = await target.invoke(request);
      // A call that timed out or was interrupted but answered anyway is not recorded.
      if (mode !== "read" && !request.signal.aborted) {
        try {
          // Rows are redacted when written; an entry is too (a model may echo a key).
          await store.write(material, redactValue(toCached(response), target.secrets), origin);
          stats.writes++;
        } catch {
          // A cache that cannot be written costs the next run a call, nothing more.
        }
      }
      return response;
    },
  };
  if (replay) delete wrapped.healthcheck; // nothing is called: nothing to check
  return wrapped;
}

/** The cache of a run: one store per folder, shared counters. */
export interface CallCache {
  /** Effective mode (`read` under replay). */
  readonly mode: Exclude<CacheMode, "off">;
  /** `--replay`. */
  readonly replay: boolean;
  /** Hits, misses and writes so far. */
  readonly stats: CacheStats;
  /** Wraps a target of a dataset root (see {@link cachedTarget}). */
  wrap(target: Target, info: { role: CallRole; root: string }): Target;
}

/** Options of {@link createCallCache}. */
export interface CallCacheOptions {
  /** `--cache` (wins over the config's `cache:`). */
  cache?: CacheMode;
  /** `--replay`. */
  replay?: boolean;
  /** `--cache-dir` (wins over the config's `cache_dir:`), relative to `cwd`. */
  cacheDir?: string;
  /** Base of a relative `cacheDir`. */
  cwd: string;
  /** A dry run caches nothing (its targets are mocks). */
  dryRun?: boolean;
  /** agentv version written on entries. */
  version: string;
  /** Clock in ms. */
  now?: () => number;
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
 * The cache settings of a run: flags first, then the first eval file's config that sets them;
 * `undefined` when the cache is off (or in a dry run). The folder is `--cache-dir`, else the
 * config's `cache_dir` (relative to the folder holding `.agentv/`), else
 * `<dataset root>/.agentv/cache/` of each eval file. Throws `RunConfigError` when the config's
 * `cache_dir` leads outside its dataset root.
 *
 * @example
 * ```ts ignore
 * const cache = createCallCache({ cache: "readwrite", cwd, version }, sets);
 * const target = cache ? cache.wrap(resolved, { role: "target", root }) : resolved;
 * ```
 */
export function createCallCache(
  options: CallCacheOptions,
  sets: readonly { root: string; config?: RunConfigSettings }[],
): CallCache | undefined {
  const replay = options.replay ?? false;
  const configured = sets.find((s) => s.config?.cache !== undefined)?.config?.cache;
  const chosen = options.cache ?? configured ?? "off";
  if (options.dryRun || (chosen === "off" && !replay)) return undefined;
  const mode: Exclude<CacheMode, "off"> = replay || chosen === "off" ? "read" : chosen;
  const withDir = sets.find((s) => s.config?.cache_dir !== undefined);
  const fixedDir = options.cacheDir !== undefined
    ? resolve(options.cwd, options.cacheDir)
    : withDir !== undefined
    ? configuredDir(withDir.root, withDir.config!)
    : undefined;
  const stores = new Map<string, CacheStore>();
  const stats: CacheStats = { hits: 0, misses: 0, writes: 0 };
  const missed = new Set<string>();
  const storeFor = (root: string) => {
    const dir = fixedDir ?? resolve(root, ".agentv", "cache");
    let store = stores.get(dir);
    if (!store) {
      store = createCacheStore({
        dir,
        version: options.version,
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
      }),
  };
}

/**
 * The {@link CallCacheOptions} of a `runEval` call.
 *
 * @example
 * ```ts ignore
 * const cache = createCallCache(callCacheOptions(options, false, Date.now), sets);
 * ```
 */
export function callCacheOptions(
  options: Pick<RunEvalOptions, "cache" | "replay" | "cacheDir" | "cwd">,
  dryRun: boolean,
  now: () => number,
): CallCacheOptions {
  return {
    ...(options.cache !== undefined ? { cache: options.cache } : {}),
    ...(options.replay !== undefined ? { replay: options.replay } : {}),
    ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
    cwd: options.cwd,
    dryRun,
    version: AGENTV_VERSION,
    now,
  };
}
