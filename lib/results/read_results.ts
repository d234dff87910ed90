/**
 * Reads a JSONL results file: agentv's rows and the original agentv tool's rows (mapped to ours,
 * see `original_rows.ts`), each checked against the row schema, its verdict against its score, and
 * its (dataset, case, target, trial) against the rows before it. A torn final line (a run killed
 * mid-write) is skipped and reported, never an error; a line that is not a valid row (or a second
 * row of one case run) is reported with its line, column and what is wrong, and left out.
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";
import {
  NULLABLE_ROW_KEYS,
  type ResultRow,
  ResultRowSchema,
  verdictOfScore,
} from "../schema/result.ts";
import { isOriginalRow, rowFromOriginal } from "./original_rows.ts";
import { forEachResultsLine, type ResultsFileLimits, type ResultsLine } from "./results_file.ts";
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
  /**
   * The problems (also in `problems`) that are a second row of one (dataset, case id, target,
   * trial): the file is not one run's results (`--resume` and the reruns refuse such a file).
   */
  duplicates: Diagnostic[];
  /** How many of `rows` were written by the original agentv tool (and mapped to this shape). */
  original_rows: number;
}

/** Options of {@link parseResults}. */
export interface ParseResultsOptions {
  /** File name used in problems (default `results.jsonl`). */
  file?: string;
}

/** Options of {@link readResults}: the caps of the file and its lines (see `results_file.ts`). */
export type ReadResultsOptions = ResultsFileLimits;

/**
 * Reads the rows of a results file (a row stored without `output_messages`, because its trace was
 * only its answer, gets that trace back; a key an older file left out that is `null` when not
 * applicable, such as `error` or `run_id`, reads as `null`). Blank lines are ignored; an
 * unterminated last line that does not parse is skipped (reported as `partial_line`); other
 * lines that are not valid rows are listed in `bad_lines` and `problems`: a row must have a
 * `score` from 0 to 1 (its evaluators' too), a `verdict` that its score gives (pass >= 0.8,
 * borderline >= 0.6, else fail; a `fail` may be forced by a failing evaluator, such as a required
 * rubric) and be the only row of its (dataset, case id, target, trial): a second one is a problem
 * on its line, and left out.
 *
 * The file is read through `forEachResultsLine` (`results_file.ts`): a FIFO, device or socket, a
 * file over 512 MiB or a line over 128 MiB is refused with a `ResultsFileError` before memory
 * grows (`options` may change the caps).
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
export async function readResults(
  path: string,
  options: ReadResultsOptions = {},
): Promise<ReadResultsOutput> {
  const reader = createResultsReader(path);
  await forEachResultsLine(path, (line) => reader.add(line), options);
  return reader.finish();
}

/**
 * Parses the text of a results file (see {@link readResults}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseResults } from "./read_results.ts";
 * const { problems } = parseResults('{"eval_id": "a", "score": 1, "status": "ok"}\n');
 * // `timestamp` is missing
 * assert.deepEqual([problems[0].line, problems[0].path], [1, "timestamp"]);
 * ```
 */
export function parseResults(text: string, options: ParseResultsOptions = {}): ReadResultsOutput {
  const reader = createResultsReader(options.file ?? "results.jsonl");
  const lines = text.split("\n");
  const terminated = text.endsWith("\n");
  for (let i = 0; i < lines.length; i++) {
    reader.add({ text: lines[i], number: i + 1, terminated: terminated || i < lines.length - 1 });
  }
  return reader.finish();
}

/** Collects the rows and problems of a results file, line by line. */
function createResultsReader(file: string) {
  const rows: ResultRow[] = [];
  const bad_lines: number[] = [];
  const problems: Diagnostic[] = [];
  const duplicates: Diagnostic[] = [];
  const keys = new RowKeys(file);
  let original_rows = 0;
  let partial_line: string | undefined;
  return {
    add(line: ResultsLine): void {
      const read = parseResultLine(line, file);
      if (read.kind === "torn") partial_line = read.text;
      if (read.kind !== "row") {
        if (read.kind === "problem") {
          bad_lines.push(line.number);
          problems.push(read.problem);
        }
        return;
      }
      const duplicate = keys.check(read.row, line.number);
      if (duplicate !== undefined) {
        bad_lines.push(line.number);
        problems.push(duplicate);
        duplicates.push(duplicate);
        return;
      }
      if (read.original) original_rows++;
      rows.push(read.row);
    },
    finish(): ReadResultsOutput {
      const out: ReadResultsOutput = { rows, bad_lines, problems, duplicates, original_rows };
      if (partial_line !== undefined) out.partial_line = partial_line;
      return out;
    },
  };
}

/** What one line of a results file holds. */
export type ResultLineRead =
  | { kind: "blank" }
  | { kind: "torn"; text: string }
  | { kind: "problem"; problem: Diagnostic }
  | { kind: "row"; row: ResultRow; original: boolean };

