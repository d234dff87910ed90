/**
 * The console output of `agentv compare`: the changed cases, verdict flips (pass→fail first),
 * one-side-only cases, the summary, per-evaluator Δ, the statistics and the verdict line.
 *
 * @module
 */
import { escapeControl } from "../text/escape_control.ts";
import type { CasePair, RunPairing, UnpairedCase } from "../compare/pair.ts";
import { type CompareLabels, type ComparisonSummary, formatP, signed } from "../compare/summary.ts";

/** Colours for the console (the CLI's `createPaint` fits); default: none. */
export interface CompareStyle {
  /** Losses, regressions. */
  red(text: string): string;
  /** Wins, improvements. */
  green(text: string): string;
  /** Headings, the verdict. */
  bold(text: string): string;
  /** Secondary text. */
  dim(text: string): string;
}

/** Options of {@link renderCompareText}. */
export interface RenderTextOptions {
  /** Colours (default none). */
  style?: CompareStyle;
  /**
   * Up to this many paired cases every pair is listed; above it only wins, losses and flips
   * (default 100).
   */
  listAllUpTo?: number;
}

const PLAIN: CompareStyle = { red: id, green: id, bold: id, dim: id };

function id(text: string): string {
  return text;
}

/** How a case is named in outputs: `dataset/eval_id`, or the id alone when no dataset is set. */
export function caseName(c: { dataset: string; eval_id: string }): string {
  return c.dataset === "" ? c.eval_id : `${c.dataset}/${c.eval_id}`;
}

/** A score or mean, 2 decimals; `-` for none. */
function score(value: number | null): string {
  return value === null ? "-" : value.toFixed(2);
}

/** Plural helper: `1 win`, `2 wins`. */
function count(n: number, word: string, plural = `${word}s`): string {
  return `${n} ${n === 1 ? word : plural}`;
}

function table(rows: string[][], rightAligned: ReadonlySet<number>): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => [...r[c]].length)));
  return rows.map((r) =>
    r.map((cell, c) => {
      const pad = " ".repeat(widths[c] - [...cell].length);
      return rightAligned.has(c) ? pad + cell : cell + pad;
    }).join("  ").trimEnd()
  );
}

function trialsNote(p: CasePair): string {
  return p.baseline.length === 1 && p.candidate.length === 1
    ? ""
    : ` (${p.baseline.length}/${p.candidate.length} trials)`;
}

/**
 * Renders a comparison for the console (plain text; colours only when `style` is given).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ResultRow } from "../schema/result.ts";
 * import { pairRuns } from "../compare/pair.ts";
 * import { summarizeComparison } from "../compare/summary.ts";
 * import { renderCompareText } from "./compare_text.ts";
 *
 * const row = (score: number) =>
 *   ({ eval_id: "a", dataset: "ds", score, verdict: "pass", status: "ok", evaluator_results: [] }) as
 *     unknown as ResultRow;
 * const pairing = pairRuns([row(0.8)], [row(1)]);
 * const text = renderCompareText(pairing, summarizeComparison(pairing), {
 *   baseline: "old.jsonl",
 *   candidate: "new.jsonl",
 * });
 * assert.match(text, /^Comparing: old\.jsonl → new\.jsonl/);
 * assert.match(text, /Verdict: no significant change/);
 * ```
 */
