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

export {
  AgentvError,
  type AgentvErrorOptions,
  EXIT,
  EXIT_CODES,
  type ExitCode,
  UsageError,
} from "./lib/errors/mod.ts";
export { ConfinedReadError } from "./lib/fs/mod.ts";
export {
  type Aggregator,
  type BudgetSummary,
  type CacheMode,
  type CacheSummary,
  type CaseExecution,
  type CodeJudgeConfig,
  type CompositeConfig,
  type ContainsConfig,
  type CostConfig,
  type DatasetFileRecord,
  type Diagnostic,
  type EqualsConfig,
  type EvalCase,
  evalFileJsonSchema,
  type EvaluationScore,
  type EvaluatorBase,
  type EvaluatorConfig,
  type EvaluatorResult,
  type EvaluatorType,
  type ExpectedFileChange,
  type ExpectedTool,
  type FieldAccuracyConfig,
  type FieldSpec,
  type FileChangeKind,
  type FileChangesConfig,
  type IsJsonConfig,
  type JsonSchemaConfig,
  type Label,
  type LatencyConfig,
  type LlmJudgeConfig,
  type MergedShardRecord,
  type Message,
  type NetworkMode,
  type OtherSegment,
  type OutputMessage,
  type RegexConfig,
  type ResolvedFileSegment,
  RESULT_OPTIONS,
  type ResultRow,
  type ResumedSession,
  type Rubric,
  type RubricConfig,
  RUN_RECORD_VERSION,
  type RunConfigSettings,
  type RunOptionsRecord,
  type RunRecord,
  runRecordJsonSchema,
  type RunStatus,
  type RunTargetRecord,
  type SandboxMode,
  type SandboxSettings,
  type Segment,
  sidecarJsonSchema,
  type SummaryFailure,
  type TargetDefinition,
  type TargetsFile,
  type TextSegment,
  type TokenUsage,
  type TokenUsageConfig,
  type ToolCall,
  type ToolTrajectoryConfig,
  type TraceSummary,
  type Verdict,
  type WorkspaceChanges,
} from "./lib/schema/mod.ts";
export {
  type CaseSite,
  type CaseTargetUse,
  type CommandFile,
  type DatasetCommand,
  type DatasetCommandKind,
  type DiscoveredFiles,
  discoverEvalFiles,
  type EvalFileReport,
  EvalLoadError,
  type LoadedEvalFile,
  type LoadedTargetsFile,
  loadEvalCases,
  type LoadEvalCasesOptions,
  loadEvalFile,
  type LoadOptions,
  loadTargetsFile,
  type NeedIdentity,
  type SourceHash,
  type SourcePosition,
  streamEvalCases,
  type TargetsDefinitionsFacts,
  type TargetsFileReadOptions,
  type TargetsValidation,
  validateEvalFile,
  validateTargetsFile,
} from "./lib/dataset/mod.ts";
export {
  type AgentStreamParser,
  type AgentToolStep,
  type AgentTrace,
  buildChatMessages,
  type CallIdentity,
  type ChatMessage,
  type CodexStreamParserOptions,
  CommandPermit,
  ConsentGrant,
  ConsentNotGivenError,
  createClaudeStreamParser,
  createCodexStreamParser,
  createTarget,
  type CreateTargetOptions,
  type GrantedNeed,
  renderGuidelines,
  renderPrompt,
  type RetryPolicy,
  type Target,
  TargetError,
  type TargetNeed,
  type TargetRequest,
  type TargetResponse,
} from "./lib/targets/mod.ts";
export {
  aggregateCaseScore,
  type CaseScore,
  type CodeJudgeFunction,
  type CodeJudgePayload,
  type CodeJudgeResult,
  type EvaluationContext,
  type EvaluatorFn,
  type EvaluatorOutcome,
  type JudgeClient,
  type JudgeHosts,
  type JudgeReply,
  type JudgeRequest,
  runEvaluator,
  scoreToVerdict,
} from "./lib/scoring/mod.ts";
export {
  appendLabel,
  type CacheRejectedEvent,
  type CaseFinishedEvent,
  caseRunKey,
  type CaseStartedEvent,
  createRunRecorder,
  DEFAULT_TRIALS_GATE,
  type DuplicatePair,
  type EvaluatorMean,
  gateVerdict,
  type HistogramBin,
  type InterruptedEvent,
  LABELS_FILE,
  latestLabels,
  type MergedRun,
  mergeShards,
  type MergeShardsOptions,
  parseResults,
  type ParseResultsOptions,
  parseTrialsGate,
  passAtK,
  passHatK,
  readLabels,
  type ReadLabelsOutput,
  readResults,
  type ReadResultsOptions,
  type ReadResultsOutput,
  readRunRecord,
  RESULTS_LINE_MAX_BYTES,
  RESULTS_MAX_BYTES,
  ResultsFileError,
  type ResultsFileLimits,
  type ResultsFileRefusal,
  ResultsWriteError,
  type ResumeFileContent,
  type RetryEvent,
  type RowRedactor,
  type RunEvent,
  type RunFinishedEvent,
  type RunRecorder,
  type RunRecorderOptions,
  type RunRecorderParent,
  RunRecordError,
  runRecordPath,
  type RunStartedEvent,
  type RunSummary,
  type ScoreStats,
  shardDisagreements,
  type ShardResults,
  type SummarizeOptions,
  summarizeResults,
  type SummaryError,
  type TargetResolvedEvent,
  type TrialCaseStats,
  type TrialPair,
  trialPassed,
  type TrialsGate,
  type TrialsSummary,
} from "./lib/results/mod.ts";
export {
  cacheKey,
  type CacheKeyMaterial,
  canonicalJson,
  type EvalFileLoader,
  type JsonValue,
  type LoadedEvalSet,
  type PriorRun,
  type PriorRunMode,
  readPriorRun,
  RunConfigError,
  runEval,
  type RunEvalOptions,
  type RunEvalResult,
  type RunPermission,
  type RunPermissionRequest,
  type Shard,
  shardOf,
  UntrustedDatasetError,
} from "./lib/run/mod.ts";
export {
  bootstrapMeanInterval,
  type BootstrapOptions,
  type CasePair,
  type CompareEvaluatorSummary,
  type CompareJson,
  type CompareLabels,
  type CompareSummaryOptions,
  compareToJson,
  type CompareVerdict,
  type ComparisonSummary,
  type ConfidenceInterval,
  type EvaluatorDelta,
  type FlipEntry,
  type MatchedJson,
  type PairOutcome,
  pairRuns,
  type PairRunsOptions,
  type RunPairing,
  signTest,
  type SignTestResult,
  summarizeComparison,
  type UnpairedCase,
  type UnpairedJson,
  type VerdictFlip,
  type WilcoxonResult,
  wilcoxonSignedRank,
} from "./lib/compare/mod.ts";
export {
  type AnnotationOptions,
  type CaseSourceLocation,
  type CompareHtmlOptions,
  type CompareStyle,
  type HtmlCaseDetails,
  type HtmlReportOptions,
  type JunitReportOptions,
  type MarkdownReportOptions,
  renderAnnotations,
  renderCompareHtml,
  renderCompareMarkdown,
  renderCompareText,
  renderHtmlReport,
  renderJunitReport,
  renderMarkdownReport,
  type RenderTextOptions,
} from "./lib/render/mod.ts";
