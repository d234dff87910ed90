/**
 * Cache keys: the SHA-256 of the canonical JSON of what a model call is asked (its
 * {@link CacheKeyMaterial}), so the same request always lands on the same entry, on any machine.
 *
 * @module
 */
import { createHash } from "node:crypto";

/** A value that survives JSON (what key material and entries are made of). */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/**
 * Everything a cached response answers: the provider kind, the target's request-relevant
 * settings (endpoint without credentials, model, every request parameter; no secret, no runner
 * setting such as retries or workers; values that must not be written as digests) and the
 * request itself (the full rendered messages, the
 * prompt, overrides and the trial index; never the attempt).
 */
export interface CacheKeyMaterial {
  /** Provider kind (`openai`, `anthropic`, `cli`, ...). */
  provider: string;
  /** Request-relevant settings of the target, secrets removed. */
  settings: { [key: string]: JsonValue };
  /**
   * Settings that must not be written in clear (a `cli` target's `env` values, header values
   * that carry a secret), by path (`env.MODE`), as digests under the user's secret.
   */
  sealed?: { [path: string]: string };
  /** The request. */
  request: {
    /** The chat messages, as sent. */
    messages: { role: string; content: string }[];
    /** The rendered prompt (what CLI targets get as `{PROMPT}`). */
    prompt: string;
    /** Guidelines text (`{GUIDELINES}`). */
    guidelines: string;
    /** Per-call overrides (judges: `model`, `temperature`, `max_tokens`), or `null`. */
    overrides: { [key: string]: JsonValue } | null;
    /** Trial index (trials are independent calls). */
    trial: number;
    /** Command targets only: the case id (`{EVAL_ID}`) and attached files (`{FILES}`). */
    eval_id?: string;
    /** Command targets only: the case's attached files, as listed. */
    files?: string[];
    /** A judge's re-ask by `agentv calibrate` (`repeat 2`, `order 3`); absent on a run's calls. */
    variant?: string;
  };
}

/**
 * JSON with object keys sorted at every level and no whitespace; `undefined` members are left
 * out (as `JSON.stringify` does), so equal values always give equal text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalJson } from "./cache_key.ts";
 * assert.equal(canonicalJson({ b: 1, a: [true, { d: null, c: "x" }] }), '{"a":[true,{"c":"x","d":null}],"b":1}');
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value);
    return text === undefined ? "null" : text;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const parts: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined || typeof member === "function") continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
  }
  return `{${parts.join(",")}}`;
}

/**
 * The cache key of some key material: lower-case hex SHA-256 of its canonical JSON.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cacheKey } from "./cache_key.ts";
 * assert.equal(cacheKey({ a: 1, b: 2 }), cacheKey({ b: 2, a: 1 }));
 * assert.match(cacheKey({ a: 1 }), /^[0-9a-f]{64}$/);
 * ```
 */
export function cacheKey(material: CacheKeyMaterial | JsonValue): string {
  return createHash("sha256").update(canonicalJson(material)).digest("hex");
}

/** Whether `text` has the shape of a cache key (64 lower-case hex digits). */
export function isCacheKey(text: string): boolean {
  return /^[0-9a-f]{64}$/.test(text);
}
