/** Judged evaluators: rubric scoring, required rubrics and weight 0. */
import assert from "node:assert/strict";
import { startProviderServer } from "../../_helpers/provider_servers.ts";
import { checks, evalFile, evaluator, project, promptOf, run, targets } from "./_helpers.ts";

Deno.test("rubric: score over all rubrics; unanswered is a miss; duplicates count once", async () => {
  await using judge = startProviderServer("anthropic", {
    steps: [
      // a(3) yes, b(1) yes then a duplicate "no", c(1) never answered → 4/5
      "Sure:\n```json\n" + checks(["a", true], ["b", true], ["b", false]) + "\n```",
    ],
  });
  await using p = await project({
    ".agentv/targets.yaml": targets("x").replace(
      / {2}- name: judge[\s\S]*/,
      [
        "  - name: judge",
        "    provider: anthropic",
        `    base_url: ${judge.url}`,
        "    api_key: sk-ant",
        "    model: claude-judge",
        "    max_tokens: 77",
        "    max_retries: 0",
        "",
      ].join("\n"),
    ),
    "evals/ds.yaml": evalFile([
      "      - type: rubric",
      "        model: claude-special",
      "        rubrics:",
      "          - {id: a, description: Names Paris, weight: 3}",
      "          - {id: b, description: Is one sentence, required: false}",
      "          - {id: c, description: Mentions the Seine, required: false}",
    ].join("\n")),
  });
  const [row] = await run(p.dir);
  const e = evaluator(row, "rubric");
  assert.equal(e.type, "rubric");
  assert.equal(e.status, "ok");
  assert.equal(e.score, 0.8);
  assert.equal(e.verdict, "pass");
  assert.equal(e.hits.length, 2);
  assert.equal(e.misses.length, 1);
  assert.match(e.misses[0], /\bc\b[\s\S]*not answered/);
  assert.equal(row.score, 0.8);
  assert.equal(row.verdict, "pass");
  // judge request: evaluator model override, judge target token limit, rubrics listed with ids
  assert.equal(judge.requests[0].body.model, "claude-special");
  assert.equal(judge.requests[0].body.max_tokens, 77);
  assert.match(promptOf(judge.requests[0]).system, /"checks"/);
  const { user } = promptOf(judge.requests[0]);
  for (const id of ["a", "b", "c"]) assert.match(user, new RegExp(`\\[${id}\\]`));
});

Deno.test("rubric: inline rubrics default id rubric-<n>, weight 1, required true; type rubric", async () => {
  await using judge = startProviderServer("openai", {
    fallback: checks(["rubric-1", true], ["rubric-2", true], ["rubric-3", false]),
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": evalFile(
      "",
      "    rubrics:\n      - Names Paris\n      - Is polite\n      - {description: Cites a source, required: false}",
    ),
  });
  const [row] = await run(p.dir);
  assert.equal(row.evaluator_results.length, 1);
  const e = row.evaluator_results[0];
  assert.equal(e.type, "rubric");
  assert.equal(e.score, 2 / 3);
  assert.equal(e.verdict, "borderline");
  assert.equal(row.verdict, "borderline");
  const { user } = promptOf(judge.requests[0]);
  assert.match(user, /\[rubric-1\][^\n]*Names Paris/);
  assert.match(user, /\[rubric-3\][^\n]*Cites a source/);
});

Deno.test("rubric: a failed required rubric fails the evaluator and the case, row names it", async () => {
  await using judge = startProviderServer("openai", {
    fallback: checks(["big", true], ["must", false]),
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": evalFile([
      "      - name: strict",
      "        type: rubric",
      "        rubrics:",
      "          - {id: big, description: Names Paris, weight: 9, required: false}",
      "          - {id: must, description: Cites a source, weight: 1, required: true}",
    ].join("\n")),
  });
  const [row] = await run(p.dir);
  const e = evaluator(row, "strict");
  assert.equal(e.score, 0.9);
  assert.equal(e.verdict, "fail");
  assert.equal(row.status, "ok");
  assert.equal(row.score, 0.9);
  assert.equal(row.verdict, "fail");
  assert.match(JSON.stringify([row.misses, row.reasoning]), /must/);
});

Deno.test("rubric: a weight-0 rubric evaluator with a failed required rubric does not fail the case", async () => {
  await using judge = startProviderServer("openai", { fallback: checks(["must", false]) });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": evalFile([
      "      - name: shadow",
      "        type: rubric",
      "        weight: 0",
      "        rubrics:",
      "          - {id: must, description: Cites a source}",
      "      - type: contains",
      "        value: Paris",
    ].join("\n")),
  });
  const [row] = await run(p.dir);
  const shadow = evaluator(row, "shadow");
  assert.equal(shadow.verdict, "fail");
  assert.equal(shadow.weight, 0);
  assert.equal(row.score, 1);
  assert.equal(row.verdict, "pass");
  assert.ok(!JSON.stringify([row.hits, row.misses]).includes("Cites a source"));
});

Deno.test("rubric: garbage judge replies → evaluator error after 3 asks, case status error", async () => {
  await using judge = startProviderServer("openai", { fallback: "no idea, sorry" });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": evalFile("", "    rubrics:\n      - Names Paris"),
  });
  const [row] = await run(p.dir);
  assert.equal(judge.requests.length, 3);
  assert.equal(row.status, "error");
  const e = row.evaluator_results[0];
  assert.equal(e.status, "error");
  assert.match(e.error ?? "", /no idea, sorry/);
});

Deno.test("weight 0: evaluator runs and is reported, its hits and misses stay out of the case", async () => {
  await using p = await project({
    ".agentv/targets.yaml":
      "targets:\n  - name: default\n    provider: mock\n    response: Paris\n",
    "evals/ds.yaml": evalFile([
      "      - name: counted",
      "        type: contains",
      "        value: Paris",
      "      - name: ignored",
      "        type: contains",
      "        value: London",
      "        weight: 0",
    ].join("\n")),
  });
  const [row] = await run(p.dir);
  const ignored = evaluator(row, "ignored");
  assert.equal(ignored.score, 0);
  assert.ok(ignored.misses.length > 0);
  assert.equal(row.score, 1);
  assert.equal(row.verdict, "pass");
  assert.ok(!JSON.stringify(row.misses).includes("London"), JSON.stringify(row.misses));
  assert.ok(row.hits.length > 0);
});
