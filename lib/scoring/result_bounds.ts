/**
 * Bounds on what an evaluator result may hold, so one judge cannot make a row too large to
 * write (or to keep in memory): `reasoning` and `error` are cut at 64 KiB, each hit or miss at
 * 4 KiB and each list at 64 KiB, `details` and `evaluator_provider_request` at 256 KiB (a copy
 * with long strings, long lists and deep nesting cut). Every cut leaves a visible
 * `…[truncated N bytes]` (N counted in UTF-8 bytes of JSON text, approximate for nested data).
 *
 * Pure and dependency-free: the module judge worker imports it to bound its reply before it
 * leaves the judge's isolate.
 *
 * @module
 */

/** Cap of `reasoning` and `error`, in UTF-8 bytes. */
export const TEXT_CAP_BYTES = 64 * 1024;
/** Cap of one hit or miss, in UTF-8 bytes. */
export const ITEM_CAP_BYTES = 4 * 1024;
/** Cap of a whole `hits` or `misses` list (and of its length, 1,000 items). */
export const LIST_CAP_BYTES = 64 * 1024;
/** Cap of `details` and of `evaluator_provider_request`, in bytes of JSON. */
export const VALUE_CAP_BYTES = 256 * 1024;

const MAX_ITEMS = 1000;
const MAX_DEPTH = 32;

/**
 * The marker left where something was cut.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { truncationMarker } from "./result_bounds.ts";
 * assert.equal(truncationMarker(12), "…[truncated 12 bytes]");
 * ```
 */
export function truncationMarker(bytes: number): string {
  return `…[truncated ${bytes} bytes]`;
}

/** UTF-8 length of `text` from index `from`, without encoding it. */
function utf8Length(text: string, from = 0): number {
  let n = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** End index of the longest prefix of `text` within `maxBytes` (a surrogate pair kept whole). */
function prefixEnd(text: string, maxBytes: number): { end: number } {
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c < 0xdc00 && i + 1 < text.length;
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > maxBytes) break;
    bytes += size;
    i += pair ? 2 : 1;
  }
  return { end: i };
}

/**
 * `text` cut to at most `maxBytes` UTF-8 bytes, followed by the truncation marker when cut.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { truncateText } from "./result_bounds.ts";
 * assert.equal(truncateText("abcdef", 4), "abcd…[truncated 2 bytes]");
 * assert.equal(truncateText("abc", 4), "abc");
 * ```
 */
export function truncateText(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text;
  const { end } = prefixEnd(text, maxBytes);
  if (end >= text.length) return text;
  return text.slice(0, end) + truncationMarker(utf8Length(text, end));
}

/** Approximate size in bytes of `value` as JSON (deep values past the depth cap count little). */
function jsonSize(value: unknown, depth = 0): number {
  if (typeof value === "string") return utf8Length(value) + 2;
  if (value === null || typeof value !== "object") return String(value).length;
  if (depth >= MAX_DEPTH || ArrayBuffer.isView(value)) return 16;
  let n = 2;
  if (Array.isArray(value)) {
    for (const item of value) n += jsonSize(item, depth + 1) + 1;
    return n;
  }
  for (const key in value) {
    if (Object.hasOwn(value, key)) {
      n += utf8Length(key) + 4 + jsonSize((value as Record<string, unknown>)[key], depth + 1);
    }
  }
  return n;
}

