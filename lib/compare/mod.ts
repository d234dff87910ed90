/**
 * Comparing runs: pairing cases and paired statistics.
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
  bootstrapMeanInterval,
  type BootstrapOptions,
  type ConfidenceInterval,
  signTest,
  type SignTestResult,
  type WilcoxonResult,
  wilcoxonSignedRank,
} from "./statistics.ts";
export {
  type CompareJson,
  compareToJson,
  type MatchedJson,
  type UnpairedJson,
} from "./compare_json.ts";