/**
 * Reads one line of a results file: blank, a torn last line (unterminated and not JSON), a
 * problem (file, line, column, key path, message) or a valid row (see {@link readResults} for
 * what makes a row valid; duplicates are told by {@link RowKeys}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseResultLine } from "./read_results.ts";
 * const read = parseResultLine({ text: '{"eval_id": "a"', number: 3, terminated: false }, "r.jsonl");
 * assert.equal(read.kind, "torn");
 * ```
 */
export function parseResultLine(input: ResultsLine, file: string): ResultLineRead {
  const line = input.text.replace(/\r$/, "");
  if (line.trim() === "") return { kind: "blank" };
  const problem = (column: number, message: string, path?: string): ResultLineRead => ({
    kind: "problem",
    problem: {
      severity: "error",
      file,
      line: input.number,
      column,
      ...(path !== undefined ? { path } : {}),
      message,
    },
  });
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    if (!input.terminated) return { kind: "torn", text: line };
    return problem(
      1,
      `Not JSON (${(e as Error).message}); expected one result row (a JSON object) per line; ` +
        "fix or remove the line",
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return problem(
      1,
      `Not a result row: found ${
        Array.isArray(value) ? "an array" : value === null ? "null" : typeof value
      }; expected a JSON object per line; fix or remove the line`,
    );
  }
  const original = isOriginalRow(value as Record<string, unknown>);
  // A stored row leaves out a trace that is only its answer: put it back before checking.
  const row = original
    ? rowFromOriginal(value as Record<string, unknown>)
    : expandRow(withNullDefaults(value as Record<string, unknown>) as ResultRow);
  const checked = ResultRowSchema.safeParse(row);
  const where = original ? " (original agentv format)" : "";
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const path = issue.path.map(String);
    const found = valueAt(row, issue.path);
    const what = issue.code === "invalid_type" && found === undefined
      ? "is missing"
      : issue.code === "too_big" || issue.code === "too_small"
      ? `${issue.message} (found ${JSON.stringify(found)})`
      : issue.message;
    return problem(
      columnOf(line, path),
      `Invalid result row${where}: ${
        path.length > 0 ? `'${pathText(issue.path)}' ` : ""
      }${what}; expected a row written by agentv run; fix or remove the line`,
      path.length > 0 ? pathText(issue.path) : undefined,
    );
  }
  const verdict = verdictProblem(row as ResultRow);
  if (verdict !== undefined) {
    return problem(
      columnOf(line, ["verdict"]),
      `Invalid result row${where}: ${verdict}; expected a row written by agentv run; fix or remove the line`,
      "verdict",
    );
  }
  // The value read is kept as it is (zod would drop keys it does not know inside objects).
  return { kind: "row", row: row as ResultRow, original };
}

/**
 * Why a row's verdict does not follow from its score, or undefined when it does: the verdict its
 * score gives, or a `fail` that one of its evaluators forced (a required rubric, `forces_fail`:
 * that evaluator's own verdict is then `fail`).
 */
function verdictProblem(row: ResultRow): string | undefined {
  const expected = verdictOfScore(row.score);
  if (row.verdict === expected) return undefined;
  if (row.verdict === "fail" && row.evaluator_results.some((r) => r.verdict === "fail")) {
    return undefined;
  }
  return `'verdict' is '${row.verdict}' but its score ${row.score} gives '${expected}' ` +
    "(pass >= 0.8, borderline >= 0.6, else fail)";
}

/**
 * The (dataset, case id, target, trial) keys seen so far in one results file: a second row with a
 * key is a problem on its line, naming the line of the first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RowKeys } from "./read_results.ts";
 * const keys = new RowKeys("r.jsonl");
 * const row = { dataset: "d", eval_id: "a", target: "t", trial: 0 };
 * assert.equal(keys.check(row, 1), undefined);
 * assert.match(keys.check(row, 2)?.message ?? "", /^Duplicate result row: .* is also at line 1;/);
 * ```
 */
export class RowKeys {
  #first = new Map<string, number>();
  #file: string;

  /** Keys of the results file `file` (named in problems). */
  constructor(file: string) {
    this.#file = file;
  }

  /** A problem when a row with the key of `row` was seen before, else records it. */
  check(
    row: Pick<ResultRow, "dataset" | "eval_id" | "target" | "trial">,
    line: number,
  ): Diagnostic | undefined {
    const key = `${row.dataset}\0${row.eval_id}\0${row.target}\0${row.trial}`;
    const first = this.#first.get(key);
    if (first === undefined) {
      this.#first.set(key, line);
      return undefined;
    }
    return {
      severity: "error",
      file: this.#file,
      line,
      column: 1,
      message:
        `Duplicate result row: case '${cut(row.eval_id)}' of dataset '${
          cut(row.dataset)
        }' on target '${cut(row.target)}', trial ${row.trial}, is also at line ${first}; ` +
        "expected one row per (dataset, case, target, trial); remove one of the two lines",
    };
  }
}

function cut(text: string): string {
  return text.length > 60 ? text.slice(0, 59) + "…" : text;
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
