/**
 * Why a cache lookup missed: the differences between the key material of a request and that of
 * an entry recorded for the same case, trial and role, in words
 * (`model changed: 'gpt-4o' -> 'gpt-4o-mini'`, `messages[1].content changed`).
 *
 * @module
 */

/** Differences listed at most in one explanation. */
const MAX_LISTED = 4;

/** A scalar shown in a message: short strings and numbers as they are, others only named. */
function show(value: unknown): string | undefined {
  if (value === null || typeof value === "number" || typeof value === "boolean") {
    return String(value);
  }
  if (typeof value === "string" && value.length <= 60 && !/[\n\r]/.test(value)) {
    return `'${value}'`;
  }
  return undefined;
}

/** `a.b[1].c` for a path; the top-level `settings` / `sealed` / `request` groups are left out. */
function pathText(path: readonly (string | number)[]): string {
  let out = "";
  path.forEach((part, i) => {
    if (i === 0 && (part === "settings" || part === "sealed" || part === "request")) return;
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? part : `.${part}`;
  });
  return out === "" ? "the request" : out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Every difference between `was` and `now`, deepest first where they diverge. */
function differences(
  was: unknown,
  now: unknown,
  path: (string | number)[],
  out: string[],
): void {
  if (Array.isArray(was) && Array.isArray(now)) {
    const n = Math.max(was.length, now.length);
    for (let i = 0; i < n; i++) {
      if (i >= was.length) out.push(`${pathText([...path, i])} added`);
      else if (i >= now.length) out.push(`${pathText([...path, i])} removed`);
      else differences(was[i], now[i], [...path, i], out);
    }
    return;
  }
  if (isRecord(was) && isRecord(now)) {
    const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])].sort();
    for (const key of keys) {
      if (!(key in was)) {
        const v = show(now[key]);
        out.push(`${pathText([...path, key])} added${v !== undefined ? `: ${v}` : ""}`);
      } else if (!(key in now)) {
        const v = show(was[key]);
        out.push(`${pathText([...path, key])} removed${v !== undefined ? ` (was ${v})` : ""}`);
      } else differences(was[key], now[key], [...path, key], out);
    }
    return;
  }
  if (JSON.stringify(was) === JSON.stringify(now)) return;
  const a = show(was);
  const b = show(now);
  out.push(
    a !== undefined && b !== undefined
      ? `${pathText(path)} changed: ${a} -> ${b}`
      : `${pathText(path)} changed`,
  );
}

/**
 * The differences between recorded key material and the current one, e.g.
 * `["model changed: 'gpt-4o' -> 'gpt-4o-mini'", "messages[1].content changed"]` (empty when
 * they are equal).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keyDifferences } from "./cache_explain.ts";
 * assert.deepEqual(
 *   keyDifferences(
 *     { settings: { model: "gpt-4o" }, request: { trial: 0 } },
 *     { settings: { model: "gpt-4o-mini" }, request: { trial: 0 } },
 *   ),
 *   ["model changed: 'gpt-4o' -> 'gpt-4o-mini'"],
 * );
 * ```
 */
export function keyDifferences(recorded: unknown, current: unknown): string[] {
  const out: string[] = [];
  if (!isRecord(recorded) || !isRecord(current)) {
    differences(recorded, current, [], out);
    return out;
  }
  // The target first (provider, then its settings), then the request.
  const order = ["provider", "settings", "sealed", "request"];
  const keys = [...new Set([...Object.keys(recorded), ...Object.keys(current)])]
    .sort((a, b) => rank(order, a) - rank(order, b) || a.localeCompare(b));
  for (const key of keys) {
    const pick = (o: Record<string, unknown>) => key in o ? { [key]: o[key] } : {};
    differences(pick(recorded), pick(current), [], out);
  }
  // The prompt is the messages' text: a change to both is told once, by the messages.
  return out.some((d) => d.startsWith("messages"))
    ? out.filter((d) => !d.startsWith("prompt "))
    : out;
}

function rank(order: readonly string[], key: string): number {
  const i = order.indexOf(key);
  return i === -1 ? order.length : i;
}

/**
 * Explains a miss against the entries recorded for the same case, trial and role: what changed
 * relative to the closest one, or that none was recorded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { explainMiss } from "./cache_explain.ts";
 * assert.equal(explainMiss({ request: { trial: 1 } }, []), "no cache entry was recorded for it");
 * assert.equal(
 *   explainMiss({ request: { trial: 0, prompt: "b" } }, [{ request: { trial: 0, prompt: "a" } }]),
 *   "prompt changed: 'a' -> 'b'",
 * );
 * ```
 */
export function explainMiss(current: unknown, recorded: readonly unknown[]): string {
  if (recorded.length === 0) return "no cache entry was recorded for it";
  let best: string[] | undefined;
  for (const material of recorded) {
    const diff = keyDifferences(material, current);
    if (best === undefined || diff.length < best.length) best = diff;
  }
  const diff = best ?? [];
  if (diff.length === 0) return "its entry is recorded under this key but could not be used";
  const listed = diff.slice(0, MAX_LISTED).join("; ");
  const more = diff.length - MAX_LISTED;
  return more > 0 ? `${listed}; and ${more} more difference${more === 1 ? "" : "s"}` : listed;
}
