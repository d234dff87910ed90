/**
 * The HTML view of a comparison (`agentv compare --format html`): one self-contained page with the
 * verdict line and its statistics, a table of every case with both scores and the Δ, and a
 * side-by-side case view (baseline | candidate) with the per-evaluator Δ and both full traces.
 *
 * @module
 */
import { renderHtmlPage } from "./html/html_page.ts";
import { type HtmlCaseDetails, projectRow } from "./html/render_html_report.ts";
import type { ResultRow } from "../schema/result.ts";
import type { RunPairing } from "../compare/pair.ts";
import type { CompareLabels, ComparisonSummary } from "../compare/summary.ts";

/** Options of {@link renderCompareHtml}. */
export interface CompareHtmlOptions {
  /** How the runs are named (usually the files' paths as the user typed them). */
  labels: CompareLabels;
  /** Page title (default `"agentv compare: <baseline> → <candidate>"`). */
  title?: string;
  /** When the page was made, shown under the title (default: not shown, so output is stable). */
  generatedAt?: Date;
  /** Looks up a row's input and expected outcome (see `renderHtmlReport`). */
  caseDetails?: (row: ResultRow) => HtmlCaseDetails | undefined;
}

/**
 * Renders a comparison of two runs as one self-contained HTML page. Takes the pairing from
 * `pairRuns` and the statistics from `summarizeComparison` as they are, so every output of
 * `agentv compare` shows the same numbers. Every value is embedded as escaped JSON and shown as
 * text (see `renderHtmlReport`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ResultRow } from "../schema/result.ts";
 * import { renderCompareHtml } from "./compare_html.ts";
 * import { pairRuns } from "../compare/pair.ts";
 * import { summarizeComparison } from "../compare/summary.ts";
 *
 * const row = (score: number) =>
 *   ({ eval_id: "a", dataset: "ds", score, verdict: score >= 0.8 ? "pass" : "fail",
 *      status: "ok", evaluator_results: [] }) as unknown as ResultRow;
 * const pairing = pairRuns([row(0.9)], [row(0.4)]);
 * const html = renderCompareHtml(pairing, summarizeComparison(pairing), {
 *   labels: { baseline: "old.jsonl", candidate: "new.jsonl" },
 * });
 * assert.match(html, /<title>agentv compare: old.jsonl → new.jsonl<\/title>/);
 * ```
 */
export function renderCompareHtml(
  pairing: RunPairing,
  summary: ComparisonSummary,
  options: CompareHtmlOptions,
): string {
  const data = comparePageData(pairing, summary, options);
  return renderHtmlPage({ kind: "compare", title: data.title, data });
}

/**
 * The data the compare page script reads, which `renderCompareHtml` embeds and the local viewer
 * serves as JSON: the title, the labels, the summary and one entry per case (paired or one side
 * only) with its rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { comparePageData } from "./compare_html.ts";
 * import { pairRuns } from "../compare/pair.ts";
 * import { summarizeComparison } from "../compare/summary.ts";
 * const pairing = pairRuns([], []);
 * const data = comparePageData(pairing, summarizeComparison(pairing), {
 *   labels: { baseline: "a", candidate: "b" },
 * });
 * assert.deepEqual(data.cases, []);
 * ```
 */
export function comparePageData(
  pairing: RunPairing,
  summary: ComparisonSummary,
  options: CompareHtmlOptions,
): {
  title: string;
  labels: CompareLabels;
  generated_at: string | null;
  summary: ComparisonSummary;
  cases: Record<string, unknown>[];
} {
  const { labels } = options;
  const title = options.title ?? `agentv compare: ${labels.baseline} → ${labels.candidate}`;
  const project = (rows: ResultRow[]) => rows.map((row) => projectRow(row, options.caseDetails));
  const cases: Record<string, unknown>[] = [];
  for (const p of pairing.pairs) {
    cases.push({
      kind: "pair",
      dataset: p.dataset,
      eval_id: p.eval_id,
      baseline_score: p.baseline_score,
      candidate_score: p.candidate_score,
      baseline_verdict: p.baseline_verdict,
      candidate_verdict: p.candidate_verdict,
      delta: p.delta,
      outcome: p.outcome,
      flip: p.flip,
      evaluators: p.evaluators,
      baseline: project(p.baseline),
      candidate: project(p.candidate),
    });
  }
  for (const side of ["only_baseline", "only_candidate"] as const) {
    for (const c of pairing[side]) {
      const mine = side === "only_baseline" ? "baseline" : "candidate";
      cases.push({
        kind: side,
        dataset: c.dataset,
        eval_id: c.eval_id,
        [`${mine}_score`]: c.score,
        [`${mine}_verdict`]: c.verdict,
        delta: null,
        flip: null,
        evaluators: [],
        baseline: side === "only_baseline" ? project(c.rows) : [],
        candidate: side === "only_candidate" ? project(c.rows) : [],
      });
    }
  }
  return {
    title,
    labels: { baseline: labels.baseline, candidate: labels.candidate },
    generated_at: options.generatedAt?.toISOString() ?? null,
    summary,
    cases,
  };
}
