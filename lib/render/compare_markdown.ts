/**
 * The Markdown output of `agentv compare --format markdown` (for a pull-request comment or
 * `GITHUB_STEP_SUMMARY`): the verdict first, a summary table, verdict flips (pass→fail first),
 * per-evaluator Δ, the changed cases and the one-side-only cases.
 *
 * @module
 */
import { neutralizeMarkdown } from "../text/markdown_text.ts";
import type { RunPairing, UnpairedCase } from "../compare/pair.ts";
import { caseName } from "./compare_text.ts";
import { type CompareLabels, type ComparisonSummary, formatP, signed } from "../compare/summary.ts";

/**
 * Escapes text for a Markdown table cell: control characters and line breaks become spaces, and
 * the text is made inert (`neutralizeMarkdown`: HTML is shown, not rendered; no link, image,
 * mention, issue reference, code span or emphasis can open; `|` cannot end the cell).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { markdownCell } from "./compare_markdown.ts";
 * assert.equal(markdownCell("a|b <i>"), "a\\|b &lt;i&gt;");
 * ```
 */
export function markdownCell(text: string): string {
  return neutralizeMarkdown(text.replace(CONTROLS, " ").replace(BIDI, ""));
}

// Controls and line breaks (a cell is one line), and the bidi overrides and isolates.
// deno-lint-ignore no-control-regex
const CONTROLS = /[\x00-\x1f\x7f-\x9f\u2028\u2029]+/g;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

function score(value: number | null): string {
  return value === null ? "-" : value.toFixed(2);
}

function row(cells: string[]): string {
  return `| ${cells.join(" | ")} |`;
}

function header(cells: string[], align: string[]): string[] {
  return [row(cells), row(align)];
}

const OUTCOME: Record<string, string> = { win: "✅ win", loss: "❌ loss", tie: "➖ tie" };

/**
 * Renders a comparison as GitHub-flavoured Markdown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ResultRow } from "../schema/result.ts";
 * import { pairRuns } from "../compare/pair.ts";
 * import { summarizeComparison } from "../compare/summary.ts";
 * import { renderCompareMarkdown } from "./compare_markdown.ts";
 *
 * const row = (score: number) =>
 *   ({ eval_id: "a", dataset: "ds", score, verdict: "pass", status: "ok", evaluator_results: [] }) as
 *     unknown as ResultRow;
 * const pairing = pairRuns([row(0.8)], [row(1)]);
 * const md = renderCompareMarkdown(pairing, summarizeComparison(pairing), {
 *   baseline: "old.jsonl",
 *   candidate: "new.jsonl",
 * });
 * assert.match(md, /^## Comparison: `old\.jsonl` → `new\.jsonl`/);
 * ```
 */
export function renderCompareMarkdown(
  pairing: RunPairing,
  summary: ComparisonSummary,
  labels: CompareLabels,
): string {
  const code = (text: string) => "`" + text.replace(/[`\r\n]/g, " ") + "`";
  const out: string[] = [
    `## Comparison: ${code(labels.baseline)} → ${code(labels.candidate)}`,
    "",
    `**Verdict: ${markdownCell(summary.verdict_line)}**`,
    "",
    ...header(["", "Value"], ["---", "---"]),
    row(["Paired cases", String(summary.pairs)]),
    row([
      `Wins / losses / ties (tie: \\|Δ\\| ≤ ${summary.delta})`,
      `${summary.wins} / ${summary.losses} / ${summary.ties}`,
    ]),
    row(["Verdict flips (pass→fail)", `${summary.flips.length} (${summary.pass_to_fail})`]),
    row([
      "Error trials: baseline / candidate",
      `${summary.baseline_errors} / ${summary.candidate_errors}`,
    ]),
    row([
      "Only in baseline / only in candidate",
      `${summary.only_baseline} / ${summary.only_candidate}`,
    ]),
  ];
  if (summary.mean_delta !== null && summary.median_delta !== null) {
    out.push(
      row([
        "Mean score: baseline → candidate",
        `${score(summary.baseline_mean)} → ${score(summary.candidate_mean)}`,
      ]),
      row(["Mean Δ / median Δ", `${signed(summary.mean_delta)} / ${signed(summary.median_delta)}`]),
    );
  }
  if (summary.interval !== null) {
    const ci = summary.interval;
    out.push(
      row([
        `${Math.round(ci.confidence * 100)}% CI of the mean Δ`,
        `${signed(ci.low)} to ${signed(ci.high)} (paired bootstrap, ${
          ci.resamples.toLocaleString("en-US")
        } resamples, seed ${ci.seed})`,
      ]),
      row([
        "Wilcoxon signed-rank p",
        `${
          formatP(summary.wilcoxon.p_value)
        } (${summary.wilcoxon.method}, n = ${summary.wilcoxon.n})`,
      ]),
      row([
        "Sign test p",
        `${
          formatP(summary.sign_test.p_value)
        } (${summary.sign_test.positive} up, ${summary.sign_test.negative} down, ${summary.sign_test.zero} unchanged)`,
      ]),
    );
  }
  if (summary.flips.length > 0) {
    out.push(
      "",
      "### Verdict flips",
      "",
      ...header(["Flip", "Case", "Baseline", "Candidate", "Δ"], [
        "---",
        "---",
        "---:",
        "---:",
        "---:",
      ]),
    );
    for (const f of summary.flips) {
      out.push(
        row([
          f.flip,
          markdownCell(caseName(f)),
          score(f.baseline_score),
          score(f.candidate_score),
          signed(f.delta, 2),
        ]),
      );
    }
  }
  if (summary.evaluators.length > 0) {
    out.push(
      "",
      "### Per evaluator",
      "",
      ...header(["Evaluator", "Cases", "Baseline", "Candidate", "Mean Δ"], [
        "---",
        "---:",
        "---:",
        "---:",
        "---:",
      ]),
    );
    for (const e of summary.evaluators) {
      out.push(
        row([
          markdownCell(e.name),
          String(e.pairs),
          score(e.baseline_mean),
          score(e.candidate_mean),
          e.mean_delta === null ? "-" : signed(e.mean_delta),
        ]),
      );
    }
  }
  const changed = pairing.pairs.filter((p) => p.outcome !== "tie").sort((a, b) =>
    a.delta - b.delta
  );
  if (changed.length > 0) {
    out.push(
      "",
      `### Changed cases (${changed.length}, worst first)`,
      "",
      "<details><summary>Show</summary>",
      "",
    );
    out.push(
      ...header(["Case", "Baseline", "Candidate", "Δ", "Result", "Verdict"], [
        "---",
        "---:",
        "---:",
        "---:",
        "---",
        "---",
      ]),
    );
    for (const p of changed) {
      out.push(
        row([
          markdownCell(caseName(p)),
          score(p.baseline_score),
          score(p.candidate_score),
          signed(p.delta, 2),
          OUTCOME[p.outcome],
          p.flip ?? p.candidate_verdict,
        ]),
      );
    }
    out.push("", "</details>");
  }
  unpaired(out, "Only in baseline", pairing.only_baseline);
  unpaired(out, "Only in candidate", pairing.only_candidate);
  return out.join("\n") + "\n";
}

function unpaired(out: string[], title: string, cases: UnpairedCase[]): void {
  if (cases.length === 0) return;
  out.push(
    "",
    `### ${title} (${cases.length})`,
    "",
    ...header(["Case", "Score", "Verdict"], ["---", "---:", "---"]),
  );
  for (const c of cases) out.push(row([markdownCell(caseName(c)), score(c.score), c.verdict]));
}
