import assert from "node:assert/strict";
import { runEvaluator } from "../../../lib/scoring/run_evaluator.ts";
import type { EvaluatorConfig } from "../../../lib/schema/evaluator.ts";
import { type RecordedRequest, startProviderServer } from "../../_helpers/provider_servers.ts";
import { FIXTURES, judgedContext, judgeOver, userPrompt } from "./_judge.ts";

/** Replies by prompt: safety 1.0, quality 0.5, aggregator 0.8. */
function byPrompt(request: RecordedRequest): string {
  const user = userPrompt(request.body);
  if (user.startsWith("SAFETY-PROMPT")) {
    return JSON.stringify({ score: 1, hits: ["safe"], misses: [], reasoning: "Safe." });
  }
  if (user.startsWith("QUALITY-PROMPT")) {
    return JSON.stringify({ score: 0.5, hits: ["clear"], misses: ["thin"], reasoning: "Thin." });
  }
  if (user.startsWith("Review the child")) {
    return JSON.stringify({ score: 0.8, hits: ["balanced"], misses: [], reasoning: "Both fine." });
  }
  return "no idea";
}

const members = [
  { type: "llm_judge", name: "safety", weight: 1, prompt: "../prompts/safety.md" },
  { type: "llm_judge", name: "quality", weight: 1, prompt: "../prompts/quality.md" },
];

const composite = (aggregator: Record<string, unknown>, list: unknown[] = members) =>
  ({ type: "composite", name: "gate", weight: 1, evaluators: list, aggregator }) as EvaluatorConfig;

Deno.test("composite weighted_average uses `weights:`, prefixes member hits and nests results", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: byPrompt },
  });
  const result = await runEvaluator(
    composite({ type: "weighted_average", weights: { safety: 0.3, quality: 0.7 } }),
    judgedContext(judgeOver(server), "An answer"),
  );
  assert.equal(result.status, "ok");
  assert.equal(result.type, "composite");
  assert.equal(result.score, 0.3 * 1 + 0.7 * 0.5);
  assert.equal(result.verdict, "borderline");
  assert.deepEqual(result.hits, ["[safety] safe", "[quality] clear"]);
  assert.deepEqual(result.misses, ["[quality] thin"]);
  assert.equal(result.reasoning, "safety: Safe.; quality: Thin.");
  assert.deepEqual(result.evaluator_results!.map((r) => [r.name, r.score, r.weight]), [
    ["safety", 1, 0.3],
    ["quality", 0.5, 0.7],
  ]);
  assert.deepEqual(result.evaluator_provider_request, {
    aggregator: "weighted_average",
    weights: { safety: 0.3, quality: 0.7 },
  });
  // Members used their own prompts.
  const prompts = server.requests.map((r) => userPrompt(r.body).split(":")[0]).sort();
  assert.deepEqual(prompts, ["QUALITY-PROMPT", "SAFETY-PROMPT"]);
});

Deno.test("composite weighted_average falls back to each member's own weight; weight 0 stays out", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: byPrompt },
  });
  const result = await runEvaluator(
    composite({ type: "weighted_average" }, [
      { ...members[0], weight: 3 },
      { ...members[1], weight: 0 },
    ]),
    judgedContext(judgeOver(server), "An answer"),
  );
  assert.equal(result.score, 1);
  assert.deepEqual(result.hits, ["[safety] safe"]);
  assert.deepEqual(result.misses, []);
  assert.equal(result.evaluator_results!.length, 2);
  assert.equal(result.evaluator_results![1].weight, 0);
  assert.equal(result.evaluator_results![1].score, 0.5);
});

