/** The summary counts the targets' cost and the judges' tokens and cost, nested results included. */
import assert from "node:assert/strict";
import { summarizeResults } from "../../lib/results/summary.ts";
import type { EvaluatorResult, TraceSummary } from "../../lib/schema/result.ts";
import { row } from "./_rows.ts";

function judged(name: string, extra: Partial<EvaluatorResult> = {}): EvaluatorResult {
  return {
    name,
    type: "llm_judge",
    status: "ok",
    score: 1,
    weight: 1,
    verdict: "pass",
    hits: [],
    misses: [],
    ...extra,
  };
}

function trace(cost?: number): TraceSummary {
  return {
    event_count: 0,
    tool_names: [],
    tool_calls_by_name: {},
    error_count: 0,
    ...(cost !== undefined ? { cost_usd: cost } : {}),
  };
}

Deno.test("summary: judge tokens and cost are summed over every evaluator result, members too", () => {
  const rows = [
    row("a", 1, {
      trace_summary: trace(0.25),
      token_usage: { input: 100, output: 10 },
      evaluator_results: [
        judged("j", { token_usage: { input: 3, output: 1 }, cost_usd: 0.5 }),
        judged("gate", {
          type: "composite",
          token_usage: { input: 2, output: 2 },
          evaluator_results: [
            judged("m1", { token_usage: { input: 4, output: 0 }, cost_usd: 0.125 }),
            judged("m2", { type: "contains" }),
          ],
        }),
      ],
    }),
    row("b", 0.5, { trace_summary: trace(), evaluator_results: [judged("j")] }),
    row("c", 0, { status: "error", error: "down", trace_summary: trace(0.5) }),
  ];
  const summary = summarizeResults(rows);
  // By hand: judge tokens 3+2+4 in, 1+2+0 out; judge cost 0.5 + 0.125; target cost 0.25 + 0.5.
  assert.deepEqual(summary.judge_token_usage, { input: 9, output: 3 });
  assert.equal(summary.judge_cost_usd, 0.625);
  assert.equal(summary.cost_usd, 0.75);
  assert.deepEqual(summary.token_usage, { input: 100, output: 10 });
});

Deno.test("summary: no usage reported means no usage keys, not zeros", () => {
  const summary = summarizeResults([row("a", 1), row("b", 0.2)]);
  assert.equal("judge_token_usage" in summary, false);
  assert.equal("judge_cost_usd" in summary, false);
  assert.equal("cost_usd" in summary, false);
  assert.equal("token_usage" in summary, false);
});
