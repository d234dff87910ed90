/**
 * The Markdown output of `agentv calibrate --format markdown` (for a pull-request comment or a
 * job summary): per evaluator the confusion matrix and a table of the figures with their
 * intervals and n, the disagreements, then self-consistency and order sensitivity and the gate.
 * Every text from a model, a judge, a reviewer or a dataset is made inert (`markdownCell`).
 *
 * @module
 */
import type { Estimate } from "../calibration/bootstrap.ts";
import type { UnitCalibration } from "../calibration/calibrate.ts";
import type { ConsistencyReport } from "../calibration/consistency.ts";
import type { CalibrationOutput } from "../calibration/output.ts";
import { markdownCell } from "./compare_markdown.ts";
import { figure } from "./calibration_text.ts";

/** Disagreements and unstable answers listed per evaluator. */
const MAX_LISTED = 20;

function row(cells: string[]): string {
  return `| ${cells.join(" | ")} |`;
}

function estimateRow(name: string, e: Estimate): string {
  const ci = e.ci === null ? "-" : `${figure(e.ci.low)} – ${figure(e.ci.high)}`;
  return row([name, figure(e.value), ci, `${e.n}`]);
}

function where(item: { dataset: string; eval_id: string; target: string; trial: number }) {
  const name = item.dataset === "" ? item.eval_id : `${item.dataset}/${item.eval_id}`;
  return markdownCell(`${name} (${item.target}${item.trial > 0 ? `, trial ${item.trial}` : ""})`);
}

function unitTitle(unit: { evaluator: string | null; type: string | null }): string {
  return unit.evaluator === null
    ? "Case verdict"
    : `Evaluator ${markdownCell(unit.evaluator)}${
      unit.type ? ` (${markdownCell(unit.type)})` : ""
    }`;
}

function unitSection(unit: UnitCalibration, ci: string): string[] {
  const { tp, fp, fn, tn } = unit.confusion;
  const judges = unit.judge_targets.map(markdownCell).join(", ") || "not recorded";
  const lines = [
    `### ${unitTitle(unit)}`,
    "",
    `Judge ${judges}${
      unit.models.length > 0 ? `, model ${unit.models.map(markdownCell).join(", ")}` : ""
    }; ` +
    `${unit.reviewers.length} reviewer(s); ${unit.n} labelled` +
    `${unit.ties > 0 ? ` (${unit.ties} split evenly, left out)` : ""}.`,
    "",
    row(["", "people pass", "people fail"]),
    row(["---", "---:", "---:"]),
    row(["**judge pass**", `${tp}`, `${fp}`]),
    row(["**judge fail**", `${fn}`, `${tn}`]),
    "",
    row(["figure", "value", ci, "n"]),
    row(["---", "---:", "---", "---:"]),
    estimateRow("accuracy", unit.accuracy),
    estimateRow("sensitivity", unit.sensitivity),
    estimateRow("specificity", unit.specificity),
    estimateRow("Cohen's κ", unit.kappa),
  ];
  if (unit.alpha) {
    lines.push(estimateRow("Krippendorff's α, reviewers", unit.alpha.reviewers));
    lines.push(estimateRow("Krippendorff's α, with the judge", unit.alpha.with_judge));
  }
  if (unit.scores) {
    lines.push(estimateRow("Spearman's ρ (scores)", unit.scores.spearman));
    lines.push(estimateRow("mean \\|judge − people\\| (scores)", unit.scores.mad));
  }
  lines.push("", ...disagreements(unit));
  return lines;
}

