/**
 * Structural comparison of JSON values: strict deep equality and the partial, recursive match
 * used for expected tool arguments and outputs.
 *
 * @module
 */

/** True for a plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Strict structural equality of JSON values (key order ignored, arrays order-sensitive).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deepEqual } from "./match.ts";
 * assert.equal(deepEqual({ a: [1, 2] }, { a: [1, 2] }), true);
 * assert.equal(deepEqual([1, 2], [2, 1]), false);
 * ```
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length &&
      keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** Shortens a value's JSON rendering for messages. */
export function preview(value: unknown, max = 60): string {
  const text = value === undefined ? "nothing" : JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/**
 * Finds the first place where `actual` does not partially match `expected`, or `undefined`
 * when it matches. Partial, recursive rules:
 * - objects: every key listed in `expected` must exist in `actual` and match (extra keys in
 *   `actual` are fine), nested objects likewise;
 * - arrays: element-wise — `expected[i]` must match `actual[i]`; `actual` may be longer;
 * - anything else: strict equality (`1` and `"1"` differ).
 *
 * The returned text names the path, e.g. `query: expected "a", found "b"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findPartialMismatch } from "./match.ts";
 * assert.equal(
 *   findPartialMismatch({ q: "x", opts: { n: 5 } }, { q: "x", opts: { n: 5, lang: "en" }, extra: 1 }),
 *   undefined, // matches
 * );
 * assert.equal(
 *   findPartialMismatch({ opts: { n: 5 } }, { opts: { n: 3 } }),
 *   "opts.n: expected 5, found 3",
 * );
 * ```
 */
export function findPartialMismatch(
  expected: unknown,
  actual: unknown,
  path = "",
): string | undefined {
  const at = path === "" ? "(root)" : path;
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return `${at}: expected an object, found ${kind(actual)}`;
    for (const [key, value] of Object.entries(expected)) {
      const child = path === "" ? key : `${path}.${key}`;
      if (!Object.hasOwn(actual, key)) return `${child}: missing (expected ${preview(value)})`;
      const problem = findPartialMismatch(value, actual[key], child);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array, found ${kind(actual)}`;
    if (actual.length < expected.length) {
      return `${at}: expected at least ${expected.length} items, found ${actual.length}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const problem = findPartialMismatch(expected[i], actual[i], `${path}[${i}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  return expected === actual
    ? undefined
    : `${at}: expected ${preview(expected)}, found ${preview(actual)}`;
}

/**
 * True when `actual` partially matches `expected` (see {@link findPartialMismatch}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchesPartial } from "./match.ts";
 * assert.equal(matchesPartial({ a: { b: 1 } }, { a: { b: 1, c: 2 } }), true);
 * ```
 */
export function matchesPartial(expected: unknown, actual: unknown): boolean {
  return findPartialMismatch(expected, actual) === undefined;
}
