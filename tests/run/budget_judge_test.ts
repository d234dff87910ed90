/**
 * Judge calls under the spend cap: they are priced and counted like target calls, and a judge
 * call the budget refuses makes its case an error row naming the budget (the answer is kept).
 * Prices are $1 per token, so amounts are whole dollars computed by hand.
 */
import assert from "node:assert/strict";
import { runEval } from "../../lib/run/run_eval.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { project } from "../_helpers/run_project.ts";
import { pricedTarget } from "./_priced_target.ts";

const GRADE = JSON.stringify({ score: 1, hits: ["says ok"], misses: [], reasoning: "fine" });

/** A priced target and a priced judge, each on its own server. */
function targets(targetUrl: string, judgeUrl: string, judgeMaxTokens: number): string {
  return "targets:\n" +
    pricedTarget("default", targetUrl, { extra: "    judge_target: judge\n" }) +
    pricedTarget("judge", judgeUrl, { apiKey: "sk-judge", model: "j", maxTokens: judgeMaxTokens });
}

const CASES = `evalcases:
  - id: c1
    expected_outcome: Says ok
    input: q1
    evaluators: [{name: grade, type: llm_judge}]
  - id: c2
    expected_outcome: Says ok
    input: q2
    evaluators: [{name: grade, type: llm_judge}]
`;

Deno.test("judge calls are counted in what the budget spent", async () => {
  await using target = startProviderServer("openai", {
    fallback: { type: "reply", text: "ok", usage: { input: 5, output: 2 } },
  });
  await using judge = startProviderServer("openai", {
    fallback: { type: "reply", text: GRADE, usage: { input: 20, output: 4 } },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(target.url, judge.url, 50),
    "evals/ds.yaml": CASES,
  });
  const { rows, summary } = await runEval({
    files: ["evals/ds.yaml"],
    env: {},
    cwd: p.dir,
    budgetUsd: 1_000_000,
    timeoutMs: 10_000,
  });
  assert.ok(rows.every((r) => r.status === "ok"), rows.map((r) => r.error).join("; "));
  assert.equal(target.requests.length, 2);
  assert.equal(judge.requests.length, 2);
  // Two target calls at 5 + 2 tokens and two judge calls at 20 + 4 tokens, $1 a token.
  assert.equal(summary.budget?.spent_usd, 2 * (5 + 2) + 2 * (20 + 4));
  assert.equal(summary.judge_cost_usd, 2 * (20 + 4));
  assert.equal(summary.budget?.exhausted, false);
});

Deno.test("a judge call the budget refuses is an error row naming the budget; the rest is skipped", async () => {
  await using target = startProviderServer("openai", {
    fallback: { type: "reply", text: "ok", usage: { input: 5, output: 2 } },
  });
  await using judge = startProviderServer("openai", {
    fallback: { type: "reply", text: GRADE, usage: { input: 20, output: 4 } },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(target.url, judge.url, 1000),
    "evals/ds.yaml": CASES,
  });
  // The target's worst case (< $100) fits in $500; a judge call's (> $1000 output alone) never.
  const { rows, summary } = await runEval({
    files: ["evals/ds.yaml"],
    env: {},
    cwd: p.dir,
    workers: 1,
    budgetUsd: 500,
    timeoutMs: 10_000,
  });
  assert.equal(target.requests.length, 1);
  assert.equal(judge.requests.length, 0, "the refused judge call never reached the server");
  const [first, second] = rows;
  assert.equal(first.eval_id, "c1");
  assert.equal(first.status, "error");
  assert.equal(first.candidate_answer, "ok", "the answer that was paid for is kept");
  const reason = "budget of $500.00 reached: $7.00 spent";
  assert.ok(first.error?.includes(`${reason}; the next call to 'judge' could cost up to $`));
  assert.equal(second.eval_id, "c2");
  assert.equal(second.status, "skipped");
  assert.equal(second.error, reason);
  assert.equal(summary.budget?.spent_usd, 7);
  assert.equal(summary.budget?.refused_calls, 1);
  assert.equal(summary.budget?.skipped, 1);
  assert.equal(summary.budget?.exhausted, true);
});