function disagreements(unit: UnitCalibration): string[] {
  const list = unit.disagreements;
  if (list.length === 0) return ["No disagreement."];
  const lines = [
    `<details><summary>${list.length} disagreement(s)</summary>`,
    "",
    row(["case", "judge", "people", "judge's reasoning", "reviewers"]),
    row(["---", "---", "---", "---", "---"]),
  ];
  for (const d of list.slice(0, MAX_LISTED)) {
    const notes = d.reviewers.map((r) =>
      `${markdownCell(r.reviewer)}: ${r.label}${r.note ? ` (${markdownCell(r.note)})` : ""}`
    ).join("; ");
    lines.push(row([
      where(d),
      `${d.judge_verdict} ${figure(d.judge_score)}`,
      d.human_verdict,
      markdownCell(d.reasoning ?? ""),
      notes,
    ]));
  }
  if (list.length > MAX_LISTED) lines.push("", `… and ${list.length - MAX_LISTED} more.`);
  return [...lines, "", "</details>"];
}

function consistencySection(report: ConsistencyReport): string[] {
  const title = report.kind === "repeat"
    ? `### Self-consistency (each answer judged ${report.k} times)`
    : `### Order sensitivity (rubric items in ${report.k} orders)`;
  const lines = [
    title,
    "",
    row(["evaluator", "answers", "unstable", "share [CI]", "mean flip rate", "mean score sd"]),
    row(["---", "---:", "---:", "---", "---:", "---:"]),
  ];
  for (const e of report.evaluators) {
    const s = e.unstable_share;
    lines.push(row([
      markdownCell(e.evaluator),
      `${e.items}`,
      `${e.unstable}`,
      `${figure(s.value)}${s.ci ? ` [${figure(s.ci.low)}, ${figure(s.ci.high)}]` : ""}`,
      figure(e.mean_flip_rate),
      figure(e.mean_score_sd),
    ]));
  }
  const unstable = report.items.filter((i) => i.unstable);
  if (unstable.length > 0) {
    lines.push("", "Unstable answers:", "");
    for (const i of unstable.slice(0, MAX_LISTED)) {
      lines.push(
        `- ${where(i)}, ${markdownCell(i.evaluator)}: pass ${i.verdicts.pass}, borderline ` +
          `${i.verdicts.borderline}, fail ${i.verdicts.fail}; score sd ${figure(i.score_sd)}`,
      );
    }
    if (unstable.length > MAX_LISTED) lines.push(`- … and ${unstable.length - MAX_LISTED} more`);
  }
  return lines;
}

/**
 * Renders the output of `agentv calibrate` as GitHub-flavoured Markdown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderCalibrationMarkdown } from "./calibration_markdown.ts";
 * const md = renderCalibrationMarkdown({ results: ["r.jsonl"], labels_file: null, report: null,
 *   repeat: null, orders: null, skipped: [], saved: null, gate: null });
 * assert.match(md, /^## Judge calibration/);
 * ```
 */
export function renderCalibrationMarkdown(output: CalibrationOutput): string {
  const lines = ["## Judge calibration", ""];
  if (output.gate !== null) {
    lines.push(
      output.gate.failures.length === 0
        ? "✅ Gate passed."
        : `❌ Gate failed: ${output.gate.failures.map(markdownCell).join("; ")}.`,
      "",
    );
  }
  const report = output.report;
  if (report === null) lines.push("No labels: agreement with people was not measured.", "");
  else {
    const b = report.bootstrap;
    lines.push(
      `${report.labels.matched} of ${report.labels.latest} labels matched a judged verdict` +
        `${
          report.labels.unmatched.length > 0
            ? ` (${report.labels.unmatched.length} matched nothing)`
            : ""
        }; ` +
        `intervals: percentile bootstrap, ${b.resamples} resamples, seed ${b.seed}.`,
      "",
    );
    const ci = `${Math.round(b.confidence * 100)}% CI`;
    for (const unit of report.units) lines.push(...unitSection(unit, ci), "");
  }
  for (const c of [output.repeat, output.orders]) if (c) lines.push(...consistencySection(c), "");
  if (output.saved !== null) lines.push(`Calibration saved to ${markdownCell(output.saved)}.`, "");
  return lines.join("\n");
}
