/**
 * The console output of an N-way `agentv compare`: what is compared, the leaderboard, every pair
 * with its tests and Holm's correction stated on its line, the Pareto fronts and the verdict.
 *
 * @module
 */
import type { MatrixComparison } from "../compare/matrix.ts";
import { matrixVerdictLine, topArms } from "../compare/matrix_json.ts";
import { escapeControl } from "../text/escape_control.ts";
import type { CompareStyle } from "./compare_text.ts";
import {
  leaderboardCells,
  leaderboardHeader,
  leaderboardNumeric,
  pairFigures,
  paretoText,
  verdictsDiffer,
} from "./matrix_cells.ts";

const PLAIN: CompareStyle = { red: (t) => t, green: (t) => t, bold: (t) => t, dim: (t) => t };

/** Lays out rows as columns two spaces apart, `right` ones right-aligned. */
function table(rows: string[][], right: ReadonlySet<number>): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => [...r[c]].length)));
  return rows.map((r) =>
    r.map((cell, c) => {
      const pad = " ".repeat(widths[c] - [...cell].length);
      return right.has(c) ? pad + cell : cell + pad;
    }).join("  ").trimEnd()
  );
}

/**
 * Renders an N-way comparison for the console (colours only when `style` is given).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { armsOf } from "../compare/arms.ts";
 * import { compareArms } from "../compare/matrix.ts";
 * import { renderMatrixText } from "./matrix_text.ts";
 * const row = (target: string, score: number) =>
 *   ({ dataset: "d", eval_id: "x", target, status: "ok", score, duration_ms: 1,
 *      verdict: score >= 0.8 ? "pass" : "fail", evaluator_results: [] }) as never;
 * const m = compareArms(armsOf([{ source: "r.jsonl", rows: [row("a", 1), row("b", 0.2)] }]));
 * assert.match(renderMatrixText(m), /^Comparing 2 targets/);
 * ```
 */
export function renderMatrixText(
  m: MatrixComparison,
  options: { style?: CompareStyle } = {},
): string {
  const s = options.style ?? PLAIN;
  const sources = [...new Set(m.arms.map((a) => a.source))].map(escapeControl);
  const cases = m.cases.length;
  const rows = m.arms.reduce((n, a) => n + a.rows.length, 0);
  const out = [
    s.bold(
      `Comparing ${m.arms.length} targets (baseline ${escapeControl(m.baseline)}): ${cases} ` +
        `case${cases === 1 ? "" : "s"}, ${rows} rows from ${sources.join(", ")}`,
    ),
    "",
    s.bold("Leaderboard") +
    s.dim(
      " (best mean first; 95% intervals: bootstrap of the mean over cases, Wilson of the " +
        `pass rate; ${m.resamples.toLocaleString("en-US")} resamples, seed ${m.seed})`,
    ),
  ];
  const top = new Set(topArms(m));
  const board = [
    leaderboardHeader(m),
    ...m.leaderboard.map((a, i) => leaderboardCells(m, a, i + 1).map(escapeControl)),
  ];
  const lines = table(board, leaderboardNumeric(m));
  out.push("  " + lines[0]);
  lines.slice(1).forEach((line, i) =>
    out.push("  " + (top.has(m.leaderboard[i].label) ? s.green(line) : line))
  );
  out.push(
    "",
    s.bold("Pairwise") +
      s.dim(
        ` (the cases both ran; Δ = second − first; significant: the interval excludes 0 and ` +
          `the Holm-corrected p < ${m.alpha})`,
      ),
  );
  const names = m.pairs.map((p) => `${escapeControl(p.baseline)} → ${escapeControl(p.candidate)}`);
  const figures = m.pairs.map((p) => pairFigures(m, p));
  const pairLines = table(
    m.pairs.map((_, i) => [names[i], figures[i].cases, figures[i].delta, figures[i].outcome]),
    new Set([1]),
  );
  m.pairs.forEach((p, i) => {
    const colour = p.better === null
      ? (t: string) => t
      : p.better === p.candidate
      ? s.green
      : s.red;
    out.push("  " + colour(pairLines[i]), s.dim(`    ${figures[i].tests}`));
  });
  const differ = m.cases.filter(verdictsDiffer).length;
  out.push(
    "",
    `Pareto front: ${paretoText(m, escapeControl)}`,
    `Cases: the verdicts differ on ${differ} of ${cases} (--format markdown or html lists them)`,
    s.bold(`Verdict: ${escapeControl(matrixVerdictLine(m))}`),
  );
  return out.join("\n") + "\n";
}
