/**
 * Comparing runs: pairing cases and paired statistics, the drift gate of a series of runs, and
 * the intervals of a run's pass rate and mean score.
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
