/**
 * The contract between the runner and an evaluator.
 *
 * @module
 */
import type { EvalCase } from "../schema/eval_case.ts";
import type { EvaluatorConfig } from "../schema/evaluator.ts";
import type { EvaluatorResult, OutputMessage, TokenUsage, TraceSummary } from "../schema/result.ts";
import type { WorkspaceChanges } from "../schema/workspace.ts";
import type { ConsentGrant } from "../targets/consent.ts";
import type { SandboxMode } from "../schema/sandbox.ts";

/** A request to a judge model. */
export interface JudgeRequest {
  /** System prompt. */
  system: string;
  /** User prompt. */
  user: string;
  /** Model override (an evaluator's `model`). */
  model?: string;
}

/** A judge model's reply. */
export interface JudgeReply {
  /** The text the judge returned. */
  text: string;
  /** The request as sent, redacted (recorded on the evaluator result). */
  request: unknown;
  /** Tokens the judge call used, when the provider reported them. */
  token_usage?: TokenUsage;
  /** Cost in USD of the call, when reported or priced (`pricing`). */
  cost_usd?: number;
}

/** What a judge call grades: the case and trial, and which re-ask it is (`agentv calibrate`). */
export interface JudgeCallOf {
  /** Dataset of the graded case. */
  dataset: string;
  /** Id of the graded case. */
  eval_id: string;
  /** Trial of the graded case. */
  trial: number;
  /** The re-ask (`repeat 2`, `order 3`) of `agentv calibrate`; absent in a run. */
  variant?: string;
}

/** Calls the judge target (through the runner's retry, timeout and redaction machinery). */
export interface JudgeClient {
  /** Name of the judge target. */
  readonly target: string;
  /** Sends one judge request. Throws when the judge cannot be reached. */
  complete(request: JudgeRequest, signal: AbortSignal): Promise<JudgeReply>;
  /**
   * The same judge, its calls labelled with the case and trial they grade (the response cache
   * names them); present only when something uses the label.
   */
  forCase?(of: JudgeCallOf): JudgeClient;
}

/**
 * The run's judge hosts (module code judges run there; `judge_host_pool.ts` is the one kind
 * agentv makes): opaque to evaluators, closed by the runner when the run ends.
 */
export interface JudgeHosts {
  /** Stops every host and waits for them. */
  close(): Promise<void>;
}

/** Everything an evaluator may look at for one case. */
export interface EvaluationContext {
  /** The case. */
  evalCase: EvalCase;
  /** The candidate answer: last assistant content (objects JSON-stringified). */
  candidate: string;
  /** The target's output messages (the trace). */
  outputMessages: OutputMessage[];
  /** Summary of the trace (tool counts, tokens, cost, duration). */
  trace: TraceSummary;
  /** The rendered prompt the target received. */
  prompt: string;
  /** Folder of the eval file (default cwd of code judges; base for prompt files). */
  evalDir: string;
  /** Dataset root: prompt files and scripts are resolved inside it. */
  root: string;
  /** Per-evaluator timeout in ms (code judges are killed after it). */
  timeoutMs: number;
  /** Aborted when the run is interrupted. */
  signal: AbortSignal;
  /** The judge, when one is configured. */
  judge?: JudgeClient;
  /** Why there is no judge, naming the fix (judged evaluators report it when `judge` is absent). */
  noJudgeReason?: string;
  /** Name of the target that produced the answer. */
  targetName: string;
  /**
   * Environment that subprocess code judges take PATH, HOME, LANG, TMPDIR and their listed
   * `env` names from (default: those four read from the process environment).
   */
  env?: Readonly<Record<string, string>>;
  /**
   * The case's workspace (absolute path) after the target finished, when the case ran in one: a
   * code judge may run the project's tests in it (it is deleted after the evaluators, unless
   * kept).
   */
  workspacePath?: string;
  /** What the target changed in its workspace (`file_changes` scores it). */
  workspaceChanges?: WorkspaceChanges;
  /**
   * The run's judge hosts: module code judges run there, a host reused across cases (default: a
   * host per call).
   */
  judgeHosts?: JudgeHosts;
  /** A dry run: code judges are reported as skipped instead of running (default false). */
  dryRun?: boolean;
  /**
   * What the run's trust gate allowed to start (see `targets/consent.ts`): a script code judge
   * or code aggregator starts only the argv of a need it holds. `runEval` always passes it;
   * absent (an evaluator a library caller runs itself), everything is allowed.
   */
  consent?: ConsentGrant;
  /** The run's `--sandbox`: replaces the `sandbox` setting of script code judges and aggregators. */
  sandbox?: SandboxMode;
  /** Folder for a sandbox's private folder (default the OS temp folder). */
  tempDir?: string;
  /** Runs another evaluator (composite members); provided by the evaluator registry. */
  runEvaluator: (config: EvaluatorConfig, context: EvaluationContext) => Promise<EvaluatorResult>;
}

/** What an evaluator function returns (name, type and weight are filled in by the caller). */
export type EvaluatorOutcome = Omit<EvaluatorResult, "name" | "type" | "weight">;

/** An evaluator: a small async function from its config and the case context to a result. */
export type EvaluatorFn<C extends EvaluatorConfig = EvaluatorConfig> = (
  config: C,
  context: EvaluationContext,
) => Promise<EvaluatorOutcome>;
