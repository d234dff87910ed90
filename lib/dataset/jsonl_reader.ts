/**
 * Reading a JSONL eval file without any schema: its lines (a chunk at a time), each line parsed
 * as one JSON object, and its sidecar's defaults (yaml and the sidecar schema are imported only
 * when there is a sidecar). `validate` reads a JSONL file whose cases are plain through this
 * module alone, so zod is never loaded for it.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import type { Diagnostic } from "../schema/eval_case.ts";
import { jsonLineErrorColumn, type JsonlLine, parseJsonLine } from "./jsonl_source.ts";
import { loadPatternEngineFor, type LoadSetup, readSourceText } from "./context.ts";
import { invalidJsonLine } from "../text/json_line_error.ts";
import { EvalLoadError } from "./errors.ts";
import { sha256Hex } from "./dataset_commands.ts";
import type { FileDefaults } from "./normalize_case.ts";

/** Deepest nesting accepted in one JSONL record (deeper values cannot be passed between workers). */
export const MAX_JSON_DEPTH = 512;

/**
 * Reads the sidecar `<dir>/<stem>.yaml` (only that name). A missing sidecar gives the defaults
 * (and a warning when `verbose`); an invalid one throws {@link EvalLoadError}.
 */
export async function sidecarDefaults(
  setup: LoadSetup,
  options: { verbose: boolean; emit(d: Diagnostic): void },
): Promise<FileDefaults> {
  const path = join(setup.evalDir, `${setup.stem}.yaml`);
  const sidecarFile = join(dirname(setup.file), basename(path));
  let exists = false;
  try {
    exists = (await Deno.stat(path)).isFile;
  } catch {
    exists = false;
  }
  if (!exists) {
    if (options.verbose) {
      options.emit({
        severity: "warning",
        file: setup.file,
        message:
          `Sidecar metadata file not found: ${sidecarFile} (using defaults: dataset '${setup.stem}', target 'default', evaluator 'llm_judge')`,
      });
    }
    return { dataset: setup.stem || "eval", execution: {}, evaluator: "llm_judge" };
  }
  // Only a file that has a sidecar needs yaml and the sidecar schema.
  const { fileDefaults, parseYamlOrThrow } = await import("./yaml_file.ts");
  const text = await readSourceText(path, sidecarFile);
  // Consent covers the sidecar's text as parsed here (never a second read).
  setup.needs.sources.push({ file: path, sha256: await sha256Hex(text) });
  const source = await parseYamlOrThrow(text, sidecarFile);
  const value = source.value ?? {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw EvalLoadError.from([{
      severity: "error",
      file: sidecarFile,
      line: 1,
      column: 1,
      message:
        "Invalid sidecar metadata: the top level is not a mapping; expected description, dataset, execution, evaluator; write a mapping",
    }]);
  }
  return await fileDefaults(value, {
    setup,
    sidecar: sidecarFile,
    source: path,
    locate: (p, atKey) => source.locate(p, { key: atKey }),
    emit: options.emit,
  });
}

/** Options of {@link readJsonlLines} and {@link readJsonlText}. */
export interface JsonlReadOptions {
  /** Bytes read at a time (default 1 MiB). */
  chunkBytes?: number;
  /** Receives every byte parsed, in order (the consent hash of the file). */
  hash?: { update(bytes: Uint8Array): unknown };
}

/** A parsed JSONL line, or the file-level diagnostic for a malformed one. */
export type ParsedLine = { value: object } | { diagnostic: Diagnostic };

/**
 * Parses one line; a syntax error or a non-object is a `Line N: Invalid JSON` diagnostic. Only a
 * syntax error gives a promise (its column is found by a parser imported on first use), so a
 * valid file is parsed without awaiting each line.
 */
export function parseRecord(line: JsonlLine, file: string): ParsedLine | Promise<ParsedLine> {
  const parsed = parseJsonLine(line.text);
  if (!parsed.ok) {
    return jsonLineErrorColumn(line.text).then((column) => ({
      diagnostic: {
        severity: "error",
        file,
        line: line.line,
        column: column ?? 1,
        message: `${
          invalidJsonLine(line.line, parsed.detail, column)
        }; expected one JSON object per line; fix the JSON syntax on this line`,
      },
    }));
  }
  const value = parsed.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return {
      diagnostic: {
        severity: "error",
        file,
        line: line.line,
        column: 1,
        message: `Line ${line.line}: Invalid JSON - Expected JSON object; found ${
          value === null ? "null" : Array.isArray(value) ? "an array" : typeof value
        }; write one case object per line`,
      },
    };
  }
  return { value };
}

/** Maximum bracket nesting of a JSON text (strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
    } else if (c === 125 || c === 93) {
      depth--;
    }
  }
  return max;
}

/** Bytes read at a time by {@link readJsonlText}. */
const CHUNK_BYTES = 1 << 20;

