/**
 * Reads a JSONL results file tolerantly: a torn final line (a run killed mid-write) is skipped
 * and reported, never an error.
 *
 * @module
 */
import type { ResultRow } from "../schema/result.ts";
import { expandRow } from "./row_format.ts";

/** What {@link readResults} found. */
export interface ReadResultsOutput {
  /** Every complete row, in file order. */
  rows: ResultRow[];
  /** The partial final line that was skipped, if any (a run was killed while writing it). */
  partial_line?: string;
  /** 1-based line numbers of lines that are not JSON objects (not counting a partial last line). */
  bad_lines: number[];
}

/**
 * Reads the rows of a results file (a row stored without `output_messages`, because its trace was
 * only its answer, gets that trace back). Blank lines are ignored; an unterminated last line that does
 * not parse is skipped (reported as `partial_line`); other unparsable lines are listed in
 * `bad_lines`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readResults } from "./read_results.ts";
 *
 * // A run killed mid-write: the torn last line is reported, not an error.
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * await Deno.writeTextFile(path, '{"eval_id": "a", "status": "ok"}\n{"eval_id": "b", "sta');
 * const { rows, partial_line } = await readResults(path);
 * assert.deepEqual([rows.length, partial_line], [1, '{"eval_id": "b", "sta']);
 * await Deno.remove(path);
 * ```
 */
export async function readResults(path: string): Promise<ReadResultsOutput> {
  const text = await Deno.readTextFile(path);
  return parseResults(text);
}

/** Parses the text of a results file (see {@link readResults}). */
export function parseResults(text: string): ReadResultsOutput {
  const rows: ResultRow[] = [];
  const bad_lines: number[] = [];
  let partial_line: string | undefined;
  const lines = text.split("\n");
  const endsWithNewline = text.endsWith("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, "");
    if (line.trim() === "") continue;
    const isLast = i === lines.length - 1 && !endsWithNewline;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (isLast) partial_line = line;
      else bad_lines.push(i + 1);
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      bad_lines.push(i + 1);
      continue;
    }
    rows.push(expandRow(value as ResultRow));
  }
  return partial_line === undefined ? { rows, bad_lines } : { rows, partial_line, bad_lines };
}
