/**
 * The spend cap of a run (`--budget-usd X`, `budget_usd` in `.agentv/config.yaml`): a hard cap
 * on what target and judge calls may cost.
 *
 * Every call (every attempt: retries are calls too) goes through {@link budgetedTarget}, which
 * asks the {@link Budget} first. The budget adds the call's worst-case cost to what has been
 * spent and what is in flight; when that would cross the cap the call does not start (it throws
 * a {@link TargetError} that is never retried), the budget is exhausted and no later call starts
 * either. When the call ends, its reservation is replaced by its actual cost (the response's
 * `cost_usd`, else its token usage times `pricing`); a call that reports no usage keeps its
 * worst case as spent, a failed call releases its reservation (keeping the cost of the usage it
 * reported, e.g. an agent's partial trace). Concurrent workers reserve before they start, so
 * together they never cross the cap.
 *
 * The worst case of a call to a target with `pricing`:
 * - input: an upper bound on the prompt's tokens (`inputTokenBound` in `budget_cost.ts`): the
 *   UTF-8 bytes of every message (a token of a byte-level tokenizer covers at least one byte) plus
 *   a margin for the chat format's tokens around each message and the reply;
 * - output: the request's `max_tokens` override (judges), else the target's `max_tokens`
 *   (`max_output_tokens`; anthropic always sends one, 4096 by default).
 * A call with no output limit (an HTTP model target without `max_tokens`), or to an agent or
 * `cli` target (which makes model calls of its own), cannot be bounded: only its input bound is
 * reserved, the call is counted as unbounded, and the summary warns that the cap may be exceeded
 * by such calls (set `max_tokens` to make it hold). Calls to targets without `pricing` have an
 * unknown cost: they run while the budget is not exhausted, whatever they report as `cost_usd`
 * is counted as spent afterwards, and the summary warns how many there were.
 *
 * Cases are stopped as follows: once the budget is exhausted the runner starts no new case; each
 * case not started is a row with `status: "skipped"` and the reason (`budget of $0.50 reached:
 * $0.48 spent`). A case whose target call is refused is skipped the same way (its answer was
 * never produced); a refused judge call is an evaluator error, so that case's row is an `error`
 * naming the budget (its answer and cost are kept). A run stopped by its budget fails the gate.
 *
 * @module
 */
import type { BudgetSummary } from "../schema/run_record.ts";
import type { ResultRow } from "../schema/result.ts";
import { formatUsd } from "../text/format_usd.ts";
import { actualCost, worstCaseCost } from "./budget_cost.ts";
import {
  type Target,
  TargetError,
  type TargetRequest,
  type TargetResponse,
} from "../targets/types.ts";

export type { BudgetSummary } from "../schema/run_record.ts";

/** Amounts below a billionth of a dollar are float noise. */
const EPSILON_USD = 1e-9;

/** Options of {@link createBudget}. */
export interface BudgetOptions {
  /** The cap in USD (>= 0). */
  capUsd: number;
}

/** A call the budget let start: settle it exactly once. */
export interface BudgetTicket {
  /** The call succeeded: its reservation becomes its actual cost. */
  succeeded(response: TargetResponse): void;
  /** The call failed: its reservation is released (the cost of reported usage is kept). */
  failed(error: unknown): void;
}

/** How a call uses the budget (the decorator tells it which role the target plays). */
export interface BudgetCall {
  /** The target called. */
  target: Pick<Target, "name" | "provider" | "pricing" | "maxOutputTokens">;
  /** The request (its messages bound the input, its `overrides.max_tokens` the output). */
  request: Pick<TargetRequest, "messages" | "prompt" | "overrides">;
  /** `target` for an evaluated target's call, `judge` for a judge's. */
  role: "target" | "judge";
}

