/**
 * One case through the pipeline: prompt → target call (retries, timeout) → trace and candidate
 * answer → evaluators → case score → result row. Never throws: every failure becomes a row with
 * `status: "error"` and the reason.
 *
 * @module
 */
import { aggregateCaseScore } from "../scoring/case_score.ts";
import { candidateAnswer, summarizeTrace } from "../scoring/answer.ts";
import { runEvaluator } from "../scoring/run_evaluator.ts";
import type { EvaluationContext, JudgeClient } from "../scoring/types.ts";
import type { JudgeHostPool } from "../scoring/judge_host_pool.ts";
import type { ConsentGrant } from "../targets/consent.ts";
import { buildChatMessages, renderGuidelines, renderPrompt } from "../targets/render_prompt.ts";
import type { EvalCase } from "../schema/eval_case.ts";
import type { EvaluatorConfig } from "../schema/evaluator.ts";
import type { EvaluatorResult, OutputMessage, ResultRow } from "../schema/result.ts";
import { invokeWithRetry, type RetryInfo } from "../targets/retry.ts";
import { type Target, TargetError, type TargetResponse } from "../targets/types.ts";
import type { CaseWorkspace, WorkspaceManager } from "./workspace.ts";
import { isBudgetRefusal, skippedRow } from "./budget.ts";
import type { SandboxMode } from "../schema/sandbox.ts";
import { caseQuestion } from "../results/case_question.ts";
import { type CaseGuard, withIntegrity } from "./case_guard.ts";
import { agentLogPath, openCase, type OpenedCase, workspaceChanges } from "./case_workspace.ts";

export { agentLogPath } from "./case_workspace.ts";

/** The evaluators a case runs: its list, or its default kind when the list is empty. */
export function caseEvaluators(evalCase: EvalCase): EvaluatorConfig[] {
  if (evalCase.evaluators.length > 0) return evalCase.evaluators;
  return [{ type: evalCase.evaluator, name: evalCase.evaluator, weight: 1 } as EvaluatorConfig];
}

/** A retry of the target call, as reported to {@link CaseRuntime.onRetry}. */
export interface CaseRetry {
  /** The attempt that failed (1-based). */
  attempt: number;
  /** Delay before the next attempt, in ms. */
  delayMs: number;
  /** Why it failed. */
  reason: string;
}

