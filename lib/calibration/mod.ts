/**
 * Judges measured against people: labels matched to result rows, agreement figures (confusion
 * matrix, accuracy, sensitivity, specificity, Cohen's κ, Krippendorff's α, Spearman's ρ, mean
 * absolute difference) with seeded bootstrap intervals, the CI gate, saved calibrations, and a
 * run's pass rate corrected for its judge's error (Rogan–Gladen, with an interval that carries the
 * run's and the calibration's uncertainty).
 *
 * @module
 */
export {
  accuracy,
  cohensKappa,
  type ConfusionMatrix,
  confusionMatrix,
  sensitivity,
  specificity,
  type VerdictPair,
} from "./agreement.ts";
export { type AlphaMetric, type AlphaUnit, krippendorffAlpha } from "./krippendorff.ts";
export { meanAbsoluteDifference, ranks, type ScorePair, spearman } from "./scores.ts";
export {
  bootstrapIntervals,
  type BootstrapSettings,
  DEFAULT_BOOTSTRAP,
  type Estimate,
  estimateFigures,
  type Figure,
} from "./bootstrap.ts";
export {
  type CorrectedRate,
  correctPassRate,
  normalQuantile,
  type PassCounts,
  roganGladen,
} from "./corrected_rate.ts";
export {
  humanVerdict,
  type JudgedVerdict,
  type JudgeIdentity,
  type LabelledItem,
  type LabelMatch,
  matchLabels,
  type UnmatchedLabel,
} from "./match_labels.ts";
export {
  type AlphaFigures,
  calibrateJudge,
  type CalibrateOptions,
  type CalibrationReport,
  type Disagreement,
  type ReviewerNote,
  type ScoreFigures,
  type UnitCalibration,
} from "./calibrate.ts";
export { type CalibrationGate, gateFailures } from "./gate.ts";
export {
  CALIBRATION_DIR,
  CalibrationFileError,
  calibrationFileOf,
  type CalibrationFileOptions,
  calibrationPath,
  readCalibration,
  savedFigures,
  writeCalibration,
} from "./calibration_file.ts";
export { calibratedPassRate, driftWarnings, type RunJudge } from "./apply.ts";
export {
  type ConsistencyReport,
  type EvaluatorConsistency,
  type ItemConsistency,
  type RejudgedItem,
  type RejudgeSample,
  type RejudgeSkip,
  rubricOrders,
  summarizeConsistency,
} from "./consistency.ts";
export {
  type CalibrationJson,
  calibrationJson,
  type CalibrationOutput,
  type GateOutcome,
} from "./output.ts";
