/**
 * The HTML view of an N-way comparison (`agentv compare --format html` of several targets): one
 * self-contained page (no network, the data as escaped JSON) with the verdict, the leaderboard,
 * the pairwise matrix, a score–cost scatter as inline SVG and every case with each target's
 * verdict; a case opens with the targets' answers side by side and a word-level diff against the
 * baseline (`html/_client_matrix.ts`).
 *
 * @module
 */
import type { CaseOutcome, MatrixComparison } from "../compare/matrix.ts";
import { armCases, type ArmStats } from "../compare/leaderboard.ts";
import { caseKey } from "../compare/pair.ts";
import type { ConfidenceInterval } from "../compare/statistics.ts";
import { matrixVerdictLine, topArms } from "../compare/matrix_json.ts";
import type { ResultRow } from "../schema/result.ts";
import { CLIENT_CASE, CLIENT_UTIL } from "./html/_client_case.ts";
import { CLIENT_CONVERSATION } from "./html/_client_conversation.ts";
import { CLIENT_GRID } from "./html/_client_grid.ts";
import { CLIENT_MATRIX, MATRIX_CSS } from "./html/_client_matrix.ts";
import { CLIENT_SHELL } from "./html/_client_report.ts";
import { renderPage } from "./html/_page.ts";
import { PAGE_CSS } from "./html/_styles.ts";
import { type HtmlCaseDetails, projectRow } from "./html/render_html_report.ts";

/** Options of {@link renderMatrixHtml}. */
export interface MatrixHtmlOptions {
  /** Page title (default `agentv compare: <labels>`). */
  title?: string;
  /** When the page was made (default: not shown, so the output is stable). */
  generatedAt?: Date;
  /** Looks up a row's input and expected outcome (see `renderHtmlReport`). */
  caseDetails?: (row: ResultRow) => HtmlCaseDetails | undefined;
}

/** What the N-way compare page reads (see {@link matrixPageData}). */
export interface MatrixPageData {
  /** The page title. */
  title: string;
  /** When it was made, or `null`. */
  generated_at: string | null;
  /** The baseline's label. */
  baseline: string;
  /** Significance level. */
  alpha: number;
  /** Bootstrap seed. */
  seed: number;
  /** Bootstrap resamples. */
  resamples: number;
  /** The arms in input order. */
  arms: { label: string; target: string; source: string }[];
  /** The leaderboard, best first. */
  leaderboard: (ArmStats & { rank: number })[];
  /** Every pair's figures. */
  pairs: {
    baseline: string;
    candidate: string;
    cases: number;
    mean_delta: number | null;
    interval: ConfidenceInterval | null;
    p: number;
    sign_p: number;
    p_holm: number;
    significant: boolean;
    better: string | null;
  }[];
  /** The Pareto fronts. */
  pareto: { cost: string[]; latency: string[] };
  /** The arms no other significantly beats. */
  top: string[];
  /** The verdict line. */
  verdict_line: string;
  /** Every case, each arm's outcome with its rows (as the report page shows rows). */
  cases: {
    dataset: string;
    eval_id: string;
    arms: Record<string, (CaseOutcome & { rows: Record<string, unknown>[] }) | null>;
  }[];
}

const SCRIPT = [
  '"use strict";',
  "(function () {",
  CLIENT_UTIL,
  CLIENT_CASE,
  // The case view draws its input and workspace diff with these.
  CLIENT_CONVERSATION,
  CLIENT_GRID,
  CLIENT_SHELL,
  CLIENT_MATRIX,
  "startMatrix();",
  "})();",
].join("\n");

/**
 * The data the page script reads: the figures of the comparison and, per case, each arm's
 * outcome and rows (as the report page shows rows).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { armsOf } from "../compare/arms.ts";
 * import { compareArms } from "../compare/matrix.ts";
 * import { matrixPageData } from "./matrix_html.ts";
 * const row = (target: string, score: number) =>
 *   ({ dataset: "d", eval_id: "x", target, status: "ok", score, duration_ms: 1,
 *      verdict: score >= 0.8 ? "pass" : "fail", evaluator_results: [] }) as never;
 * const m = compareArms(armsOf([{ source: "r.jsonl", rows: [row("a", 1), row("b", 0.2)] }]));
 * const data = matrixPageData(m);
 * assert.deepEqual(data.leaderboard.map((s) => s.label), ["a", "b"]);
 * ```
 */
export function matrixPageData(
  m: MatrixComparison,
  options: MatrixHtmlOptions = {},
): MatrixPageData {
  const rowsOf = new Map<string, Map<string, ResultRow[]>>();
  for (const arm of m.arms) {
    const byCase = new Map<string, ResultRow[]>();
    for (const c of armCases(arm.rows)) byCase.set(c.key, []);
    for (const row of arm.rows) {
      byCase.get(caseKey(String(row.dataset ?? ""), String(row.eval_id)))?.push(row);
    }
    rowsOf.set(arm.label, byCase);
  }
  return {
    title: options.title ?? `agentv compare: ${m.arms.map((a) => a.label).join(", ")}`,
    generated_at: options.generatedAt?.toISOString() ?? null,
    baseline: m.baseline,
    alpha: m.alpha,
    seed: m.seed,
    resamples: m.resamples,
    arms: m.arms.map((a) => ({ label: a.label, target: a.target, source: a.source })),
    leaderboard: m.leaderboard.map((s, i) => ({ rank: i + 1, ...s })),
    pairs: m.pairs.map((p) => ({
      baseline: p.baseline,
      candidate: p.candidate,
      cases: p.summary.pairs,
      mean_delta: p.summary.mean_delta,
      interval: p.summary.interval,
      p: p.summary.wilcoxon.p_value,
      sign_p: p.summary.sign_test.p_value,
      p_holm: p.p_holm,
      significant: p.significant,
      better: p.better,
    })),
    pareto: m.pareto,
    top: topArms(m),
    verdict_line: matrixVerdictLine(m),
    cases: m.cases.map((c) => {
      const key = caseKey(c.dataset, c.eval_id);
      return {
        dataset: c.dataset,
        eval_id: c.eval_id,
        arms: Object.fromEntries(
          Object.entries(c.arms).map(([label, a]) => [
            label,
            a === null ? null : {
              ...a,
              rows: (rowsOf.get(label)?.get(key) ?? []).map((r) =>
                projectRow(r, options.caseDetails)
              ),
            },
          ]),
        ),
      };
    }),
  };
}

/**
 * Renders an N-way comparison as one self-contained HTML page.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { armsOf } from "../compare/arms.ts";
 * import { compareArms } from "../compare/matrix.ts";
 * import { renderMatrixHtml } from "./matrix_html.ts";
 * const row = (target: string, score: number) =>
 *   ({ dataset: "d", eval_id: "x", target, status: "ok", score, duration_ms: 1,
 *      verdict: score >= 0.8 ? "pass" : "fail", evaluator_results: [] }) as never;
 * const m = compareArms(armsOf([{ source: "r.jsonl", rows: [row("a", 1), row("b", 0.2)] }]));
 * assert.match(renderMatrixHtml(m), /<title>agentv compare: a, b<\/title>/);
 * ```
 */
export function renderMatrixHtml(m: MatrixComparison, options: MatrixHtmlOptions = {}): string {
  const data = matrixPageData(m, options);
  return renderPage({ title: data.title, css: PAGE_CSS + MATRIX_CSS, script: SCRIPT, data });
}
