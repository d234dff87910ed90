/**
 * How the `calibration` section of a run summary reads: one headline (the raw pass rate and the
 * one corrected for the judge's error, with its interval and what the calibration rests on) and
 * its warnings. Shared by the console summary, the Markdown report's notes and `agentv compare`.
 *
 * @module
 */
import type { CalibratedPassRate } from "../schema/calibration.ts";
import { escapeControl } from "../text/escape_control.ts";
import type { Paint } from "./console_text.ts";

/** A share as a percentage with one decimal; `-` for none. */
export function percent(value: number | null): string {
  return value === null ? "-" : `${(value * 100).toFixed(1)}%`;
}

/**
 * The headline of a calibration section (plain text, control characters escaped).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { calibrationHeadline } from "./calibration_summary.ts";
 * const line = calibrationHeadline({
 *   judge_target: "judge", file: "j.json", calibrated_at: "2026-11-27T10:00:00.000Z", n: 100,
 *   kappa: 0.7, sensitivity: 0.9, specificity: 0.8, pass_rate: 0.6, corrected_pass_rate: 0.5714,
 *   ci: { low: 0.3963, high: 0.7432, confidence: 0.95 }, warnings: [],
 * });
 * assert.equal(line, "pass rate 60.0%, corrected for judge 'judge' 57.1% (95% CI 39.6%–74.3%; " +
 *   "calibrated 2026-11-27 on 100 labels: sensitivity 0.90, specificity 0.80, κ 0.70)");
 * ```
 */
export function calibrationHeadline(section: CalibratedPassRate): string {
  const judge = escapeControl(section.judge_target);
  const raw = `pass rate ${percent(section.pass_rate)}`;
  if (section.corrected_pass_rate === null) {
    return `${raw}, not corrected for judge '${judge}' (see the warning)`;
  }
  const ci = section.ci === null
    ? ""
    : `${Math.round(section.ci.confidence * 100)}% CI ${percent(section.ci.low)}–${
      percent(section.ci.high)
    }; `;
  const figure = (x: number | null) => (x === null ? "-" : x.toFixed(2));
  return `${raw}, corrected for judge '${judge}' ${percent(section.corrected_pass_rate)} (${ci}` +
    `calibrated ${section.calibrated_at.slice(0, 10)} on ${section.n} labels: sensitivity ` +
    `${figure(section.sensitivity)}, specificity ${figure(section.specificity)}, κ ${
      figure(section.kappa)
    })`;
}

/** The section's warnings, control characters escaped. */
export function calibrationWarnings(section: CalibratedPassRate): string[] {
  return section.warnings.map((w) => escapeControl(w));
}

/** The console lines of a calibration section (`  Corrected: …` and its warnings). */
export function calibrationSummaryLines(section: CalibratedPassRate, paint: Paint): string[] {
  const headline = calibrationHeadline(section);
  return [
    `  Judge:     ${headline[0].toUpperCase()}${headline.slice(1)}`,
    ...calibrationWarnings(section).map((w) => `  ${paint("yellow", "warning")}: ${w}`),
  ];
}

/** One side of a comparison and its calibration section (absent: its judge is not calibrated). */
export interface CalibratedSide {
  /** `baseline` or `candidate`. */
  side: string;
  /** The results file, as named. */
  label: string;
  /** Its calibration section. */
  section: CalibratedPassRate | undefined;
}

/**
 * The corrected pass rates of `agentv compare` as console lines (empty when neither side's judge
 * is calibrated).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareCalibrationText } from "./calibration_summary.ts";
 * assert.equal(compareCalibrationText([{ side: "baseline", label: "a.jsonl", section: undefined }]), "");
 * ```
 */
export function compareCalibrationText(sides: readonly CalibratedSide[]): string {
  if (sides.every((s) => s.section === undefined)) return "";
  const lines = ["Judge calibration:"];
  for (const { side, label, section } of sides) {
    const name = `${side} (${escapeControl(label)})`;
    if (section === undefined) {
      lines.push(`  ${name}: no calibration of its judge is saved`);
      continue;
    }
    lines.push(`  ${name}: ${calibrationHeadline(section)}`);
    for (const w of calibrationWarnings(section)) lines.push(`    warning: ${w}`);
  }
  return lines.join("\n") + "\n";
}

/** The corrected pass rates of `agentv compare --format markdown` (empty when none). */
export function compareCalibrationMarkdown(
  sides: readonly CalibratedSide[],
  cell: (text: string) => string,
): string {
  if (sides.every((s) => s.section === undefined)) return "";
  const lines = ["### Judge calibration", ""];
  for (const { side, label, section } of sides) {
    const head = `**${side}** (${cell(label)})`;
    if (section === undefined) {
      lines.push(`- ${head}: no calibration of its judge is saved`);
      continue;
    }
    lines.push(`- ${head}: ${cell(calibrationHeadline(section))}`);
    for (const w of calibrationWarnings(section)) lines.push(`  - ⚠️ ${cell(w)}`);
  }
  return lines.join("\n") + "\n";
}
