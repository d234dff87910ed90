/**
 * JSONL text → records with physical line numbers. JSON is parsed with the platform's
 * `JSON.parse`; `jsonc-parser` is used only when reporting an error, to find columns.
 *
 * @module
 */
import { findNodeAtLocation, parse as parseLoose, type ParseError, parseTree } from "jsonc-parser";
import type { Position } from "./decode.ts";
import type { PathKey } from "./yaml_source.ts";

/** One non-blank line of a JSONL text. */
export interface JsonlLine {
  /** 1-based physical line number. */
  line: number;
  /** The line's text, without the line break (a trailing `\r` removed). */
  text: string;
}

/**
 * Splits JSONL text into its non-blank lines with physical line numbers (blank and
 * whitespace-only lines are skipped; `\n` and `\r\n` endings both work).
 *
 * @example
 * ```ts
 * [...splitJsonlLines('{"a":1}\r\n\n  \n{"b":2}')];
 * // [{ line: 1, text: '{"a":1}' }, { line: 4, text: '{"b":2}' }]
 * ```
 */
export function* splitJsonlLines(text: string, firstLine = 1): Generator<JsonlLine> {
  let start = 0;
  let line = firstLine;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    let stop = end;
    if (stop > start && text.charCodeAt(stop - 1) === 13) stop--;
    if (stop > start) {
      const c = text.charCodeAt(start);
      if (c === 123 /* { */) {
        yield { line, text: text.slice(start, stop) };
      } else {
        const slice = text.slice(start, stop);
        if (slice.trim() !== "") yield { line, text: slice };
      }
    }
    line++;
    start = end + 1;
  }
}

/** The result of {@link parseJsonLine}. */
export type JsonLineResult =
  | { ok: true; value: unknown }
  | { ok: false; detail: string; column?: number };

/**
 * Parses one JSONL line. On failure, `detail` is the parser's own message and `column` the
 * 1-based column of the first syntax error.
 *
 * @example
 * ```ts
 * parseJsonLine('{"a": 1 "b": 2}'); // { ok: false, detail: "Expected ',' or '}' ...", column: 9 }
 * ```
 */
export function parseJsonLine(text: string): JsonLineResult {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const errors: ParseError[] = [];
    try {
      parseLoose(text, errors, { allowTrailingComma: false, disallowComments: true });
    } catch {
      // positions are best effort
    }
    const column = errors.length > 0 ? errors[0].offset + 1 : undefined;
    return { ok: false, detail: e instanceof Error ? e.message : String(e), column };
  }
}

/**
 * Column (1-based) of the value at `path` inside one JSON line; the parent's column when the
 * path does not exist; with `key: true`, the column of the property name.
 *
 * @example
 * ```ts
 * locateInJsonLine('{"id": 1}', ["id"]); // 8
 * ```
 */
export function locateInJsonLine(
  text: string,
  path: readonly PathKey[],
  options: { key?: boolean } = {},
): number | undefined {
  const root = parseTree(text);
  if (!root) return undefined;
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n) as PathKey[]);
    if (!node) continue;
    if (options.key && n === path.length && node.parent?.type === "property") {
      return node.parent.offset + 1;
    }
    return node.offset + 1;
  }
  return root.offset + 1;
}

/** Position helper: the line of a JSONL record plus a column inside it. */
export function jsonlPosition(line: number, column: number | undefined): Position {
  return { line, column: column ?? 1 };
}
