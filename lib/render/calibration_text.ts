/**
 * The console output of `agentv calibrate`: per evaluator (the case verdict first) the confusion
 * matrix, accuracy, sensitivity, specificity, κ, α and score agreement, each with its interval and
 * n, the disagreements with the judge's reasoning and the reviewers' notes; then self-consistency
 * and order sensitivity with the unstable answers named; the labels that matched nothing; the
 * saved calibration and the gate. Model and reviewer text is shown with control characters
 * escaped.
 *
 * @module
 */
import type { Estimate } from "../calibration/bootstrap.ts";
import type { Disagreement, UnitCalibration } from "../calibration/calibrate.ts";
import type { ConsistencyReport, ItemConsistency } from "../calibration/consistency.ts";
import type { CalibrationOutput } from "../calibration/output.ts";
import { escapeControl } from "../text/escape_control.ts";

/** Colours (the CLI's `createPaint` fits); default none. */
export interface CalibrationStyle {
  /** Headings. */
  bold(text: string): string;
  /** Secondary text. */
  dim(text: string): string;
  /** Failures. */
  red(text: string): string;
}

const PLAIN: CalibrationStyle = { bold: (t) => t, dim: (t) => t, red: (t) => t };

/** Disagreements listed per evaluator before "and N more". */
const MAX_DISAGREEMENTS = 20;
/** Unstable answers listed per kind before "and N more". */
const MAX_UNSTABLE = 20;
/** Unmatched labels listed before "and N more". */
const MAX_UNMATCHED = 10;
/** Longest reasoning or note shown, in characters. */
const MAX_TEXT = 300;

/** A figure, 2 decimals; `-` for none. */
export function figure(value: number | null): string {
  return value === null ? "-" : value.toFixed(2);
}

/** `0.85  [0.73, 0.95]  n 40` (the interval left out when there is none). */
export function estimateText(e: Estimate): string {
  const ci = e.ci === null ? "" : `  [${figure(e.ci.low)}, ${figure(e.ci.high)}]`;
  return `${figure(e.value)}${ci}  n ${e.n}`;
}

/** `the case verdict` or `evaluator 'quality' (llm_judge)`. */
export function unitName(unit: { evaluator: string | null; type: string | null }): string {
  if (unit.evaluator === null) return "case verdict";
  return `evaluator '${escapeControl(unit.evaluator)}'${unit.type ? ` (${unit.type})` : ""}`;
}

/** `dataset/case` (with the target and trial when they matter). */
export function itemName(
  item: { dataset: string; eval_id: string; target: string; trial: number },
): string {
  const name = item.dataset === "" ? item.eval_id : `${item.dataset}/${item.eval_id}`;
  return escapeControl(
    `${name} (target ${item.target}${item.trial > 0 ? `, trial ${item.trial}` : ""})`,
  );
}