/** The spend cap of one run; see the module doc. */
export interface Budget {
  /** The cap in USD. */
  readonly capUsd: number;
  /** Whether no call may start any more. */
  readonly exhausted: boolean;
  /** Why the budget is exhausted (`budget of $0.50 reached: $0.48 spent`), else undefined. */
  readonly reason: string | undefined;
  /** Asks to start one call: a ticket, or throws {@link BudgetExceededError}. */
  admit(call: BudgetCall): BudgetTicket;
  /** Counts a case the runner did not start because the budget is exhausted. */
  skipCase(): void;
  /** The summary section of the run. */
  summary(): BudgetSummary;
}

/**
 * A call the budget refused. It is a {@link TargetError} that is never retried; `invokeWithRetry`
 * re-wraps errors, so test for a refusal with {@link isBudgetRefusal}.
 */
export class BudgetExceededError extends TargetError {
  /** Creates the refusal with its reason. */
  constructor(message: string) {
    super(message, { retryable: false, cause: new BudgetRefusal(message) });
    this.name = "BudgetExceededError";
  }
}

/** The cause of every {@link BudgetExceededError} (kept when the error is re-wrapped). */
export class BudgetRefusal {
  /** Why the call was refused. */
  readonly reason: string;
  /** Creates the marker. */
  constructor(reason: string) {
    this.reason = reason;
  }
}

/**
 * Whether `error` (or one of its causes) is a call the budget refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BudgetExceededError, isBudgetRefusal } from "./budget.ts";
 * const refused = new BudgetExceededError("budget of $1 reached: $1 spent");
 * assert.equal(isBudgetRefusal(new Error("wrapped", { cause: refused })), true);
 * assert.equal(isBudgetRefusal(new Error("other")), false);
 * ```
 */
