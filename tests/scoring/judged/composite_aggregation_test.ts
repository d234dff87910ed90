/** Judged evaluators: composite evaluators and their aggregators. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval } from "../../../mod.ts";
import { startProviderServer } from "../../_helpers/provider_servers.ts";
import {
  evalFile,
  evaluator,
  FREEFORM,
  markerJudge,
  project,
  promptOf,
  run,
  targets,
} from "./_helpers.ts";

Deno.test("composite: weighted_average default, weights from `weights:` or members' `weight`", async () => {
  await using judge = startProviderServer("openai", {
    fallback: { type: "reply", text: markerJudge },
  });
  const member = (name: string, score: number, extra = "") =>
    [
      `          - name: ${name}`,
      "            type: llm_judge",
      `            prompt: "SCORE=${score} {{ candidate_answer }}"`,
      ...(extra ? [extra] : []),
    ].join("\n");
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": evalFile([
      "      - name: by_weights",
      "        type: composite",
      "        evaluators:",
      member("a", 1),
      member("b", 0.5),
      "        aggregator:",
      "          type: weighted_average",
      "          weights: {a: 0.3, b: 0.7}",
      "      - name: by_member_weight",
      "        type: composite",
      "        evaluators:",
      member("a", 1, "            weight: 3"),
      member("b", 0.5),
      "      - name: with_rubric_member",
      "        type: composite",
      "        evaluators:",
      "          - name: rub",
      "            type: llm_judge",
      "            rubrics: [{id: yes, description: Y}, {id: no, description: N, required: false}]",
      member("j", 0),
    ].join("\n")),
  });
  const [row] = await run(p.dir);
  assert.equal(row.status, "ok", JSON.stringify(row.evaluator_results));
  const byWeights = evaluator(row, "by_weights");
  assert.equal(byWeights.type, "composite");
  assert.ok(Math.abs(byWeights.score - 0.65) < 1e-9, String(byWeights.score));
  assert.equal(byWeights.evaluator_results?.length, 2);
  const byMember = evaluator(row, "by_member_weight");
  assert.ok(Math.abs(byMember.score - 0.875) < 1e-9, String(byMember.score));
  const withRubric = evaluator(row, "with_rubric_member");
  assert.ok(Math.abs(withRubric.score - 0.25) < 1e-9, String(withRubric.score));
  const rub = withRubric.evaluator_results!.find((m) => m.name === "rub")!;
  assert.equal(rub.type, "rubric");
  assert.equal(rub.score, 0.5);
});

Deno.test("composite: members run concurrently", async () => {
  // The judge answers only once all three members' requests have arrived: members run one
  // after another would wait for an answer that never comes.
  await using judge = startProviderServer("openai", { fallback: FREEFORM, barrier: 3 });
  const members = ["a", "b", "c"].map((n) => `          - {name: ${n}, type: llm_judge}`);
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": evalFile(
      ["      - type: composite", "        evaluators:", ...members].join("\n"),
    ),
  });
  const [row] = await run(p.dir);
  assert.equal(row.status, "ok", `members are not concurrent: ${row.error}`);
  assert.equal(judge.requests.length, 3);
});

Deno.test("composite: code_judge aggregator gets {results: {name: result}} snake_case; timeout is an error", async () => {
  await using judge = startProviderServer("openai", {
    fallback: { type: "reply", text: markerJudge },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "scripts/agg.sh": [
      "#!/bin/sh",
      'cat > "$1"',
      'echo \'{"score": 0.42, "hits": ["agg"], "reasoning": "combined"}\'',
      "",
    ].join("\n"),
    "evals/ds.yaml": evalFile([
      "      - name: agg",
      "        type: composite",
      "        evaluators:",
      "          - {name: first, type: contains, value: Paris}",
      '          - {name: second, type: llm_judge, prompt: "SCORE=0.3 {{ question }}"}',
      "        aggregator:",
      "          type: code_judge",
      '          script: ["sh", "../scripts/agg.sh", "../payload.json"]',
      "      - name: slow",
      "        type: composite",
      "        evaluators:",
      "          - {name: first, type: contains, value: Paris}",
      "        aggregator:",
      "          type: code_judge",
      '          script: "sleep 5"',
    ].join("\n")),
  });
  const { rows } = await runEval({
    files: [join(p.dir, "evals/ds.yaml")],
    env: {},
    cwd: p.dir,
    timeoutMs: 1_000,
    allowRun: true,
  });
  const row = rows[0];
  const agg = evaluator(row, "agg");
  assert.equal(agg.status, "ok", agg.error ?? "");
  assert.equal(agg.score, 0.42);
  const payload = JSON.parse(await Deno.readTextFile(join(p.dir, "payload.json")));
  assert.deepEqual(Object.keys(payload), ["results"]);
  assert.deepEqual(Object.keys(payload.results).sort(), ["first", "second"]);
  assert.equal(payload.results.first.score, 1);
  assert.equal(payload.results.second.score, 0.3);
  const keys = JSON.stringify(payload).match(/"([A-Za-z_]+)":/g)!;
  assert.ok(keys.every((k) => !/[a-z][A-Z]/.test(k)), `camelCase key in ${keys}`);
  const slow = evaluator(row, "slow");
  assert.equal(slow.status, "error");
  assert.match(slow.error ?? "", /timed out|timeout/i);
  assert.equal(row.status, "error");
});

Deno.test("composite: llm_judge aggregator reads its prompt file with {{ evaluator_results_json }}", async () => {
  await using judge = startProviderServer("openai", {
    fallback: { type: "reply", text: markerJudge },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "prompts/agg.md": "SCORE=0.7 Decide from:\n{{ evaluator_results_json }}\nQ: {{ question }}\n",
    "evals/ds.yaml": evalFile([
      "      - name: agg",
      "        type: composite",
      "        evaluators:",
      "          - {name: first, type: contains, value: Paris}",
      '          - {name: second, type: llm_judge, prompt: "SCORE=0.2 {{ question }}"}',
      "        aggregator:",
      "          type: llm_judge",
      "          prompt: ../prompts/agg.md",
    ].join("\n")),
  });
  const [row] = await run(p.dir);
  const agg = evaluator(row, "agg");
  assert.equal(agg.status, "ok", agg.error ?? "");
  assert.equal(agg.score, 0.7);
  const aggRequest = judge.requests.map(promptOf).find((r) => r.user.includes("Decide from"));
  assert.ok(aggRequest);
  assert.ok(!aggRequest.user.includes("{{"), aggRequest.user);
  const json = /Decide from:\n([\s\S]*)\nQ: /.exec(aggRequest.user)![1];
  const results = JSON.parse(json);
  assert.equal(results.first.score, 1);
  assert.equal(results.second.score, 0.2);
  // the member used its own prompt
  assert.ok(judge.requests.map(promptOf).some((r) => r.user.startsWith("SCORE=0.2 What is")));
});
