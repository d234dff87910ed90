/**
 * Comparing runs: pairing cases and paired statistics, the N-way comparison of several targets
 * (leaderboard, Holm-corrected pairwise tests, Pareto fronts), the drift gate of a series of runs,
 * and the intervals of a run's pass rate and mean score.
 *
 * @module
 */
export {
  type CasePair,
  type EvaluatorDelta,
  type PairOutcome,
  pairRuns,
  type PairRunsOptions,
  type RunPairing,
  type UnpairedCase,
  type VerdictFlip,
} from "./pair.ts";
export {
  type CompareLabels,
  type CompareVerdict,
  type ComparisonSummary,
  type EvaluatorSummary as CompareEvaluatorSummary,
  type FlipEntry,
  summarizeComparison,
  type SummarizeOptions as CompareSummaryOptions,
} from "./summary.ts";
export {
  type Alternative,
  bootstrapMeanInterval,
  type BootstrapOptions,
  type ConfidenceInterval,
  signTest,
  type SignTestResult,
  type WilcoxonOptions,
  type WilcoxonResult,
  wilcoxonSignedRank,
} from "./statistics.ts";
export {
  caseScores,
  DEFAULT_MIN_CASES,
  DEFAULT_WINDOW,
  detectDrift,
  type DriftOptions,
  type DriftResult,
  type DriftVerdict,
  type ScoredCase,
} from "./drift.ts";
export { type Interval, meanInterval, wilsonInterval } from "./intervals.ts";
export {
  type CompareJson,
  compareToJson,
  type MatchedJson,
  type UnpairedJson,
} from "./compare_json.ts";
export { type Arm, armsOf, type CompareInput, findArm } from "./arms.ts";
export {
  type ArmCase,
  armCases,
  type ArmStats,
  armStats,
  type ArmStatsOptions,
} from "./leaderboard.ts";
export {
  type CaseOutcome,
  compareArms,
  type CompareArmsOptions,
  failOnReasons,
  type MatrixCase,
  type MatrixComparison,
  type PairComparison,
  pairOf,
  requireBestReasons,
} from "./matrix.ts";
export { holmAdjust } from "./holm.ts";
export {
  MATRIX_JSON_VERSION,
  type MatrixJson,
  matrixToJson,
  matrixVerdictLine,
  type PairJson,
  topArms,
} from "./matrix_json.ts";
export { paretoFront, type ParetoPoint } from "./pareto.ts";
