/**
 * Runs one configured evaluator and always returns a complete result: a thrown exception or an
 * unknown type becomes an explicit `status: "error"` result, never a silent 0.
 *
 * @module
 */
import type { EvaluatorConfig } from "../schema/evaluator.ts";
import type { EvaluatorResult } from "../schema/result.ts";
import { getEvaluator } from "./registry.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";
import { DRY_RUN_SKIP, errorOutcome, skippedOutcome } from "./outcome.ts";
import { clampScore } from "./verdict.ts";
import { boundResultFields } from "./result_bounds.ts";

/**
 * Builds an error result for an evaluator that could not score.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluatorError } from "./run_evaluator.ts";
 * const r = evaluatorError({ name: "x", type: "regex", weight: 1 }, "boom");
 * assert.equal(r.status, "error");
 * ```
 */
export function evaluatorError(
  config: Pick<EvaluatorConfig, "name" | "type" | "weight">,
  message: string,
): EvaluatorResult {
  return boundResultFields({
    ...errorOutcome(config.name, message),
    name: config.name,
    type: config.type,
    weight: config.weight,
  });
}

/**
 * Runs an evaluator from the static registry and fills in `name`, `type` and `weight`.
 * Exceptions become `status: "error"` results (score 0, verdict `fail`, a miss naming the
 * evaluator); an unknown or not-yet-available type is an error result too. Every result is
 * bounded in size (`result_bounds.ts`: reasoning, error, hits, misses, details cut with a visible
 * `…[truncated N bytes]`), and every evaluator in time: one still running a second after its budget ({@link evaluatorBudgetMs}) has its
 * signal aborted, and one still running a second after that (or after `context.signal` was
 * aborted) is abandoned as an error result.
 *
 * @example
 * ```ts ignore
 * import { runEvaluator } from "./run_evaluator.ts";
 * const result = await runEvaluator(
 *   { type: "contains", name: "mentions-paris", weight: 1, value: "Paris", mode: "all", case_sensitive: true },
 *   context,
 * );
 * ```
 */
export async function runEvaluator(
  config: EvaluatorConfig,
  context: EvaluationContext,
): Promise<EvaluatorResult> {
  const fn = getEvaluator(config.type);
  if (fn === undefined) {
    return evaluatorError(config, `evaluator type '${config.type}' is not available yet`);
  }
  if (context.dryRun === true && config.type === "code_judge") {
    return {
      ...skippedOutcome(DRY_RUN_SKIP),
      name: config.name,
      type: config.type,
      weight: config.weight,
    };
  }
  let outcome: EvaluatorOutcome;
  const budgetMs = evaluatorBudgetMs(config, context.timeoutMs);
  const bounded = bound(context.signal, budgetMs);
  try {
    outcome = await Promise.race([
      fn(config, { ...context, signal: bounded.signal }),
      bounded.ended,
    ]);
  } catch (e) {
    // A timeout (this evaluator's, or an enclosing composite's) is named as such.
    const reason: unknown = bounded.signal.aborted ? bounded.signal.reason : undefined;
    const timedOut = reason instanceof DOMException && reason.name === "TimeoutError";
    const message = timedOut
      ? `${reason.message} and was stopped`
      : context.signal.aborted
      ? "interrupted"
      : e instanceof Error
      ? e.message
      : String(e);
    return evaluatorError(config, message);
  } finally {
    bounded.dispose();
  }
  // An evaluator may report a more specific type (e.g. `llm_judge` in rubric mode → `rubric`).
  const { type: reported, status, score, verdict, hits, misses, ...rest } = outcome as
    & EvaluatorOutcome
    & { type?: unknown };
  const result: EvaluatorResult = {
    name: config.name,
    type: typeof reported === "string" && reported !== "" ? reported : config.type,
    status,
    score: clampScore(score),
    weight: config.weight,
    verdict,
    hits,
    misses,
    ...rest,
  };
  if (result.status === "error") {
    result.score = 0;
    result.verdict = "fail";
    result.error ??= result.reasoning ?? "evaluator reported an error";
  }
  return boundResultFields(result);
}

/** Time an evaluator gets past its budget to finish its own cleanup (e.g. a killed script). */
const GRACE_MS = 1000;

/**
 * How long an evaluator may run: `timeoutMs` (`--timeout`); a `code_judge` with
 * `timeout_seconds` gets that instead; a `composite` gets its slowest member's budget (members
 * run concurrently) plus `timeoutMs` for its aggregator.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluatorBudgetMs } from "./run_evaluator.ts";
 * assert.equal(evaluatorBudgetMs({ type: "regex", name: "r", weight: 1, pattern: "x" }, 5000), 5000);
 * ```
 */
export function evaluatorBudgetMs(config: EvaluatorConfig, timeoutMs: number): number {
  if (config.type === "code_judge" && config.timeout_seconds !== undefined) {
    return Math.round(config.timeout_seconds * 1000);
  }
  if (config.type === "composite") {
    return Math.max(0, ...config.evaluators.map((m) => evaluatorBudgetMs(m, timeoutMs))) +
      timeoutMs;
  }
  return timeoutMs;
}

/**
 * A signal for the evaluator and a promise that rejects when the evaluator is abandoned. The
 * signal aborts when `parent` does, or a grace period after `budgetMs` (an evaluator's own
 * timeout, e.g. a code judge's, fires first and reports itself); the promise rejects one more
 * grace period later, so an evaluator that ignores its signal still ends.
 */
function bound(parent: AbortSignal, budgetMs: number) {
  const controller = new AbortController();
  let reject: (reason: unknown) => void = () => {};
  const ended = new Promise<never>((_, r) => reject = r);
  ended.catch(() => {});
  let abandon: ReturnType<typeof setTimeout> | undefined;
  const stop = (reason: unknown) => {
    if (controller.signal.aborted) return;
    controller.abort(reason);
    abandon = setTimeout(() => reject(reason), GRACE_MS);
  };
  const onAbort = () => stop(parent.reason);
  const timer = setTimeout(
    () => stop(new DOMException(`Evaluator timed out after ${budgetMs}ms`, "TimeoutError")),
    budgetMs + GRACE_MS,
  );
  if (parent.aborted) onAbort();
  else parent.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    ended,
    dispose: () => {
      clearTimeout(timer);
      clearTimeout(abandon);
      parent.removeEventListener("abort", onAbort);
    },
  };
}
