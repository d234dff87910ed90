/**
 * The zod schemas of every format agentv reads or writes (eval files, targets files, config,
 * result rows, run records) and the types inferred from them.
 *
 * @module
 */
export { evalFileJsonSchema, sidecarJsonSchema } from "./json_schema.ts";
export {
  type BudgetSummary,
  type CacheSummary,
  type DatasetFileRecord,
  type IntegrityFlag,
  type IntegritySummary,
  type MergedShardRecord,
  RESULT_OPTIONS,
  type ResumedSession,
  RUN_RECORD_VERSION,
  type RunOptionsRecord,
  type RunRecord,
  runRecordJsonSchema,
  type RunStatus,
  type RunTargetRecord,
  type SummaryFailure,
  type TargetSummary,
} from "./run_record.ts";
export { type CacheMode, type RunConfigSettings } from "./config.ts";
export { type CaseExecution, type Diagnostic, type EvalCase } from "./eval_case.ts";
export {
  type Message,
  type OtherSegment,
  type ResolvedFileSegment,
  type Segment,
  type TextSegment,
  type ToolCall,
} from "./message.ts";
export {
  type Aggregator,
  type CodeJudgeConfig,
  type CompositeConfig,
  type ContainsConfig,
  type CostConfig,
  type EqualsConfig,
  type EvaluatorBase,
  type EvaluatorConfig,
  type EvaluatorType,
  type ExpectedTool,
  type FieldAccuracyConfig,
  type FieldSpec,
  type IsJsonConfig,
  type JsonSchemaConfig,
  type LatencyConfig,
  type LlmJudgeConfig,
  type RegexConfig,
  type Rubric,
  type RubricConfig,
  type TokenUsageConfig,
  type ToolTrajectoryConfig,
} from "./evaluator_types.ts";
export { type TargetDefinition, type TargetsFile } from "./targets.ts";
export { type NetworkMode, type SandboxMode, type SandboxSettings } from "./sandbox.ts";
export {
  type EvaluationScore,
  type EvaluatorResult,
  type OutputMessage,
  type RecordedFile,
  type RecordedMessage,
  type ResultRow,
  type TokenUsage,
  type TraceSummary,
  type Verdict,
} from "./result.ts";
export {
  type ExpectedFileChange,
  type FileChangeKind,
  type FileChangesConfig,
} from "./evaluator_types.ts";
export { type WorkspaceChanges } from "./workspace.ts";
export { type JudgeNeeds } from "./judge_needs.ts";
export { type WorkspaceRepo } from "./workspace_repo.ts";
export {
  type Integrity,
  type IntegrityFinding,
  type IntegrityFindingKind,
  type IntegritySetting,
} from "./integrity.ts";
export { type Label, LabelSchema } from "./label.ts";
export {
  type CalibratedPassRate,
  CalibratedPassRateSchema,
  type CalibrationFile,
  CalibrationFileSchema,
  type ConfusionCounts,
  type JudgePromptHashes,
  type SavedCalibration,
} from "./calibration.ts";