Deno.test("composite code_judge aggregator gets snake_case {results} and its verdict is honoured", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: byPrompt },
  });
  const result = await runEvaluator(
    composite({
      type: "code_judge",
      script: [Deno.execPath(), "run", "--quiet", "--allow-read", "gate.ts"],
      cwd: "../scripts",
    }),
    judgedContext(judgeOver(server), "An answer"),
  );
  assert.equal(result.status, "ok", result.error ?? "");
  assert.equal(result.score, 0.75);
  assert.equal(result.verdict, "borderline");
  assert.deepEqual(result.hits, ["safety gate passed"]);
  assert.equal(result.reasoning, "members: quality,safety");
  const details = result.details as { keys: string[]; cwd: string };
  assert.ok(details.keys.includes("evaluator_provider_request"));
  assert.ok(details.keys.includes("status"));
  assert.equal(details.cwd, await Deno.realPath(`${FIXTURES}/scripts`));
  assert.equal(result.evaluator_results!.length, 2);
});

Deno.test("composite code_judge aggregator that is missing is an evaluator error, not a crash", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: byPrompt },
  });
  const result = await runEvaluator(
    composite({ type: "code_judge", path: "node ../scripts/safety-gate-aggregator.js" }),
    judgedContext(judgeOver(server), "An answer"),
  );
  assert.equal(result.status, "error");
  assert.equal(result.score, 0);
  assert.match(result.error!, /Code aggregator (exited with code \d+|could not start)/);
  assert.equal(result.evaluator_results!.length, 2);
});

Deno.test("composite code_judge aggregator cwd outside the root is refused", async () => {
  const result = await runEvaluator(
    composite({ type: "code_judge", script: "true", cwd: "../.." }, [{
      type: "latency",
      name: "lat",
      weight: 1,
      threshold: 10,
    }]),
    judgedContext(undefined, "An answer"),
  );
  assert.equal(result.status, "error");
  assert.match(result.error!, /outside the dataset root/);
});

Deno.test("composite llm_judge aggregator reads its prompt file and fills {{EVALUATOR_RESULTS_JSON}}", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: byPrompt },
  });
  const result = await runEvaluator(
    composite({ type: "llm_judge", prompt: "../prompts/aggregate.md" }),
    judgedContext(judgeOver(server), "An answer"),
  );
  assert.equal(result.status, "ok", result.error ?? "");
  assert.equal(result.score, 0.8);
  assert.deepEqual(result.hits, ["balanced"]);
  const aggregatorRequest = server.requests.map((r) => userPrompt(r.body)).find((p) =>
    p.startsWith("Review")
  )!;
  const json =
    aggregatorRequest.split("\n").slice(1).join("\n").split("\n\nAnswer under review")[0];
  const results = JSON.parse(json);
  assert.deepEqual(Object.keys(results).sort(), ["quality", "safety"]);
  assert.equal(results.quality.score, 0.5);
  assert.equal(results.safety.evaluator_provider_request, undefined);
  assert.match(aggregatorRequest, /Answer under review: An answer$/m);
});

Deno.test("composite with an erroring member is an error naming the member", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: byPrompt },
  });
  const result = await runEvaluator(
    composite({ type: "weighted_average" }, [
      members[0],
      { type: "code_judge", name: "syntax", weight: 1, script: ["definitely-not-a-program-xyz"] },
    ]),
    judgedContext(judgeOver(server), "An answer"),
  );
  assert.equal(result.status, "error");
  assert.match(result.error!, /member 'syntax' failed/);
  assert.equal(result.evaluator_results![1].status, "error");
});

Deno.test("nested composites nest their results", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: byPrompt },
  });
  const result = await runEvaluator(
    composite({ type: "weighted_average", weights: { inner: 0.7, safety: 0.3 } }, [
      {
        type: "composite",
        name: "inner",
        weight: 1,
        evaluators: members,
        aggregator: { type: "weighted_average", weights: { safety: 0.6, quality: 0.4 } },
      },
      members[0],
    ]),
    judgedContext(judgeOver(server), "An answer"),
  );
  assert.equal(result.score, 0.7 * (0.6 + 0.4 * 0.5) + 0.3);
  assert.equal(result.evaluator_results![0].evaluator_results!.length, 2);
  assert.deepEqual(result.hits.slice(0, 2), ["[inner] [safety] safe", "[inner] [quality] clear"]);
});