/** Everything {@link runCase} needs besides the case. */
export interface CaseRuntime {
  /** The resolved target (a mock in a dry run). */
  target: Target;
  /** Name written to the row's `target`. */
  targetName: string;
  /** The judge, when one is configured. */
  judge?: JudgeClient;
  /** Why there is no judge (shown on judged evaluators when `judge` is absent). */
  noJudgeReason: string;
  /** Folder of the eval file. */
  evalDir: string;
  /** Dataset root. */
  root: string;
  /** Per-attempt timeout of target calls, and evaluator timeout, in ms. */
  timeoutMs: number;
  /** Aborted on interruption. */
  signal: AbortSignal;
  /** The runner's clock in ms. */
  now: () => number;
  /** Id of the run, written to every row (`run_id`). */
  runId: string;
  /** Trial index of this run of the case, from 0 (`trial` on the row and the target request). */
  trial: number;
  /** Whether other targets run this case too (an agent's log is then named after its target). */
  sharedCase?: boolean;
  /** Marks rows `dry_run: true`; code judges are skipped. */
  dryRun: boolean;
  /** Environment subprocess code judges take their variables from (see `child_env.ts`). */
  env?: Readonly<Record<string, string>>;
  /** Runs the target's healthcheck once (memoised by the caller); rejects when it failed. */
  healthcheck?: () => Promise<void>;
  /** Called before each retry of the target call. */
  onRetry?: (retry: CaseRetry) => void;
  /** Redacts secrets from error text. */
  redact: (text: string) => string;
  /**
   * Makes the case's workspace when it needs one (a `workspace_template`, or an agent target):
   * the target runs in it, the row records what changed (`workspace`), evaluators get its path.
   */
  workspaces?: WorkspaceManager;
  /** The run's judge hosts (module code judges run there; default a host per call). */
  judgeHosts?: JudgeHostPool;
  /** What the run's trust gate allowed to start: code judges start only what it holds. */
  consent: ConsentGrant;
  /** The run's `--sandbox`, for script code judges and aggregators (targets have it already). */
  sandbox?: SandboxMode;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

function attemptsOf(error: unknown, counted: number): number {
  const attempts = (error as { attempts?: unknown } | null)?.attempts;
  return typeof attempts === "number" && attempts > 0 ? attempts : counted;
}

/** What a row needs besides the case. */
type RowRuntime = Pick<CaseRuntime, "now" | "targetName" | "dryRun" | "runId" | "trial">;

function baseRow(evalCase: EvalCase, runtime: RowRuntime): Pick<
  ResultRow,
  | "timestamp"
  | "eval_id"
  | "dataset"
  | "run_id"
  | "trial"
  | "conversation_id"
  | "target"
  | "input"
  | "expected_outcome"
  | "expected_output"
> {
  return {
    timestamp: new Date(runtime.now()).toISOString(),
    eval_id: evalCase.id,
    dataset: evalCase.dataset,
    run_id: runtime.runId,
    trial: runtime.trial,
    conversation_id: evalCase.conversation_id ?? null,
    target: runtime.targetName,
    // The question, so a report shows it from the row alone.
    ...caseQuestion(evalCase),
  };
}

function errorRow(
  evalCase: EvalCase,
  runtime: RowRuntime,
  error: string,
  extra: { attempts: number; durationMs: number; outputMessages?: OutputMessage[] },
): ResultRow {
  const outputMessages = extra.outputMessages ?? [];
  return {
    ...baseRow(evalCase, runtime),
    status: "error",
    score: 0,
    verdict: "fail",
    hits: [],
    misses: [`Error: ${error}`],
    reasoning: null,
    candidate_answer: candidateAnswer(outputMessages),
    evaluator_results: [],
    trace_summary: null,
    output_messages: outputMessages,
    token_usage: null,
    duration_ms: extra.durationMs,
    attempts: extra.attempts,
    error,
    cached: false,
    ...(runtime.dryRun ? { dry_run: true } : {}),
  };
}

/**
 * The error row of a case that could not run because its target cannot be used; `reason` names
 * the target and says why. Nothing was sent (`attempts: 0`).
 *
 * @example
 * ```ts ignore
 * import { blockedCaseRow } from "./run_case.ts";
 * const row = blockedCaseRow(evalCase, {
 *   targetName: "nope",
 *   now: Date.now,
 *   runId: "2026-01-21T10-22-57-123Z-1a2b3c",
 *   dryRun: false,
 *   reason: "Unknown target 'nope'",
 * });
 * ```
 */
export function blockedCaseRow(
  evalCase: EvalCase,
  options: RowRuntime & { reason: string },
): ResultRow {
  return errorRow(evalCase, options, options.reason, { attempts: 0, durationMs: 0 });
}

/**
 * Runs one case and returns its result row (never throws).
 *
 * @example
 * ```ts ignore
 * import { runCase } from "./run_case.ts";
 * const row = await runCase(evalCase, runtime);
 * console.log(row.status, row.score, row.verdict);
 * ```
 */
export async function runCase(evalCase: EvalCase, runtime: CaseRuntime): Promise<ResultRow> {
  let opened: OpenedCase;
  try {
    opened = await openCase(evalCase, caseEvaluators(evalCase), runtime);
  } catch (e) {
    return errorRow(evalCase, runtime, runtime.redact(messageOf(e)), {
      attempts: 0,
      durationMs: 0,
    });
  }
  try {
    return await runCaseIn(evalCase, runtime, opened.workspace, opened.guard);
  } finally {
    await opened.workspace?.dispose();
  }
}

async function runCaseIn(
  evalCase: EvalCase,
  runtime: CaseRuntime,
  workspace: CaseWorkspace | undefined,
  guard: CaseGuard | undefined,
): Promise<ResultRow> {
  const interrupted = () => runtime.signal.aborted;
  let prompt: string;
  let guidelines: string;
  let messages: ReturnType<typeof buildChatMessages>;
  try {
    prompt = renderPrompt(evalCase);
    guidelines = renderGuidelines(evalCase);
    messages = buildChatMessages(evalCase);
  } catch (e) {
    return errorRow(evalCase, runtime, `Could not build the prompt: ${messageOf(e)}`, {
      attempts: 0,
      durationMs: 0,
    });
  }

  if (runtime.healthcheck) {
    try {
      await runtime.healthcheck();
    } catch (e) {
      const reason = interrupted() ? "interrupted" : runtime.redact(messageOf(e));
      return errorRow(evalCase, runtime, reason, { attempts: 0, durationMs: 0 });
    }
  }

  let retries = 0;
  const started = runtime.now();
  let response: TargetResponse;
  let attempts: number;
  try {
    const result = await invokeWithRetry(runtime.target, {
      evalCase,
      prompt,
      messages,
      guidelines,
      evalDir: runtime.evalDir,
      root: runtime.root,
      ...(workspace !== undefined ? { cwd: workspace.path } : {}),
      ...(workspace?.borrowed !== undefined ? { borrowed: workspace.borrowed } : {}),
      logPath: agentLogPath(runtime.root, runtime.runId, evalCase.id, runtime.trial, {
        ...(runtime.sharedCase ? { target: runtime.targetName } : {}),
      }),
      trial: runtime.trial,
    }, {
      timeoutMs: runtime.target.timeoutMs ?? runtime.timeoutMs,
      signal: runtime.signal,
      onRetry: (info: RetryInfo) => {
        retries++;
        runtime.onRetry?.({
          attempt: info.attempt + 1,
          delayMs: Math.round(info.delayMs),
          reason: runtime.redact(info.error.message),
        });
      },
    });
    response = result.response;
    attempts = result.attempts;
  } catch (e) {
    const durationMs = Math.round(runtime.now() - started);
    // The budget (`--budget-usd`) refused the call: the case is skipped, saying why.
    if (isBudgetRefusal(e)) {
      return skippedRow(
        errorRow(evalCase, runtime, messageOf(e), { attempts: attemptsOf(e, 1) - 1, durationMs }),
      );
    }
    const reason = interrupted() ? "interrupted" : runtime.redact(messageOf(e));
    // What a failed or timed-out agent changed before it stopped is worth keeping too.
    const changes = await workspaceChanges(workspace);
    // An agent's trace, usage and log up to its failure.
    const partial = e instanceof TargetError ? e.partial : undefined;
    await guard?.afterTarget();
    const integrity = guard?.verdict({ messages: partial?.output_messages ?? [], results: [] });
    return {
      ...errorRow(evalCase, runtime, reason, {
        attempts: attemptsOf(e, retries + 1),
        durationMs,
        ...(partial !== undefined ? { outputMessages: partial.output_messages } : {}),
      }),
      ...(partial?.token_usage !== undefined ? { token_usage: partial.token_usage } : {}),
      ...(partial?.log_path !== undefined ? { log_path: partial.log_path } : {}),
      ...(changes !== undefined ? { workspace: changes } : {}),
      ...(integrity !== undefined ? { integrity } : {}),
    };
  }
  const durationMs = Math.round(runtime.now() - started);
  const changes = await workspaceChanges(workspace);
  await guard?.afterTarget();
  try {
    // The hidden checks arrive only now: the agent never saw them, its diff does not hold them.
    await guard?.copyPostChecks();
  } catch (e) {
    const reason = `Could not copy post_checks into the workspace: ${messageOf(e)}`;
    return {
      ...errorRow(evalCase, runtime, reason, { attempts, durationMs }),
      ...(changes !== undefined ? { workspace: changes } : {}),
    };
  }

  const outputMessages = response.output_messages;
  const trace = summarizeTrace(outputMessages, {
    token_usage: response.token_usage,
    cost_usd: response.cost_usd,
    duration_ms: response.duration_ms ?? durationMs,
    turns: response.turns,
  });
  const candidate = candidateAnswer(outputMessages);
  const context: EvaluationContext = {
    evalCase,
    candidate,
    outputMessages,
    trace,
    prompt,
    evalDir: runtime.evalDir,
    root: runtime.root,
    timeoutMs: runtime.timeoutMs,
    signal: runtime.signal,
    ...(runtime.judge
      ? {
        // A judge that labels its calls (the response cache) gets the case and trial.
        judge: runtime.judge.forCase?.({
          dataset: evalCase.dataset,
          eval_id: evalCase.id,
          trial: runtime.trial,
        }) ?? runtime.judge,
      }
      : { noJudgeReason: runtime.noJudgeReason }),
    targetName: runtime.targetName,
    ...(runtime.env !== undefined ? { env: runtime.env } : {}),
    dryRun: runtime.dryRun,
    ...(runtime.judgeHosts !== undefined ? { judgeHosts: runtime.judgeHosts } : {}),
    consent: runtime.consent,
    ...(runtime.sandbox !== undefined ? { sandbox: runtime.sandbox } : {}),
    runEvaluator,
    ...(workspace !== undefined ? { workspacePath: workspace.path } : {}),
    ...(changes !== undefined ? { workspaceChanges: changes } : {}),
  };

  const results: EvaluatorResult[] = [];
  for (const config of caseEvaluators(evalCase)) {
    results.push(await runEvaluator(config, context));
  }
  const integrity = guard?.verdict({ answer: candidate, messages: outputMessages, results });
  const aggregate = withIntegrity(aggregateCaseScore(results), integrity, results);
  let error: string | undefined;
  if (aggregate.status === "error") {
    error = interrupted() ? "interrupted" : results
      .filter((r) => r.status === "error")
      .map((r) => `evaluator '${r.name}' (${r.type}): ${r.error ?? "failed"}`)
      .join("; ") || "no evaluator produced a result";
    error = runtime.redact(error);
  }
  return {
    ...baseRow(evalCase, runtime),
    status: aggregate.status,
    score: aggregate.score,
    verdict: aggregate.verdict,
    hits: aggregate.hits,
    misses: aggregate.misses,
    reasoning: aggregate.reasoning ?? null,
    candidate_answer: candidate,
    evaluator_results: results,
    trace_summary: trace,
    output_messages: outputMessages,
    token_usage: response.token_usage ?? null,
    duration_ms: durationMs,
    attempts,
    error: error ?? null,
    // The target's answer came from the response cache (`--cache`, `--replay`).
    cached: response.cached === true,
    ...(response.log_path !== undefined ? { log_path: response.log_path } : {}),
    ...(changes !== undefined ? { workspace: changes } : {}),
    ...(integrity !== undefined ? { integrity } : {}),
    ...(runtime.dryRun ? { dry_run: true } : {}),
  };
}
