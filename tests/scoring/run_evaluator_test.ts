import assert from "node:assert/strict";
import { runEvaluator } from "../../lib/scoring/run_evaluator.ts";
import { getEvaluator } from "../../lib/scoring/registry.ts";
import type { EvaluatorConfig } from "../../lib/schema/evaluator.ts";
import { answerContext } from "./_context.ts";

Deno.test("runEvaluator() fills name, type and weight from the config", async () => {
  const r = await runEvaluator(
    { type: "is_json", name: "valid-json", weight: 0.5 },
    answerContext('{"a": 1}'),
  );
  assert.deepEqual(r, {
    name: "valid-json",
    type: "is_json",
    weight: 0.5,
    status: "ok",
    score: 1,
    verdict: "pass",
    hits: ["Answer is valid JSON"],
    misses: [],
  });
});

Deno.test("runEvaluator() turns an unknown type into an error result", async () => {
  const config = { type: "telepathy", name: "mind", weight: 1 } as unknown as EvaluatorConfig;
  const r = await runEvaluator(config, answerContext("x"));
  assert.equal(r.status, "error");
  assert.equal(r.score, 0);
  assert.equal(r.verdict, "fail");
  assert.equal(r.error, "evaluator type 'telepathy' is not available yet");
  assert.deepEqual(r.misses, [
    "Evaluator 'mind' failed: evaluator type 'telepathy' is not available yet",
  ]);
  assert.equal(getEvaluator("toString"), undefined);
});

Deno.test("runEvaluator() turns a thrown exception into an error result, not a silent 0", async () => {
  // An invalid pattern that bypassed the schema makes the regex evaluator throw.
  const config = {
    type: "regex",
    name: "broken-regex",
    weight: 2,
    pattern: "(",
  } as EvaluatorConfig;
  const r = await runEvaluator(config, answerContext("x"));
  assert.equal(r.status, "error");
  assert.equal(r.name, "broken-regex");
  assert.equal(r.weight, 2);
  assert.equal(r.score, 0);
  assert.match(r.error ?? "", /missing closing \)/);
  assert.match(r.misses[0], /^Evaluator 'broken-regex' failed: missing closing \)/);
});
