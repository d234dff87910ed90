/** Judge token usage and cost: recorded on each evaluator result and counted in the summary. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readResults } from "../../lib/results/read_results.ts";
import { runEval } from "../../lib/run/run_eval.ts";
import type { EvaluatorResult } from "../../lib/schema/result.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { project } from "../_helpers/run_project.ts";

const GRADE = JSON.stringify({ score: 0.9, hits: ["names Paris"], misses: [], reasoning: "ok" });

/** A mock answering target judged by an openai `judge` at `url`, priced per million tokens. */
function targets(url: string): string {
  return `targets:
  - name: default
    provider: mock
    response: Paris
    judge_target: judge
  - name: judge
    provider: openai
    base_url: ${url}
    api_key: sk-judge
    model: judge-model
    max_retries: 0
    pricing: {input_per_mtok: 3, output_per_mtok: 5}
`;
}

const cost = (input: number, output: number) => (input * 3 + output * 5) / 1_000_000;

function byName(results: EvaluatorResult[], name: string): EvaluatorResult {
  const found = results.find((r) => r.name === name);
  assert.ok(found, name);
  return found;
}

Deno.test("each judged evaluator records its judge's tokens and cost, re-asks included; the summary sums them", async () => {
  await using judge = startProviderServer("openai", {
    // `first` is re-asked once (its first reply has no JSON): two calls; `second` one call.
    steps: [
      { type: "reply", text: "I think it is fine", usage: { input: 10, output: 3 } },
      { type: "reply", text: GRADE, usage: { input: 20, output: 4 } },
      { type: "reply", text: GRADE, usage: { input: 5, output: 1 } },
    ],
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": `evalcases:
  - id: c1
    expected_outcome: Names Paris
    input: What is the capital of France?
    evaluators:
      - {name: first, type: llm_judge}
      - {name: second, type: llm_judge}
      - {name: plain, type: contains, value: Paris}
`,
  });
  const out = join(p.dir, "r.jsonl");
  const { rows, summary } = await runEval({
    files: ["evals/ds.yaml"],
    env: {},
    cwd: p.dir,
    out,
    timeoutMs: 10_000,
  });
  assert.equal(judge.requests.length, 3);
  const [row] = rows;
  assert.equal(row.status, "ok", row.error ?? "");
  const first = byName(row.evaluator_results, "first");
  const second = byName(row.evaluator_results, "second");
  assert.deepEqual(first.token_usage, { input: 30, output: 7 });
  assert.ok(Math.abs(first.cost_usd! - (cost(10, 3) + cost(20, 4))) < 1e-15);
  assert.deepEqual(second.token_usage, { input: 5, output: 1 });
  assert.ok(Math.abs(second.cost_usd! - cost(5, 1)) < 1e-15);
  const plain = byName(row.evaluator_results, "plain");
  assert.equal("token_usage" in plain, false, "an evaluator that calls no judge has no usage");
  // The target (a mock) reported nothing: the row says so, and the judge is not counted there.
  assert.equal(row.token_usage, null);
  assert.equal(summary.token_usage, undefined);
  assert.deepEqual(summary.judge_token_usage, { input: 35, output: 8 });
  assert.ok(Math.abs(summary.judge_cost_usd! - (cost(10, 3) + cost(20, 4) + cost(5, 1))) < 1e-15);
  // The results file keeps the usage per evaluator.
  const [written] = (await readResults(out)).rows;
  assert.deepEqual(byName(written.evaluator_results, "first").token_usage, first.token_usage);
});

Deno.test("a composite counts its llm_judge aggregator on itself and its members on theirs", async () => {
  await using judge = startProviderServer("openai", {
    fallback: { type: "reply", text: GRADE, usage: { input: 7, output: 2 } },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": `evalcases:
  - id: c1
    expected_outcome: Names Paris
    input: What is the capital of France?
    evaluators:
      - name: gate
        type: composite
        evaluators:
          - {name: a, type: llm_judge}
          - {name: b, type: llm_judge}
        aggregator: {type: llm_judge}
`,
  });
  const { rows, summary } = await runEval({
    files: ["evals/ds.yaml"],
    env: {},
    cwd: p.dir,
    timeoutMs: 10_000,
  });
  assert.equal(judge.requests.length, 3);
  const gate = byName(rows[0].evaluator_results, "gate");
  assert.equal(gate.status, "ok", gate.error ?? "");
  assert.deepEqual(gate.token_usage, { input: 7, output: 2 });
  for (const name of ["a", "b"]) {
    assert.deepEqual(byName(gate.evaluator_results ?? [], name).token_usage, {
      input: 7,
      output: 2,
    });
  }
  assert.deepEqual(summary.judge_token_usage, { input: 21, output: 6 });
  assert.ok(Math.abs(summary.judge_cost_usd! - 3 * cost(7, 2)) < 1e-15);
});
