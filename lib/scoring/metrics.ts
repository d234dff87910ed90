/**
 * Pass/fail checks on the trace metrics: `latency` (duration in ms), `cost` (USD) and
 * `token_usage` (input/output/total tokens). Missing data is a miss that says which target
 * setting would provide it.
 *
 * @module
 */
import type { CostConfig, LatencyConfig, TokenUsageConfig } from "../schema/evaluator.ts";
import { zeroOutcome } from "./outcome.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";

function binary(pass: boolean, hitOrMiss: string[], reasoning: string): EvaluatorOutcome {
  return {
    status: "ok",
    score: pass ? 1 : 0,
    verdict: pass ? "pass" : "fail",
    hits: pass ? hitOrMiss : [],
    misses: pass ? [] : hitOrMiss,
    reasoning,
  };
}

/**
 * `latency`: passes when the trace's `duration_ms` is at most `threshold`.
 *
 * @example
 * ```ts ignore
 * import { evaluateLatency } from "./metrics.ts";
 * await evaluateLatency({ type: "latency", name: "latency", weight: 1, threshold: 2000 }, context);
 * // hits: ["Duration 1200ms <= 2000ms threshold"]
 * ```
 */
export function evaluateLatency(
  config: LatencyConfig,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const d = context.trace?.duration_ms;
  if (d === undefined) {
    return Promise.resolve(zeroOutcome(
      `No duration data available in trace: target '${context.targetName}' reported no duration`,
    ));
  }
  const ms = Math.round(d);
  const pass = d <= config.threshold;
  return Promise.resolve(binary(
    pass,
    [`Duration ${ms}ms ${pass ? "<=" : ">"} ${config.threshold}ms threshold`],
    `Execution took ${ms}ms (threshold: ${config.threshold}ms)`,
  ));
}

/**
 * `cost`: passes when the trace's `cost_usd` is at most `budget`. Cost comes from the provider
 * when it reports it, else from the target's `pricing` setting.
 *
 * @example
 * ```ts ignore
 * import { evaluateCost } from "./metrics.ts";
 * await evaluateCost({ type: "cost", name: "cost", weight: 1, budget: 0.01 }, context);
 * // hits: ["Cost $0.0042 <= $0.0100 budget"]
 * ```
 */
export function evaluateCost(
  config: CostConfig,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const cost = context.trace?.cost_usd;
  if (cost === undefined) {
    const t = context.targetName;
    return Promise.resolve(zeroOutcome(
      `No cost data available in trace: target '${t}' reported no cost; set ` +
        `pricing: {input_per_mtok, output_per_mtok} on target '${t}' in the targets file`,
    ));
  }
  const pass = cost <= config.budget;
  const usd = (n: number) => `$${n.toFixed(4)}`;
  return Promise.resolve(binary(
    pass,
    [`Cost ${usd(cost)} ${pass ? "<=" : ">"} ${usd(config.budget)} budget`],
    `Cost ${usd(cost)} (budget: ${usd(config.budget)})`,
  ));
}

/**
 * `token_usage`: passes when every configured limit holds; total = input + output + cached.
 * Each limit is one hit or miss, in the order input, output, total.
 *
 * @example
 * ```ts ignore
 * import { evaluateTokenUsage } from "./metrics.ts";
 * await evaluateTokenUsage({ type: "token_usage", name: "tokens", weight: 1, max_total: 1000 }, context);
 * // hits: ["Total tokens 640 <= 1000"]
 * ```
 */
export function evaluateTokenUsage(
  config: TokenUsageConfig,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const usage = context.trace?.token_usage;
  if (usage === undefined) {
    const t = context.targetName;
    return Promise.resolve(zeroOutcome(
      `No token usage data available in trace: target '${t}' reported none; HTTP providers ` +
        `(openai, azure, anthropic, gemini) report it, a cli target must write token_usage in its output`,
    ));
  }
  const total = usage.input + usage.output + (usage.cached ?? 0);
  const checks: [string, number, number | undefined][] = [
    ["Input", usage.input, config.max_input],
    ["Output", usage.output, config.max_output],
    ["Total", total, config.max_total],
  ];
  const hits: string[] = [];
  const misses: string[] = [];
  for (const [kind, n, max] of checks) {
    if (max === undefined) continue;
    if (n <= max) hits.push(`${kind} tokens ${n} <= ${max}`);
    else misses.push(`${kind} tokens ${n} > ${max}`);
  }
  const pass = misses.length === 0;
  return Promise.resolve({
    status: "ok",
    score: pass ? 1 : 0,
    verdict: pass ? "pass" : "fail",
    hits,
    misses,
    reasoning: `Tokens: input ${usage.input}, output ${usage.output}, total ${total}`,
  });
}
