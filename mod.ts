/**
 * agentv: evaluate LLM applications and AI agents from version-controlled YAML/JSONL datasets.
 *
 * Load and validate eval files, run them against targets (OpenAI, Azure, Anthropic, Gemini, CLI
 * agents, mocks), score answers with evaluators and read the results.
 *
 * @example Load the cases of an eval file
 * ```ts
 * import { loadEvalCases } from "@agentv/agentv";
 * import { join } from "node:path";
 *
 * // A dataset folder: `.agentv/` marks its root.
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(join(dir, ".agentv"));
 * await Deno.writeTextFile(
 *   join(dir, "dataset.yaml"),
 *   "evalcases:\n  - id: capital\n    expected_outcome: Names Paris\n    input: Capital of France?\n",
 * );
 *
 * const cases = await loadEvalCases(join(dir, "dataset.yaml"), {
 *   onDiagnostic: (d) => console.warn(`${d.file}:${d.line}:${d.column}: ${d.message}`),
 * });
 * console.log(cases.length); // 1
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @example Run evals and gate on the result
 * ```ts
 * import { runEval } from "@agentv/agentv";
 * import { join } from "node:path";
 *
 * // A dataset with a mock target (swap in `provider: openai` and a `${{ OPENAI_API_KEY }}`).
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(join(dir, ".agentv"));
 * await Deno.writeTextFile(
 *   join(dir, ".agentv/targets.yaml"),
 *   "targets:\n  - name: default\n    provider: mock\n    response: The capital is Paris.\n",
 * );
 * await Deno.writeTextFile(
 *   join(dir, "dataset.yaml"),
 *   "evalcases:\n  - id: capital\n    expected_outcome: Names Paris\n    input: Capital of France?\n" +
 *     "    evaluators:\n      - type: contains\n        value: Paris\n",
 * );
 *
 * const { summary } = await runEval({
 *   files: [join(dir, "dataset.yaml")],
 *   env: {},
 *   cwd: dir,
 * });
 * console.log(summary.scores.mean); // 1
 * if (summary.errors.length > 0 || summary.verdicts.fail > 0) throw new Error("evals failed");
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */

export { loadEvalCases, type LoadEvalCasesOptions } from "./lib/loader/load_eval_cases.ts";
export {
  type CaseTargetUse,
  type EvalFileReport,
  validateEvalFile,
} from "./lib/loader/validate_eval_file.ts";
export type { CaseSite } from "./lib/loader/case_pipeline.ts";
export { streamEvalCases } from "./lib/loader/stream_eval_cases.ts";
export { type LoadedEvalFile, loadEvalFile } from "./lib/loader/load_eval_file.ts";
export type { LoadOptions } from "./lib/loader/context.ts";
export { EvalLoadError } from "./lib/loader/errors.ts";
export { type DiscoveredFiles, discoverEvalFiles } from "./lib/loader/discover.ts";
export { buildChatMessages, renderGuidelines, renderPrompt } from "./lib/prompt/render_prompt.ts";
export { evalFileJsonSchema, sidecarJsonSchema } from "./lib/schema/json_schema.ts";

export {
  type EvalFileLoader,
  type LoadedEvalSet,
  runEval,
  type RunEvalOptions,
  type RunEvalResult,
} from "./lib/runner/run_eval.ts";
export type {
  CacheRejectedEvent,
  CaseFinishedEvent,
  CaseStartedEvent,
  InterruptedEvent,
  RetryEvent,
  RunEvent,
  RunFinishedEvent,
  RunStartedEvent,
  TargetResolvedEvent,
} from "./lib/report/events.ts";
export { RunConfigError } from "./lib/runner/errors.ts";
export {
  type RunPermission,
  type RunPermissionRequest,
  UntrustedDatasetError,
} from "./lib/runner/run_permission.ts";
export type {
  CommandFile,
  DatasetCommand,
  DatasetCommandKind,
  NeedIdentity,
  SourceHash,
} from "./lib/loader/dataset_commands.ts";
export {
  CommandPermit,
  ConsentGrant,
  ConsentNotGivenError,
  type GrantedNeed,
} from "./lib/targets/consent.ts";
export type { TargetNeed } from "./lib/targets/target_needs.ts";
export type {
  CodeJudgeFunction,
  CodeJudgePayload,
  CodeJudgeResult,
} from "./lib/evaluators/code_judge_types.ts";
export {
  parseResults,
  type ParseResultsOptions,
  readResults,
  type ReadResultsOptions,
  type ReadResultsOutput,
} from "./lib/report/read_results.ts";
export {
  RESULTS_LINE_MAX_BYTES,
  RESULTS_MAX_BYTES,
  ResultsFileError,
  type ResultsFileLimits,
  type ResultsFileRefusal,
} from "./lib/report/results_file.ts";
export { ResultsWriteError } from "./lib/report/results_writer.ts";
export {
  createRunRecorder,
  type RowRedactor,
  type RunRecorder,
  type RunRecorderOptions,
} from "./lib/report/recorder.ts";
export { readRunRecord, RunRecordError, runRecordPath } from "./lib/report/run_record.ts";
export {
  type BudgetSummary,
  type CacheSummary,
  type DatasetFileRecord,
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
} from "./lib/schema/run_record.ts";
export type { CacheMode, RunConfigSettings } from "./lib/schema/config.ts";
export { type Shard, shardOf } from "./lib/runner/plan.ts";
export { type PriorRun, type PriorRunMode, readPriorRun } from "./lib/runner/resume.ts";
export type { ResumeFileContent, RunRecorderParent } from "./lib/report/resume_file.ts";
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
} from "./lib/report/trials.ts";
export {
  type DuplicatePair,
  type MergedRun,
  mergeShards,
  type MergeShardsOptions,
  shardDisagreements,
  type ShardResults,
  type TrialPair,
} from "./lib/report/merge.ts";
export { cacheKey, type CacheKeyMaterial, canonicalJson, type JsonValue } from "./lib/cache/key.ts";
export {
  type EvaluatorMean,
  type HistogramBin,
  type RunSummary,
  type ScoreStats,
  type SummarizeOptions,
  summarizeResults,
  type SummaryError,
} from "./lib/report/summary.ts";

