/**
 * Removing terminal escape sequences (colours, cursor moves, titles) from text that is stored,
 * such as an error message Deno formatted for a terminal.
 *
 * @module
 */

/** CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ST`) and two-byte escape sequences, and stray ESCs. */
const ANSI =
  // deno-lint-ignore no-control-regex
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?|\x9b[0-?]*[ -/]*[@-~]/g;

/**
 * `text` without ANSI escape sequences.
 *
 * @example
 * ```ts
 * import { stripAnsi } from "./strip_ansi.ts";
 * import assert from "node:assert/strict";
 * assert.equal(stripAnsi("\x1b[1m\x1b[31merror\x1b[0m: boom"), "error: boom");
 * ```
 */
export function stripAnsi(text: string): string {
  return text.includes("\x1b") || text.includes("\x9b") ? text.replace(ANSI, "") : text;
}
