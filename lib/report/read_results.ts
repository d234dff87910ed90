/**
 * Reads a JSONL results file: agentv's rows and the original agentv tool's rows (mapped to ours,
 * see `original_rows.ts`), each checked against the row schema. A torn final line (a run killed
 * mid-write) is skipped and reported, never an error; a line that is not a valid row is reported
 * with its line, column and what is wrong, and left out.
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";
import { NULLABLE_ROW_KEYS, type ResultRow, ResultRowSchema } from "../schema/result.ts";
import { isOriginalRow, rowFromOriginal } from "./original_rows.ts";
import { expandRow } from "./row_format.ts";

/** What {@link readResults} found. */
export interface ReadResultsOutput {
  /** Every valid row, in file order. */
  rows: ResultRow[];
  /** The partial final line that was skipped, if any (a run was killed while writing it). */
  partial_line?: string;
  /**
   * 1-based line numbers of lines left out: not JSON objects, or not valid rows (not counting a
   * partial last line). {@link ReadResultsOutput.problems} says what is wrong with each.
   */
  bad_lines: number[];
  /** One error diagnostic per line in `bad_lines` (file, line, column, key path, message). */
  problems: Diagnostic[];
  /** How many of `rows` were written by the original agentv tool (and mapped to this shape). */
  original_rows: number;
}

/** Options of {@link parseResults}. */
export interface ParseResultsOptions {
  /** File name used in problems (default `results.jsonl`). */
  file?: string;
}

/**
 * Reads the rows of a results file (a row stored without `output_messages`, because its trace was
 * only its answer, gets that trace back; a key an older file left out that is `null` when not
 * applicable, such as `error` or `run_id`, reads as `null`). Blank lines are ignored; an
 * unterminated last line that does not parse is skipped (reported as `partial_line`); other
 * lines that are not valid rows are listed in `bad_lines` and `problems`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readResults } from "./read_results.ts";
 *
 * // A row of the original tool, then a run killed mid-write: the torn last line is reported.
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * await Deno.writeTextFile(
 *   path,
 *   '{"eval_id": "a", "score": 0.9, "target": "t", "timestamp": "2025-01-15T10:00:00Z"}\n' +
 *     '{"eval_id": "b", "sta',
 * );
 * const { rows, partial_line } = await readResults(path);
 * assert.deepEqual([rows[0].verdict, partial_line], ["pass", '{"eval_id": "b", "sta']);
 * await Deno.remove(path);
 * ```
 */
export async function readResults(path: string): Promise<ReadResultsOutput> {
  const text = await Deno.readTextFile(path);
  return parseResults(text, { file: path });
}

/**
 * Parses the text of a results file (see {@link readResults}).
 *
 * @example
 * ```ts
 * import { parseResults } from "./read_results.ts";
 * const { problems } = parseResults('{"eval_id": "a", "score": 1, "status": "ok"}\n');
 * console.log(problems[0].line, problems[0].path); // 1 "timestamp" (it is missing)
 * ```
 */
export function parseResults(text: string, options: ParseResultsOptions = {}): ReadResultsOutput {
  const file = options.file ?? "results.jsonl";
  const rows: ResultRow[] = [];
  const bad_lines: number[] = [];
  const problems: Diagnostic[] = [];
  let original_rows = 0;
  let partial_line: string | undefined;
  const lines = text.split("\n");
  const endsWithNewline = text.endsWith("\n");
  const bad = (line: number, problem: Omit<Diagnostic, "severity" | "file" | "line">) => {
    bad_lines.push(line);
    problems.push({ severity: "error", file, line, ...problem });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, "");
    if (line.trim() === "") continue;
    const isLast = i === lines.length - 1 && !endsWithNewline;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      if (isLast) partial_line = line;
      else {
        bad(i + 1, {
          column: 1,
          message: `Not JSON (${(e as Error).message}); expected one result row (a JSON object) ` +
            "per line; fix or remove the line",
        });
      }
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      bad(i + 1, {
        column: 1,
        message: `Not a result row: found ${
          Array.isArray(value) ? "an array" : value === null ? "null" : typeof value
        }; expected a JSON object per line; fix or remove the line`,
      });
      continue;
    }
    const original = isOriginalRow(value as Record<string, unknown>);
    // A stored row leaves out a trace that is only its answer: put it back before checking.
    const row = original
      ? rowFromOriginal(value as Record<string, unknown>)
      : expandRow(withNullDefaults(value as Record<string, unknown>) as ResultRow);
    const checked = ResultRowSchema.safeParse(row);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      const path = issue.path.map(String);
      bad(i + 1, {
        column: columnOf(line, path),
        ...(path.length > 0 ? { path: pathText(issue.path) } : {}),
        message: `Invalid result row${original ? " (original agentv format)" : ""}: ${
          path.length > 0 ? `'${pathText(issue.path)}' ` : ""
        }${
          issue.code === "invalid_type" && valueAt(row, issue.path) === undefined
            ? "is missing"
            : issue.message
        }; expected a row written by agentv run; fix or remove the line`,
      });
      continue;
    }
    // The value read is kept as it is (zod would drop keys it does not know inside objects).
    if (original) original_rows++;
    rows.push(row as ResultRow);
  }
  const out: ReadResultsOutput = { rows, bad_lines, problems, original_rows };
  if (partial_line !== undefined) out.partial_line = partial_line;
  return out;
}

/** A row of agentv with the keys an older version left out filled in (`null`, trial 0). */
function withNullDefaults(value: Record<string, unknown>): Record<string, unknown> {
  const missing = NULLABLE_ROW_KEYS.filter((k) => !(k in value));
  if (missing.length === 0 && "trial" in value) return value;
  const out: Record<string, unknown> = { ...value };
  for (const key of missing) out[key] = null;
  if (!("trial" in out)) out.trial = 0;
  return out;
}

/** The value at a key path, or undefined. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/** `evaluator_results[0].score` for `["evaluator_results", 0, "score"]`. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)
    .join("");
}

/** 1-based column of the last key of `path` in the line (its first occurrence), else 1. */
function columnOf(line: string, path: readonly string[]): number {
  for (let i = path.length - 1; i >= 0; i--) {
    if (/^\d+$/.test(path[i])) continue;
    const at = line.indexOf(`${JSON.stringify(path[i])}:`);
    const spaced = at >= 0 ? at : line.indexOf(`${JSON.stringify(path[i])} :`);
    if (spaced >= 0) return spaced + 1;
  }
  return 1;
}
