/**
 * The Markdown output of an N-way `agentv compare --format markdown` (a pull-request comment or
 * `GITHUB_STEP_SUMMARY`): the verdict, the leaderboard, the pairwise table with Holm's correction,
 * the Pareto fronts and, folded, the cases whose verdicts differ between the arms.
 *
 * @module
 */
import type { MatrixComparison } from "../compare/matrix.ts";
import { matrixVerdictLine } from "../compare/matrix_json.ts";
import { formatP, signed } from "../compare/summary.ts";
import { markdownCell } from "./compare_markdown.ts";
import { caseName } from "./compare_text.ts";
import {
  leaderboardCells,
  leaderboardHeader,
  leaderboardNumeric,
  paretoText,
  verdictsDiffer,
} from "./matrix_cells.ts";

/** Most cases listed under "Cases whose verdicts differ". */
const MAX_CASES = 50;

const row = (cells: string[]) => `| ${cells.join(" | ")} |`;

/**
 * Renders an N-way comparison as GitHub-flavoured Markdown (every label made inert).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { armsOf } from "../compare/arms.ts";
 * import { compareArms } from "../compare/matrix.ts";
 * import { renderMatrixMarkdown } from "./matrix_markdown.ts";
 * const row = (target: string, score: number) =>
 *   ({ dataset: "d", eval_id: "x", target, status: "ok", score, duration_ms: 1,
 *      verdict: score >= 0.8 ? "pass" : "fail", evaluator_results: [] }) as never;
 * const m = compareArms(armsOf([{ source: "r.jsonl", rows: [row("a", 1), row("b", 0.2)] }]));
 * assert.match(renderMatrixMarkdown(m), /^## agentv compare: 2 targets/);
 * ```
 */
export function renderMatrixMarkdown(m: MatrixComparison): string {
  const out = [
    `## agentv compare: ${m.arms.length} targets, ${m.cases.length} cases`,
    "",
    `**${markdownCell(matrixVerdictLine(m))}**`,
    "",
    "### Leaderboard",
    "",
  ];
  const header = leaderboardHeader(m);
  const numeric = leaderboardNumeric(m);
  out.push(row(header), row(header.map((_, i) => numeric.has(i) ? "---:" : "---")));
  m.leaderboard.forEach((s, i) => out.push(row(leaderboardCells(m, s, i + 1).map(markdownCell))));
  out.push(
    "",
    `Mean: mean case score, 95% seeded bootstrap interval (${m.resamples} resamples, seed ` +
      `${m.seed}); pass: cases whose verdict is pass, 95% Wilson interval.`,
    "",
    `### Pairwise (Δ = second − first; Wilcoxon p Holm-corrected for ${m.pairs.length} pair${
      m.pairs.length === 1 ? "" : "s"
    })`,
    "",
    row(["Pair", "Cases", "Mean Δ", "95% CI", "Wilcoxon p", "Holm p", "Sign p", "Outcome"]),
    row(["---", "---:", "---:", "---", "---:", "---:", "---:", "---"]),
  );
  for (const p of m.pairs) {
    const s = p.summary;
    out.push(row([
      `${markdownCell(p.baseline)} → ${markdownCell(p.candidate)}`,
      String(s.pairs),
      s.mean_delta === null ? "-" : signed(s.mean_delta),
      s.interval === null ? "-" : `${signed(s.interval.low)} to ${signed(s.interval.high)}`,
      formatP(s.wilcoxon.p_value),
      formatP(p.p_holm),
      formatP(s.sign_test.p_value),
      p.better === null ? "no significant difference" : `**${markdownCell(p.better)} better**`,
    ]));
  }
  out.push("", `Pareto front: ${paretoText(m, markdownCell)}`, "");
  const differ = m.cases.filter(verdictsDiffer);
  if (differ.length > 0) {
    const labels = m.arms.map((a) => a.label);
    out.push(
      `<details><summary>Cases whose verdicts differ (${differ.length})</summary>`,
      "",
      row(["Case", ...labels.map(markdownCell)]),
      row(["---", ...labels.map(() => "---")]),
    );
    for (const c of differ.slice(0, MAX_CASES)) {
      out.push(row([
        markdownCell(caseName(c)),
        ...labels.map((l) => {
          const a = c.arms[l];
          return a === null ? "not run" : `${a.verdict} ${a.score.toFixed(2)}`;
        }),
      ]));
    }
    if (differ.length > MAX_CASES) out.push("", `… and ${differ.length - MAX_CASES} more`);
    out.push("", "</details>", "");
  }
  return out.join("\n");
}
