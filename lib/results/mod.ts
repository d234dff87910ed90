/**
 * The run's data: result rows, the results file (bounded reader, writer), the run record, the
 * recorder, run events, summaries, trials statistics, merging shards and resuming.
 *
 * @module
 */
export {
  type CacheRejectedEvent,
  type CaseFinishedEvent,
  type CaseStartedEvent,
  type InterruptedEvent,
  type RetryEvent,
  type RunEvent,
  type RunFinishedEvent,
  type RunStartedEvent,
  type TargetResolvedEvent,
} from "./events.ts";
export {
  parseResults,
  type ParseResultsOptions,
  readResults,
  type ReadResultsOptions,
  type ReadResultsOutput,
} from "./read_results.ts";
export {
  RESULTS_LINE_MAX_BYTES,
  RESULTS_MAX_BYTES,
  ResultsFileError,
  type ResultsFileLimits,
  type ResultsFileRefusal,
} from "./results_file.ts";
export { ResultsWriteError } from "./results_writer.ts";
export {
  createRunRecorder,
  type RowRedactor,
  type RunRecorder,
  type RunRecorderOptions,
} from "./recorder.ts";
export { readRunRecord, RunRecordError, runRecordPath } from "./run_record.ts";
export { type ResumeFileContent, type RunRecorderParent } from "./resume_file.ts";
export {
  DEFAULT_TRIALS_GATE,
  gateVerdict,
  parseTrialsGate,
  passAtK,
  passHatK,
  type TrialCaseStats,
  trialPassed,
  type TrialsGate,
  type TrialsSummary,
} from "./trials.ts";
export {
  type DuplicatePair,
  type MergedRun,
  mergeShards,
  type MergeShardsOptions,
  shardDisagreements,
  type ShardResults,
  type TrialPair,
} from "./merge.ts";
export {
  type EvaluatorMean,
  type HistogramBin,
  type RunSummary,
  type ScoreStats,
  type SummarizeOptions,
  summarizeResults,
  type SummaryError,
} from "./summary.ts";
export {
  appendLabel,
  appendLabels,
  caseRunKey,
  LABELS_FILE,
  latestLabels,
  readLabels,
  type ReadLabelsOutput,
} from "./labels.ts";
export { LABEL_CSV_COLUMNS, parseLabelsCsv } from "./labels_csv.ts";
export { compareLabels, type LabelAgreement, type LabelComparison } from "./label_agreement.ts";