export function isBudgetRefusal(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (current instanceof BudgetExceededError || current instanceof BudgetRefusal) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Creates the budget of a run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createBudget } from "./budget.ts";
 * const budget = createBudget({ capUsd: 0.001 });
 * const target = {
 *   name: "t",
 *   provider: "openai",
 *   pricing: { input_per_mtok: 1, output_per_mtok: 4 },
 *   maxOutputTokens: 100,
 * };
 * const request = { prompt: "", messages: [{ role: "user" as const, content: "hi" }] };
 * // Worst case $0.000446 each: two fit in flight together, the third would cross $0.001.
 * const first = budget.admit({ target, request, role: "target" });
 * budget.admit({ target, request, role: "target" });
 * assert.throws(() => budget.admit({ target, request, role: "target" }), /budget of \$0.001 reached/);
 * assert.equal(budget.exhausted, true);
 * first.succeeded({ output_messages: [], cost_usd: 0.0001 });
 * assert.equal(budget.summary().refused_calls, 1);
 * ```
 */
export function createBudget(options: BudgetOptions): Budget {
  const cap = options.capUsd;
  let spent = 0;
  let inFlight = 0;
  let reason: string | undefined;
  let skipped = 0;
  let refused = 0;
  let unpricedCalls = 0;
  let unboundedCalls = 0;
  const unpricedTargets = new Set<string>();
  const unboundedTargets = new Set<string>();

  /** Marks the budget exhausted (once) and returns why. */
  const stop = (): string => {
    reason ??= `budget of ${formatUsd(cap)} reached: ${formatUsd(spent)} spent`;
    return reason;
  };
  const isExhausted = () => {
    if (reason !== undefined) return true;
    // Nothing is left (an unbounded or unpriced call may even have spent past the cap).
    if (spent >= cap - EPSILON_USD) {
      stop();
      return true;
    }
    return false;
  };
  const refuse = (role: BudgetCall["role"], message: string): never => {
    refused++;
    if (role === "target") skipped++;
    throw new BudgetExceededError(message);
  };

  return {
    capUsd: cap,
    get exhausted() {
      return isExhausted();
    },
    get reason() {
      return isExhausted() ? reason : undefined;
    },
    admit({ target, request, role }) {
      if (isExhausted()) refuse(role, reason!);
      const worst = worstCaseCost(target, request);
      const reserve = worst?.usd ?? 0;
      if (spent + inFlight + reserve > cap + EPSILON_USD) {
        const flying = inFlight > EPSILON_USD ? `, ${formatUsd(inFlight)} in flight` : "";
        const message = stop();
        refuse(
          role,
          `${message}${flying}; the next call to '${target.name}' could cost up to ${
            formatUsd(reserve)
          }`,
        );
      }
      if (worst === undefined) {
        unpricedCalls++;
        unpricedTargets.add(target.name);
      } else if (!worst.bounded) {
        unboundedCalls++;
        unboundedTargets.add(target.name);
      }
      inFlight += reserve;
      let settled = false;
      const settle = (cost: number) => {
        if (settled) return;
        settled = true;
        inFlight = Math.max(0, inFlight - reserve);
        spent += cost;
      };
      return {
        succeeded(response) {
          // No usage reported: a priced call counts as its worst case.
          settle(actualCost(response, target.pricing) ?? reserve);
        },
        failed(error) {
          const partial = error instanceof TargetError ? error.partial : undefined;
          settle(actualCost(partial, target.pricing) ?? 0);
        },
      };
    },
    skipCase() {
      skipped++;
    },
    summary() {
      // The cap stopped the run when it refused a call or skipped a case (reaching it exactly
      // with the last call stops nothing).
      const exhausted = refused > 0 || skipped > 0;
      return {
        cap_usd: cap,
        spent_usd: spent,
        exhausted,
        reason: exhausted ? reason ?? stop() : null,
        skipped,
        refused_calls: refused,
        unpriced_calls: unpricedCalls,
        unpriced_targets: [...unpricedTargets],
        unbounded_calls: unboundedCalls,
        unbounded_targets: [...unboundedTargets],
      };
    },
  };
}

/**
 * Wraps `target` so that every call asks `budget` first (see the module doc). Everything else
 * of the target is kept. Applied by the target resolver only when the run has a budget.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { budgetedTarget, createBudget } from "./budget.ts";
 * import type { Target, TargetRequest } from "../targets/types.ts";
 * const target: Target = {
 *   name: "m",
 *   provider: "mock",
 *   secrets: [],
 *   retry: { maxRetries: 0, initialDelayMs: 1, maxDelayMs: 1, backoffFactor: 2, retryStatusCodes: [] },
 *   invoke: () => Promise.resolve({ output_messages: [], cost_usd: 0.75 }),
 * };
 * const budget = createBudget({ capUsd: 0.5 });
 * const capped = budgetedTarget(target, budget);
 * const request = { prompt: "hi", messages: [] } as unknown as TargetRequest;
 * await capped.invoke(request); // unpriced: runs, and its reported cost counts
 * await assert.rejects(capped.invoke(request), /budget of \$0.50 reached: \$0.75 spent/);
 * ```
 */
export function budgetedTarget(
  target: Target,
  budget: Budget,
  options: { role?: BudgetCall["role"] } = {},
): Target {
  const role = options.role ?? "target";
  return {
    ...target,
    invoke: async (request) => {
      const ticket = budget.admit({ target, request, role });
      try {
        const response = await target.invoke(request);
        ticket.succeeded(response);
        return response;
      } catch (error) {
        ticket.failed(error);
        throw error;
      }
    },
  };
}

/**
 * A row turned into the row of a case the budget skipped: `status: "skipped"`, the reason in
 * `error`, no misses.
 *
 * @example
 * ```ts ignore
 * finish(skippedRow(blockedCaseRow(evalCase, { ...runtime, reason: budget.reason! })));
 * ```
 */
export function skippedRow(row: ResultRow): ResultRow {
  return { ...row, status: "skipped", misses: [] };
}

/**
 * The budget of a run with the settled cap (`--budget-usd`, else the smallest `budget_usd` of
 * the datasets' configs: see `settle_spec.ts`); `undefined` (no budget, nothing wrapped) when
 * there is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runBudget } from "./budget.ts";
 * assert.equal(runBudget(undefined), undefined);
 * assert.equal(runBudget(0.5)?.capUsd, 0.5);
 * ```
 */
export function runBudget(capUsd: number | undefined): Budget | undefined {
  return capUsd === undefined ? undefined : createBudget({ capUsd });
}
