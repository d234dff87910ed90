/**
 * The HTML report of a results file: one self-contained page (inline CSS, JS and SVG, no network)
 * with the run (when, targets and models, agentv version, options, totals of cost and tokens),
 * a summary with a score histogram and per-evaluator bars, a sortable, filterable, paged table of
 * the cases (with trials, one line per case: pass rate, pass@k, flaky, the gate's verdict) and a
 * case view: the input as a conversation, the expected outcome and output, the answer, every
 * evaluator's score, hits, misses and reasoning, the full trace with its tool calls, and the
 * workspace diff.
 *
 * @module
 */
import type { ResultRow } from "../../schema/result.ts";
import type { RunRecord } from "../../schema/run_record.ts";
import type { LabelAgreement } from "../../results/label_agreement.ts";
import type { TrialsGate } from "../../results/trials.ts";
import { renderHtmlPage } from "./html_page.ts";
import {
  reportData,
  type ReportFigures,
  type ReportRunInfo,
  type ReportTrials,
} from "./report_data.ts";

/** What a case's eval file says, for rows written before rows carried their question. */
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
   * Looks up the input and expected outcome of a row that does not carry them (one written before
   * rows recorded their question, e.g. from its eval file). A row's own `input` (or
   * `input_messages`, or its request's `question`) and `expected_outcome` are shown first.
   */
  caseDetails?: (row: ResultRow) => HtmlCaseDetails | undefined;
  /** Human labels of the rows beside agentv's verdicts (a tile, and each case's labels). */
  labels?: LabelAgreement;
  /** The run record beside the results file (the run's targets, models, version and options). */
  runRecord?: RunRecord;
  /** The trials gate of the case verdicts (default: the run record's, else `mean`). */
  trialsGate?: TrialsGate;
  /** Whether the summary draws its charts (default true; the local viewer draws its own). */
  charts?: boolean;
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
  /** Whether some case ran more than once (the table then lists cases, each with its trials). */
  trials: boolean;
  /** The rows as the page shows them (see {@link projectRow}). */
  rows: Record<string, unknown>[];
  /** Human labels and how they compare with agentv's verdicts, when given. */
  labels?: LabelAgreement;
  /** The run the rows come from. */
  run: ReportRunInfo;
  /** The summary's figures (counts, histogram, evaluator means, totals of tokens and cost). */
  figures: ReportFigures;
  /** The trials of each (dataset, case, target) and the gate's verdict, when cases repeat. */
  trial_groups: ReportTrials | null;
  /** Whether the summary draws its charts. */
  charts: boolean;
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
  const data = reportData(rows, {
    ...(options.runRecord !== undefined ? { record: options.runRecord } : {}),
    ...(options.trialsGate !== undefined ? { gate: options.trialsGate } : {}),
  });
  return {
    title: options.title ?? "agentv report",
    source: options.source ?? null,
    generated_at: options.generatedAt?.toISOString() ?? null,
    trials: data.trials !== null,
    rows: rows.map((row) => projectRow(row, options.caseDetails)),
    ...(options.labels !== undefined ? { labels: options.labels } : {}),
    run: data.run,
    figures: data.figures,
    trial_groups: data.trials,
    charts: options.charts ?? true,
  };
}

/**
 * The part of a row the page shows: the row itself (so nothing is lost), without the judges'
 * raw requests (large, and not shown); a row that does not carry its `input`, `expected_outcome`
 * or `expected_output` gets them from an older field (`input_messages`, its request's question,
 * `expected_messages`) or from `caseDetails`. Exported for the compare page, which embeds rows
 * the same way.
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
  const own = rowInput(row);
  const details = own === undefined || row.expected_outcome === undefined
    ? caseDetails?.(row)
    : undefined;
  const input = own ?? details?.input;
  const expected = row.expected_outcome ?? details?.expected_outcome;
  const expectedOutput = row.expected_output ?? row.expected_messages;
  if (input !== undefined) out.input = input;
  if (expected !== undefined) out.expected_outcome = expected;
  if (expectedOutput !== undefined) out.expected_output = expectedOutput;
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
