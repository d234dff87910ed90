/**
 * The cells the text and Markdown views of an N-way comparison share: the leaderboard's columns
 * and each pair's figures, formatted once (numbers only: each view escapes the labels itself).
 *
 * @module
 */
import type { ArmStats } from "../compare/leaderboard.ts";
import type { MatrixCase, MatrixComparison, PairComparison } from "../compare/matrix.ts";
import { formatP, signed } from "../compare/summary.ts";
import { formatUsd } from "../text/format_usd.ts";

/** A number with 3 decimals, `-` for none. */
export function fixed3(value: number | null): string {
  return value === null ? "-" : value.toFixed(3);
}

/** A share as a whole percentage (`64%`), `-` for none. */
function percent(value: number | null): string {
  return value === null ? "-" : `${Math.round(value * 100)}%`;
}

/** Milliseconds (`420 ms`, `1.3 s`), `-` for none. */
function ms(value: number | null): string {
  if (value === null) return "-";
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
}

/** Whether the arms' verdicts on a case differ (an arm that did not run it counts as one). */
export function verdictsDiffer(c: MatrixCase): boolean {
  return new Set(Object.values(c.arms).map((a) => a?.verdict ?? "not run")).size > 1;
}

/** Whether some arm ran its cases several times (the pass@k columns are shown). */
export function hasTrials(m: MatrixComparison): boolean {
  return m.leaderboard.some((s) => s.k !== null);
}

/** The leaderboard's header; `label` is the arm's column name. */
export function leaderboardHeader(m: MatrixComparison): string[] {
  const k = m.leaderboard.find((s) => s.k !== null)?.k;
  return [
    "#",
    "Target",
    "Cases",
    "Mean",
    "95% CI",
    "Pass",
    "95% CI",
    ...(hasTrials(m) ? [`pass@${k}`, `pass^${k}`] : []),
    "Cost/case",
    "Tokens/case",
    "p50",
    "p95",
    "Pareto",
  ];
}

/** The columns of the leaderboard that are right-aligned (numbers). */
export function leaderboardNumeric(m: MatrixComparison): Set<number> {
  const n = leaderboardHeader(m).length;
  return new Set([0, 2, 3, 5, ...Array.from({ length: n - 8 }, (_, i) => 7 + i)]);
}

/** One arm's cells (its label as given: the view escapes it). */
export function leaderboardCells(m: MatrixComparison, s: ArmStats, rank: number): string[] {
  const front = [
    ...(m.pareto.cost.includes(s.label) ? ["cost"] : []),
    ...(m.pareto.latency.includes(s.label) ? ["latency"] : []),
  ].join(", ");
  const k = s.k === null ? ["-", "-"] : [fixed3(s.pass_at_k), fixed3(s.pass_hat_k)];
  return [
    String(rank),
    s.label + (s.label === m.baseline ? " (baseline)" : ""),
    String(s.cases),
    fixed3(s.mean),
    s.mean_ci === null ? "-" : `${fixed3(s.mean_ci.low)}–${fixed3(s.mean_ci.high)}`,
    `${percent(s.pass_rate)} (${s.passed}/${s.cases})`,
    s.pass_rate_ci === null
      ? "-"
      : `${percent(s.pass_rate_ci.low)}–${percent(s.pass_rate_ci.high)}`,
    ...(hasTrials(m) ? k : []),
    s.cost_per_case === null ? "-" : formatUsd(s.cost_per_case),
    s.tokens_per_case === null ? "-" : String(Math.round(s.tokens_per_case)),
    ms(s.latency_p50_ms),
    ms(s.latency_p95_ms),
    front || "-",
  ];
}

/** What a pair's line says after its names: cases, Δ with its interval, the tests, the outcome. */
export function pairFigures(m: MatrixComparison, p: PairComparison): {
  cases: string;
  delta: string;
  tests: string;
  outcome: string;
} {
  const s = p.summary;
  const ci = s.interval;
  return {
    cases: `${s.pairs} case${s.pairs === 1 ? "" : "s"}`,
    delta: s.mean_delta === null
      ? "no case in common"
      : `Δ ${signed(s.mean_delta)} (95% CI ${
        ci ? `${signed(ci.low)} to ${signed(ci.high)}` : "-"
      })`,
    tests: `Wilcoxon p = ${formatP(s.wilcoxon.p_value)}, Holm-corrected for ${m.pairs.length} ` +
      `pair${m.pairs.length === 1 ? "" : "s"} p = ${formatP(p.p_holm)}; sign test p = ${
        formatP(s.sign_test.p_value)
      }`,
    outcome: p.better !== null ? `${p.better} better` : "no significant difference",
  };
}

/** The Pareto fronts in words, each label passed through `escape`. */
export function paretoText(m: MatrixComparison, escape: (text: string) => string): string {
  const list = (labels: string[]) =>
    labels.length === 0 ? "(no arm reports it)" : labels.map(escape).join(", ");
  return `score vs cost per case: ${list(m.pareto.cost)}; score vs p50 latency: ${
    list(m.pareto.latency)
  }`;
}