/** The bounded copy of one value; `budget.left` is what remains of the cap. */
function boundedCopy(
  value: unknown,
  budget: { left: number },
  depth: number,
  path: Set<object>,
): unknown {
  if (typeof value === "string") {
    const kept = truncateText(value, Math.max(0, budget.left - 2));
    budget.left -= utf8Length(kept) + 2;
    return kept;
  }
  if (typeof value === "bigint") return boundedCopy(String(value), budget, depth, path);
  if (value === null || typeof value !== "object") {
    budget.left -= 8;
    return value;
  }
  if (path.has(value)) return "[circular]";
  if (ArrayBuffer.isView(value)) return `[${value.constructor.name} of ${value.byteLength} bytes]`;
  if (depth >= MAX_DEPTH) return truncationMarker(jsonSize(value, depth));
  const json = (value as { toJSON?: unknown }).toJSON;
  if (typeof json === "function") {
    return boundedCopy(json.call(value), budget, depth, path);
  }
  path.add(value);
  try {
    budget.left -= 2;
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        if (budget.left <= 0 || i >= MAX_ITEMS) {
          let rest = 0;
          for (let j = i; j < value.length; j++) rest += jsonSize(value[j], depth + 1) + 1;
          out.push(truncationMarker(rest));
          break;
        }
        out.push(boundedCopy(value[i], budget, depth + 1, path));
        budget.left -= 1;
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    let count = 0;
    let rest = 0;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
      if (budget.left <= 0 || count >= MAX_ITEMS) {
        rest += utf8Length(key) + 4 + jsonSize(item, depth + 1);
        continue;
      }
      const name = truncateText(key, ITEM_CAP_BYTES);
      budget.left -= utf8Length(name) + 4;
      out[name] = boundedCopy(item, budget, depth + 1, path);
      count++;
    }
    if (rest > 0) out["…"] = truncationMarker(rest);
    return out;
  } finally {
    path.delete(value);
  }
}

/**
 * A copy of `value` whose JSON stays near `maxBytes`: long strings, long lists, many keys and
 * deep nesting are cut with the truncation marker; cycles become `"[circular]"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { boundValue } from "./result_bounds.ts";
 * // The marker counts towards the limit: 28 characters are kept.
 * assert.deepEqual(boundValue({ note: "x".repeat(100) }, 40), {
 *   note: "x".repeat(28) + "…[truncated 72 bytes]",
 * });
 * ```
 */
export function boundValue(value: unknown, maxBytes: number): unknown {
  return boundedCopy(value, { left: maxBytes }, 0, new Set());
}

/**
 * `items` as strings, each cut at {@link ITEM_CAP_BYTES}, the list cut at
 * {@link LIST_CAP_BYTES} and 1,000 items (a last item says how much was left out).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { boundList } from "./result_bounds.ts";
 * assert.deepEqual(boundList(["a", "b"]), ["a", "b"]);
 * ```
 */
export function boundList(items: readonly string[]): string[] {
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < items.length; i++) {
    const item = truncateText(String(items[i]), ITEM_CAP_BYTES);
    const size = utf8Length(item) + 3;
    if (used + size > LIST_CAP_BYTES || i >= MAX_ITEMS) {
      let rest = 0;
      for (let j = i; j < items.length; j++) rest += utf8Length(String(items[j])) + 3;
      out.push(truncationMarker(rest));
      break;
    }
    out.push(item);
    used += size;
  }
  return out;
}

/** The fields of an evaluator result that {@link boundResultFields} bounds. */
export interface BoundedFields {
  /** What went right. */
  hits?: string[];
  /** What went wrong. */
  misses?: string[];
  /** Free-text reasoning. */
  reasoning?: string;
  /** Why it could not score. */
  error?: string;
  /** Evaluator-specific details. */
  details?: unknown;
  /** The request sent to a judge or script. */
  evaluator_provider_request?: unknown;
}

/**
 * `result` with its text, lists and values bounded (see the module doc); other fields kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { boundResultFields } from "./result_bounds.ts";
 * const r = boundResultFields({ score: 1, reasoning: "x".repeat(100_000) });
 * assert.ok(r.reasoning!.endsWith("…[truncated 34464 bytes]"));
 * ```
 */
export function boundResultFields<T extends BoundedFields>(result: T): T {
  const out: T = { ...result };
  if (typeof out.reasoning === "string") {
    out.reasoning = truncateText(out.reasoning, TEXT_CAP_BYTES);
  }
  if (typeof out.error === "string") out.error = truncateText(out.error, TEXT_CAP_BYTES);
  if (Array.isArray(out.hits)) out.hits = boundList(out.hits);
  if (Array.isArray(out.misses)) out.misses = boundList(out.misses);
  if (out.details !== undefined) out.details = boundValue(out.details, VALUE_CAP_BYTES);
  if (out.evaluator_provider_request !== undefined) {
    out.evaluator_provider_request = boundValue(out.evaluator_provider_request, VALUE_CAP_BYTES);
  }
  return out;
}