/**
 * The non-blank lines of a JSONL file (the same lines, with the same numbers, as
 * `splitJsonlLines` of its text), read a chunk at a time so the file is never held whole: one
 * array of lines per chunk (a loop over them needs no `await` per line). A file
 * that cannot be read, holds NUL bytes or is not UTF-8 throws `EvalLoadError` with the position
 * of the problem, as `readSourceText` reports it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * const dir = await Deno.makeTempDir();
 * const file = join(dir, "cases.jsonl");
 * await Deno.writeTextFile(file, '{"id": "a"}\n\n{"id": "b"}\n');
 * const numbers: number[] = [];
 * for await (const lines of readJsonlLines(file, "cases.jsonl")) {
 *   numbers.push(...lines.map((l) => l.line));
 * }
 * assert.deepEqual(numbers, [1, 3]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function* readJsonlLines(
  absFile: string,
  displayFile: string,
  options: JsonlReadOptions = {},
): AsyncGenerator<JsonlLine[]> {
  let nextLine = 1;
  for await (const text of readJsonlText(absFile, displayFile, options)) {
    const lines: JsonlLine[] = [];
    let start = 0;
    for (; start < text.length; nextLine++) {
      const end = lineEnd(text, start);
      const line = jsonlLineText(text, start, end);
      if (line !== undefined) lines.push({ line: nextLine, text: line });
      start = end + 1;
    }
    if (lines.length > 0) yield lines;
  }
}

/**
 * The text of a JSONL file, a chunk at a time (a byte order mark removed). Every chunk but the
 * last ends with a line break, so a caller that numbers the lines of each chunk in turn
 * (`lineEnd`, `jsonlLineText`) numbers the file's lines. A file that cannot be read, holds NUL
 * bytes or is not UTF-8 throws `EvalLoadError` with the position of the problem, as
 * `readSourceText` reports it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * const dir = await Deno.makeTempDir();
 * const file = join(dir, "cases.jsonl");
 * await Deno.writeTextFile(file, '{"id": "a"}\n{"id": "b"}\n');
 * let length = 0;
 * for await (const text of readJsonlText(file, "cases.jsonl")) length += text.length;
 * assert.equal(length, 24);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function* readJsonlText(
  absFile: string,
  displayFile: string,
  options: JsonlReadOptions = {},
): AsyncGenerator<string> {
  // Problems are rare: the whole-file reader is asked for its precise message then.
  const precise = async (): Promise<never> => {
    await readSourceText(absFile, displayFile);
    throw EvalLoadError.from([{
      severity: "error",
      file: displayFile,
      message:
        "The file changed while it was read; expected a stable eval file; run again once it is written",
    }]);
  };
  let file: Deno.FsFile;
  try {
    file = await Deno.open(absFile, { read: true });
  } catch {
    return await precise();
  }
  // Each chunk is cut after its last line break, so it holds whole UTF-8 sequences and decodes on
  // its own (one call, much faster than a streaming decoder); the bytes after the cut start the
  // next chunk. A line longer than the buffer makes the buffer grow.
  // Decoding that replaces bad bytes is several times faster than the fatal one: a chunk is
  // decoded again, fatally, only when it holds U+FFFD (bad bytes, or the character itself).
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let buffer = new Uint8Array(options.chunkBytes ?? CHUNK_BYTES);
  let kept = 0; // bytes at the start of `buffer` carried over from the last read
  let first = true;
  try {
    while (true) {
      if (kept === buffer.length) {
        const grown = new Uint8Array(buffer.length * 2);
        grown.set(buffer);
        buffer = grown;
      }
      const n = await file.read(buffer.subarray(kept));
      const done = n === null;
      const filled = kept + (n ?? 0);
      const cut = done ? filled : buffer.subarray(0, filled).lastIndexOf(10 /* \n */) + 1;
      if (cut === 0 && !done) {
        kept = filled;
        continue;
      }
      let text = decoder.decode(buffer.subarray(0, cut));
      if (text.includes("\uFFFD")) {
        try {
          text = strict.decode(buffer.subarray(0, cut));
        } catch {
          return await precise();
        }
      }
      // A NUL byte is U+0000 in the text, found there several times faster than in the bytes.
      if (text.includes("\0")) return await precise();
      options.hash?.update(buffer.subarray(0, cut));
      if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
      await loadPatternEngineFor(text);
      buffer.copyWithin(0, cut, filled);
      kept = filled - cut;
      if (text.length > 0) yield text;
      if (done) return;
    }
  } finally {
    file.close();
  }
}

/** Where the line starting at `start` ends: its line break, or the end of the text. */
export function lineEnd(text: string, start: number): number {
  const end = text.indexOf("\n", start);
  return end === -1 ? text.length : end;
}

/**
 * The line of `text` between `start` and `end` (its `\n`) as a JSONL line: without a trailing
 * `\r`, or `undefined` when it is blank (as `splitJsonlLines` skips it).
 */
export function jsonlLineText(text: string, start: number, end: number): string | undefined {
  const stop = end > start && text.charCodeAt(end - 1) === 13 /* \r */ ? end - 1 : end;
  if (stop === start) return undefined;
  const line = text.slice(start, stop);
  return line.charCodeAt(0) === 123 /* { */ || line.trim() !== "" ? line : undefined;
}
