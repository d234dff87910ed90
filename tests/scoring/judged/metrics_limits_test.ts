/** Judged evaluators: latency, cost and token usage metrics. */
import assert from "node:assert/strict";
import { startProviderServer } from "../../_helpers/provider_servers.ts";
import { evalFile, evaluator, project, run } from "./_helpers.ts";

Deno.test("metrics: latency, cost from pricing, token_usage limits on the trace", async () => {
  await using model = startProviderServer("openai", {
    fallback: { type: "reply", text: "Paris", usage: { input: 1000, output: 500 }, latencyMs: 60 },
  });
  const answer = (name: string, pricing: boolean) =>
    [
      `  - name: ${name}`,
      "    provider: openai",
      `    base_url: ${model.url}`,
      "    api_key: sk-x",
      "    model: m",
      "    max_retries: 0",
      ...(pricing ? ["    pricing: {input_per_mtok: 2, output_per_mtok: 10}"] : []),
    ].join("\n");
  await using p = await project({
    ".agentv/targets.yaml": ["targets:", answer("default", true), answer("unpriced", false), ""]
      .join("\n"),
    "evals/ds.yaml": evalFile([
      "      - {name: fast_enough, type: latency, threshold: 60000}",
      "      - {name: too_slow, type: latency, threshold: 10}",
      "      - {name: cheap, type: cost, budget: 0.007}",
      "      - {name: pricey, type: cost, budget: 0.0069}",
      "      - {name: tokens_ok, type: token_usage, max_total: 1500, max_output: 500}",
      "      - {name: tokens_bad, type: token_usage, max_input: 999, max_output: 600}",
    ].join("\n")),
    "evals/unpriced.yaml": evalFile(
      "      - {name: cheap, type: cost, budget: 1}",
      "    execution: {target: unpriced}",
    ),
  });
  const [row] = await run(p.dir);
  assert.equal(row.status, "ok");
  const s = (n: string) => evaluator(row, n).score;
  assert.deepEqual(
    ["fast_enough", "too_slow", "cheap", "pricey", "tokens_ok", "tokens_bad"].map(s),
    [1, 0, 1, 0, 1, 0],
  );
  assert.ok(Math.abs((row.trace_summary?.cost_usd ?? NaN) - 0.007) < 1e-12);
  assert.equal(evaluator(row, "tokens_bad").misses.length, 1);
  assert.match(evaluator(row, "tokens_bad").misses[0], /[Ii]nput/);
  assert.equal(row.score, 0.5);

  const [unpriced] = await run(p.dir, { file: "evals/unpriced.yaml" });
  const cost = evaluator(unpriced, "cheap");
  assert.equal(cost.score, 0);
  assert.match(cost.misses[0], /pricing/);
  assert.match(cost.misses[0], /unpriced/);
});

Deno.test("metrics: missing token data is a miss naming the setting; CLI output tokens/cost count", async () => {
  await using p = await project({
    ".agentv/targets.yaml": [
      "targets:",
      "  - name: default",
      "    provider: mock",
      "    response: Paris",
      "  - name: agent",
      "    provider: cli",
      `    command_template: 'echo ''{"text": "Paris", "token_usage": {"input": 10, "output": 5}, "cost_usd": 0.25}'''`,
      "",
    ].join("\n"),
    "evals/ds.yaml": evalFile([
      "      - {name: tokens, type: token_usage, max_total: 100}",
      "      - {name: cost, type: cost, budget: 1}",
      "      - {name: latency, type: latency, threshold: 60000}",
    ].join("\n")),
    "evals/agent.yaml": evalFile(
      [
        "      - {name: tokens, type: token_usage, max_total: 15}",
        "      - {name: cost, type: cost, budget: 0.25}",
      ].join("\n"),
      "    execution: {target: agent}",
    ),
  });
  const [mock] = await run(p.dir);
  assert.equal(evaluator(mock, "latency").score, 1, "duration is always reported");
  const tokens = evaluator(mock, "tokens");
  assert.equal(tokens.score, 0);
  assert.match(tokens.misses[0], /token/i);
  assert.match(tokens.misses[0], /default/);
  assert.match(evaluator(mock, "cost").misses[0], /pricing/);

  const [agent] = await run(p.dir, { file: "evals/agent.yaml", allowRun: true });
  assert.equal(agent.status, "ok", agent.error ?? "");
  assert.equal(evaluator(agent, "tokens").score, 1, JSON.stringify(agent.evaluator_results));
  assert.equal(evaluator(agent, "cost").score, 1);
});