export { runEvaluator } from "./lib/evaluators/run_evaluator.ts";
export { scoreToVerdict } from "./lib/evaluators/verdict.ts";
export { aggregateCaseScore, type CaseScore } from "./lib/evaluators/case_score.ts";
export { createTarget, type CreateTargetOptions } from "./lib/targets/registry.ts";
export {
  type LoadedTargetsFile,
  loadTargetsFile,
  type SourcePosition,
  type TargetsDefinitionsFacts,
  type TargetsFileReadOptions,
  type TargetsValidation,
  validateTargetsFile,
} from "./lib/targets/targets_file.ts";
export { ConfinedReadError } from "./lib/loader/read_confined.ts";

export type { CaseExecution, Diagnostic, EvalCase } from "./lib/schema/eval_case.ts";
export type {
  Message,
  OtherSegment,
  ResolvedFileSegment,
  Segment,
  TextSegment,
  ToolCall,
} from "./lib/schema/message.ts";
export type {
  Aggregator,
  CodeJudgeConfig,
  CompositeConfig,
  ContainsConfig,
  CostConfig,
  EqualsConfig,
  EvaluatorBase,
  EvaluatorConfig,
  EvaluatorType,
  ExpectedTool,
  FieldAccuracyConfig,
  FieldSpec,
  IsJsonConfig,
  JsonSchemaConfig,
  LatencyConfig,
  LlmJudgeConfig,
  RegexConfig,
  Rubric,
  RubricConfig,
  TokenUsageConfig,
  ToolTrajectoryConfig,
} from "./lib/schema/evaluator_types.ts";
export type { TargetDefinition, TargetsFile } from "./lib/schema/targets.ts";
export type {
  EvaluationScore,
  EvaluatorResult,
  OutputMessage,
  ResultRow,
  TokenUsage,
  TraceSummary,
  Verdict,
} from "./lib/schema/result.ts";
export type {
  CallIdentity,
  ChatMessage,
  RetryPolicy,
  Target,
  TargetRequest,
  TargetResponse,
} from "./lib/targets/types.ts";
export { TargetError } from "./lib/targets/types.ts";
export type {
  EvaluationContext,
  EvaluatorFn,
  EvaluatorOutcome,
  JudgeClient,
  JudgeHosts,
  JudgeReply,
  JudgeRequest,
} from "./lib/evaluators/types.ts";
export {
  type CasePair,
  type EvaluatorDelta,
  type PairOutcome,
  pairRuns,
  type PairRunsOptions,
  type RunPairing,
  type UnpairedCase,
  type VerdictFlip,
} from "./lib/compare/pair.ts";
export {
  type CompareLabels,
  type CompareVerdict,
  type ComparisonSummary,
  type EvaluatorSummary as CompareEvaluatorSummary,
  type FlipEntry,
  summarizeComparison,
  type SummarizeOptions as CompareSummaryOptions,
} from "./lib/compare/summary.ts";
export {
  bootstrapMeanInterval,
  type BootstrapOptions,
  type ConfidenceInterval,
  signTest,
  type SignTestResult,
  type WilcoxonResult,
  wilcoxonSignedRank,
} from "./lib/compare/statistics.ts";
export {
  type CompareStyle,
  renderCompareText,
  type RenderTextOptions,
} from "./lib/compare/render_text.ts";
export { renderCompareMarkdown } from "./lib/compare/render_markdown.ts";
export {
  type CompareJson,
  compareToJson,
  type MatchedJson,
  type UnpairedJson,
} from "./lib/compare/compare_json.ts";
export { type CompareHtmlOptions, renderCompareHtml } from "./lib/compare/compare_html.ts";
export { type JunitReportOptions, renderJunitReport } from "./lib/report/junit.ts";
export { type MarkdownReportOptions, renderMarkdownReport } from "./lib/report/markdown.ts";
export {
  type AnnotationOptions,
  type CaseSourceLocation,
  renderAnnotations,
} from "./lib/report/annotations.ts";
export {
  type HtmlCaseDetails,
  type HtmlReportOptions,
  renderHtmlReport,
} from "./lib/report/html/render_html_report.ts";
export type {
  ExpectedFileChange,
  FileChangeKind,
  FileChangesConfig,
} from "./lib/schema/evaluator_types.ts";
export type { WorkspaceChanges } from "./lib/schema/workspace.ts";
export type { AgentStreamParser, AgentToolStep, AgentTrace } from "./lib/targets/agent_trace.ts";
export { createClaudeStreamParser } from "./lib/targets/claude_stream.ts";
export {
  type CodexStreamParserOptions,
  createCodexStreamParser,
} from "./lib/targets/codex_stream.ts";