export function renderCompareText(
  pairing: RunPairing,
  summary: ComparisonSummary,
  labels: CompareLabels,
  options: RenderTextOptions = {},
): string {
  const s = options.style ?? PLAIN;
  const limit = options.listAllUpTo ?? 100;
  const out: string[] = [];
  out.push(
    s.bold(`Comparing: ${escapeControl(labels.baseline)} → ${escapeControl(labels.candidate)}`),
  );
  out.push(
    s.dim(
      `${count(summary.pairs, "paired case")} (${summary.baseline_rows} → ` +
        `${summary.candidate_rows} rows); a tie is |Δ| ≤ ${summary.delta}`,
    ),
  );
  const all = pairing.pairs.length <= limit;
  const listed = all
    ? pairing.pairs
    : pairing.pairs.filter((p) => p.outcome !== "tie" || p.flip !== null)
      .sort((a, b) => a.delta - b.delta);
  if (listed.length > 0) {
    const rows = [["Case", "Baseline", "Candidate", "Delta", "Result", "Verdict"]];
    for (const p of listed) {
      rows.push([
        escapeControl(caseName(p)) + trialsNote(p),
        score(p.baseline_score),
        score(p.candidate_score),
        signed(p.delta, 2),
        p.outcome === "win" ? "✓ win" : p.outcome === "loss" ? "✗ loss" : "= tie",
        p.flip ?? p.candidate_verdict,
      ]);
    }
    const lines = table(rows, new Set([1, 2, 3]));
    out.push("", s.bold(lines[0]));
    for (let i = 1; i < lines.length; i++) {
      const p = listed[i - 1];
      out.push(
        p.outcome === "win" ? s.green(lines[i]) : p.outcome === "loss" ? s.red(lines[i]) : lines[i],
      );
    }
    if (!all) {
      out.push(
        s.dim(
          `(changed cases only, worst first: ${summary.pairs - listed.length} ties without a ` +
            "verdict flip not listed; --json lists every pair)",
        ),
      );
    }
  }
  if (summary.flips.length > 0) {
    out.push("", s.bold(`Verdict flips (${summary.flips.length}):`));
    const rows = summary.flips.map((f) => [
      f.flip,
      escapeControl(caseName(f)),
      `${score(f.baseline_score)} → ${score(f.candidate_score)}`,
    ]);
    for (const [i, line] of table(rows, new Set()).entries()) {
      const flip = summary.flips[i].flip;
      out.push("  " + (flip.endsWith("→fail") || flip === "pass→borderline" ? s.red(line) : line));
    }
  }
  renderUnpaired(out, s, "Only in baseline", pairing.only_baseline);
  renderUnpaired(out, s, "Only in candidate", pairing.only_candidate);
  if (summary.evaluators.length > 0) {
    out.push("", s.bold("Per evaluator (cases scored on both sides):"));
    const rows = [["Evaluator", "Cases", "Baseline", "Candidate", "Mean Δ"]];
    for (const e of summary.evaluators) {
      rows.push([
        escapeControl(e.name),
        String(e.pairs),
        score(e.baseline_mean),
        score(e.candidate_mean),
        e.mean_delta === null ? "-" : signed(e.mean_delta),
      ]);
    }
    out.push(...table(rows, new Set([1, 2, 3, 4])).map((l) => "  " + l));
  }
  out.push("", ...summaryLines(summary).map((l) => l));
  const verdictText = `Verdict: ${summary.verdict_line}`;
  out.push(
    summary.verdict === "improved"
      ? s.bold(s.green(verdictText))
      : summary.verdict === "regressed"
      ? s.bold(s.red(verdictText))
      : s.bold(verdictText),
  );
  return out.join("\n") + "\n";
}

function renderUnpaired(out: string[], s: CompareStyle, title: string, cases: UnpairedCase[]) {
  if (cases.length === 0) return;
  out.push("", s.bold(`${title} (${cases.length}):`));
  const shown = cases.slice(0, 20);
  for (const c of shown) {
    out.push(`  ${escapeControl(caseName(c))}  ${score(c.score)} ${c.verdict}`);
  }
  if (cases.length > shown.length) out.push(s.dim(`  … and ${cases.length - shown.length} more`));
}

/** The summary and statistics lines shared by the text output (no verdict line). */
export function summaryLines(summary: ComparisonSummary): string[] {
  const lines = [
    `Summary: ${count(summary.wins, "win")}, ${count(summary.losses, "loss", "losses")}, ` +
    `${count(summary.ties, "tie")} | ${count(summary.flips.length, "verdict flip")} ` +
    `(${summary.pass_to_fail} pass→fail) | only in baseline: ${summary.only_baseline}, ` +
    `only in candidate: ${summary.only_candidate}`,
  ];
  if (summary.baseline_errors + summary.candidate_errors > 0) {
    lines.push(
      `Errors: ${count(summary.baseline_errors, "baseline trial")} and ` +
        `${count(summary.candidate_errors, "candidate trial")} of the paired cases could not run ` +
        "or be scored; they count with score 0",
    );
  }
  if (summary.mean_delta !== null && summary.median_delta !== null) {
    lines.push(
      `Scores: baseline mean ${score(summary.baseline_mean)}, candidate mean ` +
        `${score(summary.candidate_mean)} | mean Δ ${signed(summary.mean_delta)}, median Δ ` +
        signed(summary.median_delta),
    );
  }
  if (summary.interval !== null) {
    const ci = summary.interval;
    lines.push(
      `Statistics: ${Math.round(ci.confidence * 100)}% CI of the mean Δ ${signed(ci.low)} to ` +
        `${signed(ci.high)} (paired bootstrap, ${
          ci.resamples.toLocaleString("en-US")
        } resamples, ` +
        `seed ${ci.seed}); Wilcoxon signed-rank p = ${formatP(summary.wilcoxon.p_value)} ` +
        `(${summary.wilcoxon.method}, n = ${summary.wilcoxon.n}); sign test p = ` +
        `${formatP(summary.sign_test.p_value)} (${summary.sign_test.positive} up, ` +
        `${summary.sign_test.negative} down, ${summary.sign_test.zero} unchanged)`,
    );
  }
  return lines;
}
