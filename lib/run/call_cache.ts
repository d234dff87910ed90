/**
 * The response cache of a run (`--cache`, `--replay`): a {@link Target} decorator,
 * {@link cachedTarget}, that answers a call from `.agentv/cache/` when the same request was
 * answered before, and records successful responses. It is applied to evaluated targets and
 * judges in `resolve_targets.ts` only when the cache is on (off: no wrapper at all).
 *
 * @module
 */
import { explainMiss } from "./cache_explain.ts";
import { cacheKey, type CacheKeyMaterial, type JsonValue } from "./cache_key.ts";
import type { CachedResponse, CacheStore, CallOrigin, CallRole } from "./cache_store.ts";
import type { CacheMode } from "../schema/config.ts";
import type { CacheSummary } from "../schema/run_record.ts";
import { COMMAND_PROVIDERS, isSecretHeader } from "../targets/call_identity.ts";
import { REDACTED, redactValue } from "../text/redact.ts";
import {
  type CallIdentity,
  type Target,
  TargetError,
  type TargetRequest,
  type TargetResponse,
} from "../targets/types.ts";

/** Hits, misses, writes and rejected entries of a run (the summary's `cache`). */
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
  /** Told of each entry that exists but was rejected (once per key), e.g. for `--verbose`. */
  onRejected?: (rejected: RejectedEntry) => void;
}

/** An entry that exists but cannot be served: edited, forged, signed with another key, ... */
export interface RejectedEntry {
  /** The call it would have answered. */
  origin: CallOrigin;
  /** The entry file. */
  path: string;
  /** Why it was rejected. */
  reason: string;
}

/** The key material of one call of `target` (sealed values as digests of `store`). */
function keyMaterial(
  target: Target,
  identity: CallIdentity,
  request: TargetRequest,
  store: CacheStore,
): CacheKeyMaterial {
  const command = COMMAND_PROVIDERS.has(target.provider);
  const sealed = Object.entries(identity.sealed ?? {});
  return {
    provider: target.provider,
    settings: identity.settings as { [key: string]: JsonValue },
    ...(sealed.length > 0
      ? { sealed: Object.fromEntries(sealed.map(([path, v]) => [path, store.seal(path, v)])) }
      : {}),
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
      ...(request.variant !== undefined ? { variant: request.variant } : {}),
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

/**
 * The part of a response an entry keeps (not the agent's log path: it belongs to its run),
 * secrets redacted: every secret of the target (rows are redacted when written; an entry is too,
 * since a model may echo a key), and the value of every header of the recorded request that is
 * a credential or holds a secret, whatever its length.
 */
function toCached(response: TargetResponse, secrets: readonly string[]): CachedResponse {
  return redactValue({
    output_messages: response.output_messages,
    ...(response.token_usage !== undefined ? { token_usage: response.token_usage } : {}),
    ...(response.cost_usd !== undefined ? { cost_usd: response.cost_usd } : {}),
    ...(response.duration_ms !== undefined ? { duration_ms: response.duration_ms } : {}),
    ...(response.request !== undefined ? { request: maskHeaders(response.request, secrets) } : {}),
    ...(response.turns !== undefined ? { turns: response.turns } : {}),
  }, secrets);
}

/** A recorded request with the values of its secret headers replaced by `***`. */
function maskHeaders(request: unknown, secrets: readonly string[]): unknown {
  if (request === null || typeof request !== "object" || Array.isArray(request)) return request;
  const headers = (request as { headers?: unknown }).headers;
  if (headers === null || typeof headers !== "object" || Array.isArray(headers)) return request;
  const masked: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(headers)) {
    masked[name] = isSecretHeader(name, v, secrets) ? REDACTED : v;
  }
  return { ...request, headers: masked };
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
      const material = keyMaterial(target, identity, request, store);
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
          if (!found.absent) {
            stats.rejected = (stats.rejected ?? 0) + 1;
            options.onRejected?.({ origin, path: store.path(key), reason: found.reason });
          }
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
          await store.write(material, toCached(response, target.secrets), origin);
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

/** The cache of a run (see `run_cache.ts`): one store per folder, shared counters. */
export interface CallCache {
  /** Effective mode (`read` under replay). */
  readonly mode: Exclude<CacheMode, "off">;
  /** `--replay`. */
  readonly replay: boolean;
  /** Hits, misses, writes and rejected entries so far. */
  readonly stats: CacheStats;
  /** Wraps a target of a dataset root (see {@link cachedTarget}). */
  wrap(target: Target, info: { role: CallRole; root: string }): Target;
}
