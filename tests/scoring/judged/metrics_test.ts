import assert from "node:assert/strict";
import { runEvaluator } from "../../../lib/scoring/run_evaluator.ts";
import type { EvaluatorConfig } from "../../../lib/schema/evaluator.ts";
import type { TraceSummary } from "../../../lib/schema/result.ts";
import { makeContext } from "../_context.ts";

const trace = (extra: Partial<TraceSummary>): TraceSummary => ({
  event_count: 0,
  tool_names: [],
  tool_calls_by_name: {},
  error_count: 0,
  ...extra,
});
const run = (config: Record<string, unknown>, t: TraceSummary) =>
  runEvaluator(
    { weight: 1, name: String(config.type), ...config } as EvaluatorConfig,
    makeContext({ trace: t }),
  );

Deno.test("latency passes at the threshold and fails above it", async () => {
  const ok = await run({ type: "latency", threshold: 500 }, trace({ duration_ms: 500 }));
  assert.equal(ok.score, 1);
  assert.equal(ok.verdict, "pass");
  assert.deepEqual(ok.hits, ["Duration 500ms <= 500ms threshold"]);
  assert.equal(ok.reasoning, "Execution took 500ms (threshold: 500ms)");
  const slow = await run({ type: "latency", threshold: 500 }, trace({ duration_ms: 501.4 }));
  assert.equal(slow.score, 0);
  assert.equal(slow.verdict, "fail");
  assert.deepEqual(slow.misses, ["Duration 501ms > 500ms threshold"]);
});

Deno.test("cost compares against the budget and names `pricing` when cost is missing", async () => {
  const ok = await run({ type: "cost", budget: 0.01 }, trace({ cost_usd: 0.0042 }));
  assert.deepEqual(ok.hits, ["Cost $0.0042 <= $0.0100 budget"]);
  const over = await run({ type: "cost", budget: 0.001 }, trace({ cost_usd: 0.0042 }));
  assert.deepEqual(over.misses, ["Cost $0.0042 > $0.0010 budget"]);
  const missing = await run({ type: "cost", budget: 1 }, trace({}));
  assert.equal(missing.status, "ok");
  assert.equal(missing.score, 0);
  assert.match(
    missing.misses[0],
    /No cost data available in trace: target 'mock' reported no cost; set pricing: \{input_per_mtok, output_per_mtok\} on target 'mock'/,
  );
});

Deno.test("token_usage checks each configured limit; total includes cached tokens", async () => {
  const t = trace({ token_usage: { input: 100, output: 50, cached: 10 } });
  const ok = await run({ type: "token_usage", max_input: 100, max_total: 160 }, t);
  assert.equal(ok.score, 1);
  assert.deepEqual(ok.hits, ["Input tokens 100 <= 100", "Total tokens 160 <= 160"]);
  const bad = await run({ type: "token_usage", max_input: 200, max_output: 40, max_total: 150 }, t);
  assert.equal(bad.score, 0);
  assert.equal(bad.verdict, "fail");
  assert.deepEqual(bad.hits, ["Input tokens 100 <= 200"]);
  assert.deepEqual(bad.misses, ["Output tokens 50 > 40", "Total tokens 160 > 150"]);
  const missing = await run({ type: "token_usage", max_total: 1 }, trace({}));
  assert.match(
    missing.misses[0],
    /No token usage data available in trace: target 'mock' reported none/,
  );
  assert.match(missing.misses[0], /cli target must write token_usage/);
});

Deno.test("latency without duration data is a clear miss", async () => {
  const r = await run({ type: "latency", threshold: 1 }, trace({}));
  assert.equal(r.score, 0);
  assert.match(r.misses[0], /No duration data available in trace/);
});
