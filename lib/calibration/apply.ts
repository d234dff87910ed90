/**
 * A saved calibration applied to a run: the run's pass rate corrected for the judge's error (the
 * calibration of the overall verdict, see `corrected_rate.ts`), and the warnings that say when
 * the correction is doubtful: the judge now uses another model, or is asked prompts or rubric
 * texts it was not calibrated with, or the calibration is too weak to correct (Se + Sp ≤ 1), or
 * it has no labels of the overall verdict.
 *
 * @module
 */
import type {
  CalibratedPassRate,
  CalibrationFile,
  JudgePromptHashes,
} from "../schema/calibration.ts";
import { correctPassRate, type PassCounts } from "./corrected_rate.ts";

/** The judge of a run, as the run used it. */
export interface RunJudge {
  /** The judge target. */
  target: string;
  /** The models its calls were sent with, as recorded (empty: not recorded). */
  models: readonly string[];
  /** The run's judge prompts (`judgePromptHashes`), or `null` when not known. */
  prompt: JudgePromptHashes | null;
}

/** The warnings of a calibration applied to a run's judge (see the module doc). */
export function driftWarnings(calibration: CalibrationFile, judge: RunJudge): string[] {
  const warnings: string[] = [];
  const on = calibration.calibrated_at.slice(0, 10);
  const other = calibration.model === null
    ? []
    : judge.models.filter((m) => m !== calibration.model);
  if (other.length > 0) {
    warnings.push(
      `judge '${judge.target}' now uses model ${other.map((m) => `'${m}'`).join(", ")}; it was ` +
        `calibrated (${on}) with '${calibration.model}': calibrate it again`,
    );
  }
  if (calibration.prompt === null) {
    warnings.push(
      `the calibration of judge '${judge.target}' does not record its prompts: a changed prompt ` +
        "or rubric cannot be detected (calibrate with the eval files at hand)",
    );
  } else if (judge.prompt !== null) {
    const known = new Set(calibration.prompt.texts);
    const fresh = judge.prompt.texts.filter((t) => !known.has(t)).length;
    if (fresh > 0) {
      warnings.push(
        `judge '${judge.target}' is asked ${fresh} of ${judge.prompt.texts.length} prompt(s) or ` +
          `rubric text(s) that differ from those it was calibrated with (${on}): calibrate it again`,
      );
    }
  }
  return warnings;
}

/**
 * The run's pass rate corrected with `saved` (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { calibratedPassRate } from "./apply.ts";
 * const calibration = {
 *   schema_version: 1 as const, judge_target: "judge", model: "m1", prompt: null,
 *   calibrated_at: "2026-11-27T10:00:00.000Z", agentv_version: "0.1.0", runs: [],
 *   overall: { evaluator: null, type: null, n: 100, confusion: { tp: 45, fn: 5, tn: 40, fp: 10 },
 *     kappa: 0.7, sensitivity: 0.9, specificity: 0.8 },
 *   evaluators: [],
 * };
 * const rate = calibratedPassRate({ passed: 60, scored: 100 },
 *   { target: "judge", models: ["m2"], prompt: null }, { file: "j.json", calibration });
 * assert.ok(Math.abs(rate.corrected_pass_rate! - 0.4 / 0.7) < 1e-12);
 * assert.match(rate.warnings[0], /now uses model 'm2'/);
 * ```
 */
export function calibratedPassRate(
  counts: PassCounts,
  judge: RunJudge,
  saved: { file: string; calibration: CalibrationFile },
  options: { confidence?: number } = {},
): CalibratedPassRate {
  const { calibration } = saved;
  const overall = calibration.overall;
  const confidence = options.confidence ?? 0.95;
  const warnings = driftWarnings(calibration, judge);
  const out: CalibratedPassRate = {
    judge_target: calibration.judge_target,
    file: saved.file,
    calibrated_at: calibration.calibrated_at,
    n: overall?.n ?? 0,
    kappa: overall?.kappa ?? null,
    sensitivity: overall?.sensitivity ?? null,
    specificity: overall?.specificity ?? null,
    pass_rate: counts.scored === 0 ? null : counts.passed / counts.scored,
    corrected_pass_rate: null,
    ci: null,
    warnings,
  };
  if (overall === null) {
    warnings.push(
      `the calibration of judge '${judge.target}' has no labels of case verdicts ` +
        "(labels with evaluator null): the pass rate cannot be corrected",
    );
    return out;
  }
  const rate = correctPassRate(counts, overall.confusion, { confidence });
  if (rate.reason === "too weak") {
    warnings.push(
      `the calibration of judge '${judge.target}' is too weak to correct: sensitivity + ` +
        `specificity = ${((overall.sensitivity ?? 0) + (overall.specificity ?? 0)).toFixed(2)} ` +
        "≤ 1 (no better than chance)",
    );
  } else if (rate.reason === "no labelled passes or fails") {
    warnings.push(
      `the calibration of judge '${judge.target}' has no labelled ${
        overall.confusion.tp + overall.confusion.fn === 0 ? "passes" : "fails"
      }: its ${
        overall.confusion.tp + overall.confusion.fn === 0 ? "sensitivity" : "specificity"
      } is unknown and the pass rate cannot be corrected`,
    );
  }
  out.corrected_pass_rate = rate.corrected;
  out.ci = rate.ci === null ? null : { ...rate.ci, confidence };
  return out;
}
