/**
 * GitHub Actions annotations for failed cases: `::error file=<eval file>,line=<case line>::…`
 * workflow commands, so a failure shows on the dataset line of a pull request. Values are
 * escaped by GitHub's workflow-command rules (`%`, `\r`, `\n` in the message; also `:` and `,`
 * in properties), so a case's text cannot end the command early or forge another one.
 *
 * @module
 */
import type { ResultRow } from "../schema/result.ts";

/** Where a case is defined: its eval file (as GitHub should show it) and 1-based line. */
export interface CaseSourceLocation {
  /** The eval file, relative to the repository root. */
  file: string;
  /** 1-based line of the case, when known. */
  line?: number;
}

/** Options of {@link renderAnnotations}. */
export interface AnnotationOptions {
  /** Where a row's case is defined (no `file=` property when it returns undefined). */
  locate?: (row: ResultRow) => CaseSourceLocation | undefined;
  /**
   * Most annotations printed (default 50: GitHub shows only the first ones of a step anyway);
   * the rest are counted in one closing `::warning::`.
   */
  max?: number;
}

/**
 * Escapes the message of a workflow command: `%`, `\r` and `\n` are percent-encoded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeCommandData } from "./annotations.ts";
 * assert.equal(escapeCommandData("100%\n::warning::x"), "100%25%0A::warning::x");
 * ```
 */
export function escapeCommandData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/**
 * Escapes a property value of a workflow command: as {@link escapeCommandData}, plus `:` and `,`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeCommandProperty } from "./annotations.ts";
 * assert.equal(escapeCommandProperty("a,b: c"), "a%2Cb%3A c");
 * ```
 */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

// Controls other than line breaks (a CI log must not be driven by a case's text), and the
// Unicode line separators, which some log viewers break lines on.
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

function clean(text: string): string {
  return text.replace(CONTROL, "").replace(/\u2028|\u2029/g, "\n");
}

function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

/** Whether a row is annotated: a `fail` verdict, or a case that could not run or be scored. */
export function isAnnotatedRow(row: ResultRow): boolean {
  return row.status === "error" || (row.status === "ok" && row.verdict === "fail");
}

function firstMiss(row: ResultRow): string | undefined {
  if (row.misses[0] !== undefined) return row.misses[0];
  for (const e of row.evaluator_results) {
    if (e.misses[0] !== undefined) return e.misses[0];
  }
  return row.reasoning ?? undefined;
}

function annotation(row: ResultRow, where: CaseSourceLocation | undefined): string {
  const title = `${row.dataset}/${row.eval_id} (${row.target})`;
  const props: string[] = [];
  if (where !== undefined) {
    props.push(`file=${escapeCommandProperty(where.file)}`);
    if (where.line !== undefined) props.push(`line=${where.line}`);
  }
  props.push(`title=${escapeCommandProperty(cut(clean(title), 200))}`);
  let message: string;
  if (row.status === "error") {
    message = `Case '${row.eval_id}' could not be scored: ${row.error ?? "unknown error"}`;
  } else {
    const miss = firstMiss(row);
    const more = row.misses.length > 1 ? `\n(${row.misses.length - 1} more misses)` : "";
    message = `Case '${row.eval_id}' failed with score ${row.score.toFixed(2)}${
      miss !== undefined ? `: ${miss}` : ""
    }${more}`;
  }
  return `::error ${props.join(",")}::${escapeCommandData(cut(clean(message), 2000))}\n`;
}

/**
 * Renders one `::error` workflow command per failed or errored row (see {@link isAnnotatedRow}),
 * in row order; empty when nothing failed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderAnnotations } from "./annotations.ts";
 * import type { ResultRow } from "../schema/result.ts";
 *
 * const row: ResultRow = {
 *   run_id: null, trial: 0, timestamp: "2026-01-21T10:00:00.000Z", eval_id: "refund",
 *   dataset: "support", conversation_id: null, target: "default", status: "ok", score: 0.25,
 *   verdict: "fail", hits: [], misses: ["No refund offered"], reasoning: null,
 *   candidate_answer: "No.", evaluator_results: [], trace_summary: null, output_messages: [],
 *   token_usage: null, duration_ms: 1500, attempts: 1, error: null,
 * };
 * const text = renderAnnotations([row], { locate: () => ({ file: "evals/support.yaml", line: 4 }) });
 * assert.equal(
 *   text,
 *   "::error file=evals/support.yaml,line=4,title=support/refund (default)::" +
 *     "Case 'refund' failed with score 0.25: No refund offered\n",
 * );
 * ```
 */
export function renderAnnotations(
  rows: readonly ResultRow[],
  options: AnnotationOptions = {},
): string {
  const max = options.max ?? 50;
  const failed = rows.filter(isAnnotatedRow);
  let out = failed.slice(0, max).map((r) => annotation(r, options.locate?.(r))).join("");
  if (failed.length > max) {
    out += `::warning::${
      escapeCommandData(
        `${failed.length - max} more failed cases are not annotated; see the report`,
      )
    }\n`;
  }
  return out;
}
