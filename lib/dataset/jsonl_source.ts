/**
 * JSONL text → records with physical line numbers. JSON is parsed with the platform's
 * `JSON.parse`, and positions inside a line are found by a small scanner here. `jsonc-parser`
 * (a CommonJS package: importing it starts Deno's Node layer, tens of ms in a fresh worker) is
 * imported only to place a syntax error, so a JSONL file without one never loads it.
 *
 * @module
 */
import type { ParseError } from "jsonc-parser";
import type { Position } from "../fs/decode.ts";
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
  | { ok: false; detail: string };

/**
 * Parses one JSONL line. On failure, `detail` is the parser's own message; the column of the
 * error is {@link jsonLineErrorColumn}'s to find.
 *
 * @example
 * ```ts
 * parseJsonLine('{"a": 1 "b": 2}'); // { ok: false, detail: "Expected ',' or '}' ..." }
 * ```
 */
export function parseJsonLine(text: string): JsonLineResult {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, detail: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The 1-based column of the first syntax error in one JSON line (as `jsonc-parser` finds it,
 * imported on first use), or `undefined` when there is none.
 *
 * @example
 * ```ts
 * await jsonLineErrorColumn('{"a": 1 "b": 2}'); // 9
 * ```
 */
export async function jsonLineErrorColumn(text: string): Promise<number | undefined> {
  const { parse } = await import("jsonc-parser");
  const errors: ParseError[] = [];
  try {
    parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  } catch {
    return undefined; // positions are best effort
  }
  return errors.length > 0 ? errors[0].offset + 1 : undefined;
}

/**
 * Column (1-based, UTF-16 code units) of the value at `path` inside one JSON line; the column
 * of the deepest part of the path that exists when the rest does not; with `key: true`, the
 * column of the property name. Where a key appears twice, the first is found. `undefined` for
 * a blank line.
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
  let node = skipSpace(text, 0);
  if (node >= text.length) return undefined;
  let keyAt = -1;
  for (const segment of path) {
    const found = typeof segment === "string"
      ? findProperty(text, node, segment)
      : findElement(text, node, segment);
    if (found === undefined) return node + 1;
    node = found.value;
    keyAt = found.key;
  }
  return options.key && path.length > 0 && keyAt !== -1 ? keyAt + 1 : node + 1;
}

/** The property `name` of the object at `at`: where its key and its value start. */
function findProperty(
  text: string,
  at: number,
  name: string,
): { key: number; value: number } | undefined {
  if (text.charCodeAt(at) !== 123 /* { */) return undefined;
  let i = skipSpace(text, at + 1);
  while (i < text.length && text.charCodeAt(i) === 34 /* " */) {
    const key = i;
    const keyEnd = skipString(text, i);
    if (keyEnd === -1) return undefined;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== 58 /* : */) return undefined;
    const value = skipSpace(text, i + 1);
    if (keyText(text, key, keyEnd) === name) return { key, value };
    i = nextItem(text, value);
  }
  return undefined;
}

/** Element `index` of the array at `at`: where it starts (an element has no key). */
function findElement(
  text: string,
  at: number,
  index: number,
): { key: number; value: number } | undefined {
  if (text.charCodeAt(at) !== 91 /* [ */) return undefined;
  let i = skipSpace(text, at + 1);
  if (text.charCodeAt(i) === 93 /* ] */) return undefined;
  for (let n = 0; i !== -1 && i < text.length; n++) {
    if (n === index) return { key: -1, value: i };
    i = nextItem(text, i);
  }
  return undefined;
}

/**
 * Past the member or element whose value starts at `value` and the comma after it: where the
 * next one starts, or -1 when the value is not well formed or no comma follows (the last one).
 */
function nextItem(text: string, value: number): number {
  const end = skipValue(text, value);
  if (end === -1) return -1;
  const comma = skipSpace(text, end);
  return text.charCodeAt(comma) === 44 /* , */ ? skipSpace(text, comma + 1) : -1;
}

/** The key whose quoted text spans `start..end` (escapes decoded only when there are some). */
function keyText(text: string, start: number, end: number): string | undefined {
  const raw = text.slice(start + 1, end - 1);
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    return undefined;
  }
}

/** The index after the JSON value starting at `at`, or -1 when it is not well formed. */
function skipValue(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c === 34 /* " */) return skipString(text, at);
  if (c === 123 /* { */ || c === 91 /* [ */) {
    // Brackets balance in valid JSON once strings are skipped.
    let depth = 0;
    for (let i = at; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === 34) {
        i = skipString(text, i) - 1;
        if (i < 0) return -1;
      } else if (d === 123 || d === 91) depth++;
      else if (d === 125 /* } */ || d === 93 /* ] */) {
        if (--depth === 0) return i + 1;
      }
    }
    return -1;
  }
  // A number or a literal: up to the next delimiter.
  let i = at;
  while (i < text.length && !DELIMITERS.has(text.charCodeAt(i))) i++;
  return i > at ? i : -1;
}

/** Characters that end a number or literal: `,` `}` `]` and JSON whitespace. */
const DELIMITERS = new Set([44, 125, 93, 32, 9, 10, 13]);

/** The index after the string starting (at its quote) at `at`, or -1 when it is unterminated. */
function skipString(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) i++;
    else if (c === 34 /* " */) return i + 1;
  }
  return -1;
}

/** The index of the first non-whitespace character from `at`. */
function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
    i++;
  }
  return i;
}

/** Position helper: the line of a JSONL record plus a column inside it. */
export function jsonlPosition(line: number, column: number | undefined): Position {
  return { line, column: column ?? 1 };
}