/** One line of free text, escaped and cut short. */
export function shortText(text: string): string {
  const flat = escapeControl(text.replace(/\s+/g, " ").trim());
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT - 1)}…` : flat;
}

function matrixLines(unit: UnitCalibration): string[] {
  const { tp, fp, fn, tn } = unit.confusion;
  const cells = [["", "people pass", "people fail"], ["judge pass", `${tp}`, `${fp}`], [
    "judge fail",
    `${fn}`,
    `${tn}`,
  ]];
  const widths = [0, 1, 2].map((c) => Math.max(...cells.map((r) => r[c].length)));
  return cells.map((r) =>
    `    ${r[0].padEnd(widths[0])}  ${r[1].padStart(widths[1])}  ${r[2].padStart(widths[2])}`
  );
}

function disagreementLines(list: readonly Disagreement[]): string[] {
  if (list.length === 0) return ["  no disagreement"];
  const lines = [`  ${list.length} disagreement${list.length === 1 ? "" : "s"}:`];
  for (const d of list.slice(0, MAX_DISAGREEMENTS)) {
    lines.push(
      `    ${itemName(d)}: judge ${d.judge_verdict} (${
        figure(d.judge_score)
      }), people ${d.human_verdict}`,
    );
    if (d.reasoning) lines.push(`      judge: ${shortText(d.reasoning)}`);
    for (const r of d.reviewers) {
      const score = r.score === null ? "" : ` ${figure(r.score)}`;
      lines.push(
        `      ${escapeControl(r.reviewer)}: ${r.label}${score}${
          r.note ? ` — ${shortText(r.note)}` : ""
        }`,
      );
    }
  }
  if (list.length > MAX_DISAGREEMENTS) {
    lines.push(`    … and ${list.length - MAX_DISAGREEMENTS} more (--json lists them all)`);
  }
  return lines;
}

function unitLines(unit: UnitCalibration, style: CalibrationStyle): string[] {
  const judges = unit.judge_targets.length === 0
    ? "no judge recorded"
    : `judge ${unit.judge_targets.map((j) => `'${escapeControl(j)}'`).join(", ")}${
      unit.models.length > 0 ? ` (model ${unit.models.map(escapeControl).join(", ")})` : ""
    }`;
  const reviewers = `${unit.reviewers.length} reviewer${unit.reviewers.length === 1 ? "" : "s"}`;
  const lines = [
    style.bold(`${unitName(unit)} · ${judges} · ${reviewers}`),
    `  ${unit.n} labelled${unit.ties > 0 ? ` (${unit.ties} split evenly, left out)` : ""}`,
    ...matrixLines(unit),
    `  accuracy     ${estimateText(unit.accuracy)}`,
    `  sensitivity  ${estimateText(unit.sensitivity)}`,
    `  specificity  ${estimateText(unit.specificity)}`,
    `  kappa        ${estimateText(unit.kappa)}`,
  ];
  if (unit.alpha) {
    lines.push(`  alpha        reviewers ${estimateText(unit.alpha.reviewers)}`);
    lines.push(`               with judge ${estimateText(unit.alpha.with_judge)}`);
  }
  if (unit.scores) {
    lines.push(`  scores       Spearman ${estimateText(unit.scores.spearman)}`);
    lines.push(`               mean |judge − people| ${estimateText(unit.scores.mad)}`);
    if (unit.scores.alpha) {
      lines.push(`               alpha reviewers ${estimateText(unit.scores.alpha.reviewers)}`);
    }
  }
  return [...lines, ...disagreementLines(unit.disagreements)];
}

function unstableLine(item: ItemConsistency): string {
  const v = item.verdicts;
  const counts = [["pass", v.pass], ["borderline", v.borderline], ["fail", v.fail]]
    .filter(([, n]) => (n as number) > 0).map(([k, n]) => `${k} ${n}`).join(", ");
  return `    ${itemName(item)}: ${counts} · flip rate ${figure(item.flip_rate)} · score sd ${
    figure(item.score_sd)
  }${item.errors > 0 ? ` · ${item.errors} failed` : ""}`;
}

/** The lines of a consistency report (exported for the run's and compare's views). */
export function consistencyLines(report: ConsistencyReport, style: CalibrationStyle): string[] {
  const title = report.kind === "repeat"
    ? `Self-consistency: each answer judged ${report.k} times (--repeat ${report.k})`
    : `Order sensitivity: rubric items in ${report.k} orders (--orders ${report.k})`;
  const lines = [style.bold(title)];
  if (report.evaluators.length === 0) lines.push("  nothing was judged again");
  for (const e of report.evaluators) {
    const share = e.unstable_share.ci === null
      ? ""
      : ` [${figure(e.unstable_share.ci.low)}, ${figure(e.unstable_share.ci.high)}]`;
    lines.push(
      `  ${unitName(e)}: ${e.unstable} of ${e.items} answers unstable (${
        figure(e.unstable_share.value)
      }${share}) · mean flip rate ${figure(e.mean_flip_rate)} · mean score sd ${
        figure(e.mean_score_sd)
      }`,
    );
    const unstable = report.items.filter((i) => i.unstable && i.evaluator === e.evaluator);
    for (const item of unstable.slice(0, MAX_UNSTABLE)) lines.push(unstableLine(item));
    if (unstable.length > MAX_UNSTABLE) {
      lines.push(`    … and ${unstable.length - MAX_UNSTABLE} more (--json lists them all)`);
    }
  }
  return lines;
}

/**
 * Renders the output of `agentv calibrate` for the console.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderCalibrationText } from "./calibration_text.ts";
 * const text = renderCalibrationText({ results: ["r.jsonl"], labels_file: null, report: null,
 *   repeat: null, orders: null, skipped: [], saved: null, gate: null });
 * assert.match(text, /No labels/);
 * ```
 */
export function renderCalibrationText(
  output: CalibrationOutput,
  options: { style?: CalibrationStyle } = {},
): string {
  const style = options.style ?? PLAIN;
  const blocks: string[][] = [];
  const report = output.report;
  if (report === null) blocks.push(["No labels: agreement with people was not measured"]);
  else {
    const { labels } = report;
    blocks.push([
      style.bold(
        `Judge agreement with people: ${labels.matched} of ${labels.latest} labels matched` +
          ` (${escapeControl(output.labels_file ?? "")}; bootstrap ${report.bootstrap.resamples}` +
          ` resamples, seed ${report.bootstrap.seed}, ${
            report.bootstrap.confidence * 100
          }% intervals)`,
      ),
    ]);
    for (const unit of report.units) blocks.push(unitLines(unit, style));
    if (labels.unmatched.length > 0) {
      const lines = [`${labels.unmatched.length} label(s) matched nothing:`];
      for (const u of labels.unmatched.slice(0, MAX_UNMATCHED)) {
        lines.push(`  ${itemName(u.label)} by ${escapeControl(u.label.reviewer)}: ${u.reason}`);
      }
      if (labels.unmatched.length > MAX_UNMATCHED) {
        lines.push(
          `  … and ${labels.unmatched.length - MAX_UNMATCHED} more (--json lists them all)`,
        );
      }
      blocks.push(lines);
    }
  }
  if (output.repeat) blocks.push(consistencyLines(output.repeat, style));
  if (output.orders) blocks.push(consistencyLines(output.orders, style));
  if (output.skipped.length > 0) {
    blocks.push(
      output.skipped.map((s) =>
        `Not asked again: evaluator '${
          escapeControl(s.evaluator)
        }' on ${s.rows} row(s): ${s.reason}`
      ),
    );
  }
  if (output.saved !== null) blocks.push([`Saved the calibration to ${output.saved}`]);
  if (output.gate !== null) {
    blocks.push(
      output.gate.failures.length === 0
        ? ["Gate passed"]
        : output.gate.failures.map((f) => style.red(`Gate failed: ${f}`)),
    );
  }
  return blocks.map((b) => b.join("\n")).join("\n\n") + "\n";
}
