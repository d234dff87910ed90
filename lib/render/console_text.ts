/**
 * Small text helpers shared by the console progress and summary: colours, durations and paths.
 *
 * @module
 */
import { relative } from "node:path";
import { escapeControl } from "../text/escape_control.ts";

const CODES = {
  red: "\x1b[31m",
  green: "\x1b[32m",
  yellow: "\x1b[33m",
  dim: "\x1b[2m",
  bold: "\x1b[1m",
} as const;

/** Colours `text` with one of the console colours (or leaves it plain). */
export type Paint = (code: keyof typeof CODES, text: string) => string;

/**
 * A {@link Paint} that adds ANSI colours when `color` is true and returns text as is otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { painter } from "./console_text.ts";
 * assert.equal(painter(false)("red", "x"), "x");
 * assert.equal(painter(true)("red", "x"), "\x1b[31mx\x1b[0m");
 * ```
 */
export function painter(color: boolean): Paint {
  return (code, text) => color ? `${CODES[code]}${text}\x1b[0m` : text;
}

/**
 * Formats a duration in ms as `1.2s`, `3m05s` or `340ms`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatDuration } from "./console_text.ts";
 * assert.equal(formatDuration(65_000), "1m05s");
 * ```
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "?";
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  const rest = Math.round(s - m * 60);
  return `${m}m${String(rest).padStart(2, "0")}s`;
}

/**
 * A path for the console: relative to `cwd` when inside it, control characters escaped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { showPath } from "./console_text.ts";
 * assert.equal(showPath("/w/out.jsonl", "/w"), "out.jsonl");
 * ```
 */
export function showPath(path: string, cwd: string | undefined): string {
  if (cwd === undefined) return escapeControl(path);
  const rel = relative(cwd, path);
  return escapeControl(rel.startsWith("..") || rel === "" ? path : rel);
}
