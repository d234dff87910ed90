/**
 * The HTML report of a results file: one self-contained page (inline CSS and JS, no network) with
 * a summary, a sortable, filterable, paged table of the cases and a case view with input,
 * expected outcome, answer, every evaluator's score, hits, misses and reasoning, and the full
 * trace with its tool calls.
 *
 * @module
 */
import type { ResultRow } from "../../schema/result.ts";
import type { LabelAgreement } from "../../results/label_agreement.ts";
import { renderHtmlPage } from "./html_page.ts";

/** What a case's eval file says, when the caller has it (results rows do not always carry it). */
export interface HtmlCaseDetails {
  /** The input messages (or text) sent to the target. */
  input?: unknown;
  /** The expected outcome the case is graded against. */
  expected_outcome?: unknown;
}

/** Options of {@link renderHtmlReport}. */
export interface HtmlReportOptions {
  /** Page title (default `"agentv report"`). */
  title?: string;
  /** Where the rows came from (e.g. the results file path), shown under the title. */
  source?: string;
  /** When the page was made, shown under the title (default: not shown, so output is stable). */
  generatedAt?: Date;
  /**
   * Looks up a row's input and expected outcome (e.g. from its eval file). When it is not given,
   * or returns nothing for a field, the row's own `input` / `input_messages` /
   * `lm_provider_request.question` and `expected_outcome` / `expected_output` are shown.
   */
  caseDetails?: (row: ResultRow) => HtmlCaseDetails | undefined;
  /** Human labels of the rows beside agentv's verdicts (a tile, and each case's labels). */
  labels?: LabelAgreement;
}

/**
 * Renders result rows as one self-contained HTML page. Every value is embedded as JSON (with
 * `<`, `>`, `&`, U+2028 and U+2029 escaped) and placed in the DOM with `textContent` by the page
 * script, so rows from untrusted datasets or model outputs are shown as text and never run. The
 * page only ever holds one page of table rows in the DOM, so 10,000 cases stay responsive.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ResultRow } from "../../schema/result.ts";
import type { LabelAgreement } from "../../results/label_agreement.ts";
 * import { renderHtmlReport } from "./render_html_report.ts";
 *
 * const row = {
 *   run_id: null, trial: 0, conversation_id: null, reasoning: null, trace_summary: null,
 *   token_usage: null, error: null, timestamp: "2026-01-01T00:00:00Z", eval_id: "<b>x</b>", dataset: "ds", target: "mock",
 *   status: "ok", score: 1, verdict: "pass", hits: [], misses: [], candidate_answer: "hi",
 *   evaluator_results: [], output_messages: [], duration_ms: 5, attempts: 1,
 * } as unknown as ResultRow;
 * const html = renderHtmlReport([row], { title: "Nightly" });
 * assert.match(html, /<title>Nightly<\/title>/);
 * assert.equal(html.includes("<b>x</b>"), false); // data is JSON with `<` escaped
 * ```
 */
export function renderHtmlReport(
  rows: readonly ResultRow[],
  options: HtmlReportOptions = {},
): string {
  const data = reportPageData(rows, options);
  return renderHtmlPage({ kind: "report", title: data.title, data });
}

/** The data the report page script reads (see {@link renderHtmlReport}). */
export interface ReportPageData {
  /** The page title. */
  title: string;
  /** Where the rows came from. */
  source: string | null;
  /** When the page was made (ISO), or null. */
  generated_at: string | null;
  /** Whether some case ran more than once (the table gets a trial column). */
  trials: boolean;
  /** The rows as the page shows them (see {@link projectRow}). */
  rows: Record<string, unknown>[];
  /** Human labels and how they compare with agentv's verdicts, when given. */
  labels?: LabelAgreement;
}

/**
 * The data of the report page, which `renderHtmlReport` embeds and the local viewer serves as
 * JSON for its run page.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportPageData } from "./render_html_report.ts";
 * assert.equal(reportPageData([], { title: "t" }).title, "t");
 * ```
 */
export function reportPageData(
  rows: readonly ResultRow[],
  options: HtmlReportOptions = {},
): ReportPageData {
  return {
    title: options.title ?? "agentv report",
    source: options.source ?? null,
    generated_at: options.generatedAt?.toISOString() ?? null,
    trials: rows.some((row) => typeof row.trial === "number" && row.trial > 0),
    rows: rows.map((row) => projectRow(row, options.caseDetails)),
    ...(options.labels !== undefined ? { labels: options.labels } : {}),
  };
}

/**
 * The part of a row the page shows: the row itself (so nothing is lost), without the judges'
 * raw requests (large, and not shown), plus `input` and `expected_outcome` when they are known.
 * Exported for the compare page, which embeds rows the same way.
 */
export function projectRow(
  row: ResultRow,
  caseDetails?: (row: ResultRow) => HtmlCaseDetails | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key === "lm_provider_request") continue;
    if (key === "evaluator_results" && Array.isArray(value)) {
      out[key] = value.map(stripRequests);
    } else out[key] = value;
  }
  const details = caseDetails?.(row);
  const input = details?.input ?? rowInput(row);
  const expected = details?.expected_outcome ?? row.expected_outcome ?? row.expected_output ??
    row.expected_messages;
  if (input !== undefined) out.input = input;
  if (expected !== undefined) out.expected_outcome = expected;
  return out;
}

function rowInput(row: ResultRow): unknown {
  if (row.input !== undefined) return row.input;
  if (row.input_messages !== undefined) return row.input_messages;
  const request = row.lm_provider_request;
  if (request !== null && typeof request === "object" && "question" in request) {
    return (request as { question?: unknown }).question;
  }
  return undefined;
}

function stripRequests(result: unknown): unknown {
  if (result === null || typeof result !== "object") return result;
  const { evaluator_provider_request: _request, ...rest } = result as Record<string, unknown>;
  if (Array.isArray(rest.evaluator_results)) {
    rest.evaluator_results = rest.evaluator_results.map(stripRequests);
  }
  return rest;
}
