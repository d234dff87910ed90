/**
 * A JSON syntax error of one line of a JSONL file, as `Line N: Invalid JSON - … (column C)`: the
 * column within that line, and the parser's message without the places it adds of its own
 * one-line parse (`at position 46`, `(line 1 column 47)`), which would contradict line N.
 *
 * @module
 */

/**
 * The parser's message about one line, without the places it adds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonLineDetail } from "./json_line_error.ts";
 * assert.equal(
 *   jsonLineDetail("Expected double-quoted property name in JSON at position 46 (line 1 column 47)"),
 *   "Expected double-quoted property name in JSON",
 * );
 * ```
 */
export function jsonLineDetail(message: string): string {
  return message.replace(/\s*\(line \d+ column \d+\)/g, "").replace(/\s+at position \d+/g, "")
    .trim();
}

/**
 * The column (1-based) the parser's message points at within its one line, or `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonLineColumn } from "./json_line_error.ts";
 * assert.equal(jsonLineColumn("Unexpected token in JSON at position 46 (line 1 column 47)"), 47);
 * assert.equal(jsonLineColumn("Unexpected token in JSON at position 9"), 10);
 * ```
 */
export function jsonLineColumn(message: string): number | undefined {
  const column = /\(line \d+ column (\d+)\)/.exec(message)?.[1];
  if (column !== undefined) return Number(column);
  const position = /at position (\d+)/.exec(message)?.[1];
  return position === undefined ? undefined : Number(position) + 1;
}

/**
 * `Line N: Invalid JSON - detail (column C)` (no column when the message has none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { invalidJsonLine } from "./json_line_error.ts";
 * assert.equal(
 *   invalidJsonLine(2, "Unexpected end of JSON input"),
 *   "Line 2: Invalid JSON - Unexpected end of JSON input",
 * );
 * ```
 */
export function invalidJsonLine(line: number, message: string, column?: number): string {
  const at = column ?? jsonLineColumn(message);
  return `Line ${line}: Invalid JSON - ${jsonLineDetail(message)}${
    at !== undefined ? ` (column ${at})` : ""
  }`;
}
