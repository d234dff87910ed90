/**
 * Contract tests for issue 4 (judged and metric evaluators, `agentv generate rubrics`), written
 * black-box from the issue text and the README: runs go through `runEval` (mod.ts) or the CLI
 * (`runCli`) against local OpenAI-compatible / Anthropic judge servers.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type EvaluatorResult, type ResultRow, type RunConfigError, runEval } from "../../mod.ts";
import { runCli } from "../../lib/cli/app.ts";
import { createBufferIO } from "../cli/_buffer_io.ts";
import { type RecordedRequest, startProviderServer } from "../_helpers/provider_servers.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/contract/issue4/", import.meta.url));

/** A temp project: `.agentv/targets.yaml` plus files under it; removed on dispose. */
function project(files: Record<string, string>): Promise<Tree> {
  return tempTree(files, { prefix: "agentv-c4-" });
}

/** The messages text of a recorded judge request (openai or anthropic), by role. */
function promptOf(request: RecordedRequest): { system: string; user: string } {
  // deno-lint-ignore no-explicit-any
  const body = request.body as any;
  // deno-lint-ignore no-explicit-any
  const text = (c: any): string =>
    typeof c === "string" ? c : Array.isArray(c) ? c.map((p) => p.text ?? "").join("") : "";
  // deno-lint-ignore no-explicit-any
  const messages = body.messages as any[];
  const sys = messages.find((m) => m.role === "system");
  const system = sys ? text(sys.content) : text(body.system ?? "");
  const user = messages.filter((m) => m.role === "user").map((m) => text(m.content)).join("\n");
  return { system, user };
}

function targets(judgeUrl: string, extra: { answer?: string; judge?: string } = {}) {
  return [
    "targets:",
    "  - name: default",
    "    provider: mock",
    "    response: The capital of France is Paris.",
    "    judge_target: judge",
    ...(extra.answer ? [extra.answer] : []),
    "  - name: judge",
    "    provider: openai",
    `    base_url: ${judgeUrl}`,
    "    api_key: sk-judge-key",
    "    model: judge-model",
    "    max_retries: 0",
    ...(extra.judge ? [extra.judge] : []),
    "",
  ].join("\n");
}

function evalFile(evaluators: string, extra = ""): string {
  return [
    "evalcases:",
    "  - id: c1",
    "    expected_outcome: Names Paris",
    "    input: What is the capital of France?",
    "    expected_output: Paris",
    ...(evaluators ? ["    evaluators:", evaluators] : []),
    ...(extra ? [extra] : []),
    "",
  ].join("\n");
}

async function run(
  dir: string,
  options: { judgeTarget?: string; env?: Record<string, string>; file?: string } = {},
): Promise<ResultRow[]> {
  const { rows } = await runEval({
    files: [join(dir, options.file ?? "evals/ds.yaml")],
    env: options.env ?? {},
    cwd: dir,
    timeoutMs: 10_000,
    ...(options.judgeTarget ? { judgeTarget: options.judgeTarget } : {}),
  });
  return rows;
}

const FREEFORM = JSON.stringify({ score: 0.9, hits: ["names Paris"], misses: [], reasoning: "ok" });

function evaluator(row: ResultRow, name: string): EvaluatorResult {
  const found = row.evaluator_results.find((e) => e.name === name);
  assert.ok(found, `no evaluator ${name} in ${JSON.stringify(row.evaluator_results)}`);
  return found;
}

// ---------------------------------------------------------------- judge plumbing

Deno.test("judge: the target's judge_target grades, evaluator model override reaches the wire", async () => {
  await using judge = startProviderServer("openai", { fallback: FREEFORM });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": evalFile([
      "      - name: plain",
      "        type: llm_judge",
      "      - name: override",
      "        type: llm_judge",
      "        model: special-model",
    ].join("\n")),
  });
  const [row] = await run(p.dir);
  assert.equal(row.status, "ok", JSON.stringify(row));
  assert.equal(row.score, 0.9);
  assert.equal(judge.requests.length, 2);
  const models = judge.requests.map((r) => r.body.model).sort();
  assert.deepEqual(models, ["judge-model", "special-model"]);
  assert.equal(evaluator(row, "override").type, "llm_judge");
  const recorded = evaluator(row, "override").evaluator_provider_request as Record<string, unknown>;
  assert.equal(recorded.model, "special-model");
});

Deno.test("judge: --judge-target overrides judge_target (runEval and CLI), anthropic wire", async () => {
  await using unused = startProviderServer("openai", { fallback: FREEFORM });
  await using other = startProviderServer("anthropic", { fallback: FREEFORM });
  await using p = await project({
    ".agentv/targets.yaml": targets(unused.url, {
      judge: [
        "  - name: other",
        "    provider: anthropic",
        `    base_url: ${other.url}`,
        "    api_key: sk-ant",
        "    model: claude-x",
        "    max_retries: 0",
      ].join("\n"),
    }),
    "evals/ds.yaml": evalFile("      - type: llm_judge"),
  });
  const [row] = await run(p.dir, { judgeTarget: "other" });
  assert.equal(row.status, "ok", JSON.stringify(row));
  assert.equal(unused.requests.length, 0);
  assert.equal(other.requests.length, 1);
  assert.equal(other.requests[0].body.model, "claude-x");

  const io = createBufferIO({ cwd: p.dir });
  const code = await runCli(
    ["run", "evals/ds.yaml", "--judge-target", "other", "--out", "r.jsonl", "--quiet"],
    io,
  );
  assert.equal(code, 0, io.out() + io.err());
  assert.equal(unused.requests.length, 0);
  assert.equal(other.requests.length, 2);
});

Deno.test("judge: judge_target naming no target is an error, not a fallback", async () => {
  await using judge = startProviderServer("openai", { fallback: FREEFORM });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url).replace(
      "judge_target: judge",
      "judge_target: jduge",
    ),
    "evals/ds.yaml": evalFile("      - type: llm_judge"),
  });
  let rows: ResultRow[] | undefined;
  let error: unknown;
  try {
    rows = await run(p.dir);
  } catch (e) {
    error = e;
  }
  assert.equal(judge.requests.length, 0, "no silent fallback to another judge");
  const message = error instanceof Error
    ? error.message + JSON.stringify((error as RunConfigError).diagnostics ?? [])
    : rows!.map((r) => r.error).join();
  if (rows) assert.equal(rows[0].status, "error");
  assert.match(message, /jduge/);
  // unknown --judge-target as well
  await Deno.writeTextFile(join(p.dir, ".agentv/targets.yaml"), targets(judge.url));
  await assert.rejects(() => run(p.dir, { judgeTarget: "nope" }), /nope/);
  const io = createBufferIO({ cwd: p.dir });
  const code = await runCli(["run", "evals/ds.yaml", "--judge-target", "nope", "--quiet"], io);
  assert.equal(code, 2, io.out() + io.err());
  assert.match(io.err(), /nope/);
});

Deno.test("judge: default llm_judge without any judge is an error naming the fix", async () => {
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - name: default\n    provider: mock\n    response: hi\n",
    "evals/ds.yaml": evalFile(""),
  });
  let text = "";
  try {
    const rows = await run(p.dir);
    assert.equal(rows[0].status, "error");
    text = rows[0].error ?? "";
  } catch (e) {
    text = (e as Error).message + String((e as RunConfigError).hint ?? "");
  }
  assert.match(text, /judge_target/);
  assert.match(text, /--judge-target/);
});

Deno.test("judge: retried through backoff and honours the judge target's temperature and max_tokens", async () => {
  await using judge = startProviderServer("openai", {
    steps: [{ type: "status", status: 503, retryAfter: "0" }],
    fallback: FREEFORM,
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url)
      .replace("max_retries: 0", "max_retries: 2")
      .replace(
        "model: judge-model",
        "model: judge-model\n    temperature: 0.15\n    max_tokens: 321",
      ),
    "evals/ds.yaml": evalFile("      - type: llm_judge"),
  });
  const [row] = await run(p.dir);
  assert.equal(row.status, "ok", JSON.stringify(row));
  assert.equal(judge.requests.length, 2);
  const body = judge.requests[1].body;
  assert.equal(body.temperature, 0.15);
  assert.equal(body.max_tokens ?? body.max_completion_tokens, 321);
});

Deno.test("judge: a judge call timeout is an evaluator error, not a hang or a crash", async () => {
  await using judge = startProviderServer("openai", { fallback: { type: "hang" } });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": evalFile("      - type: llm_judge"),
  });
  const { rows } = await runEval({
    files: [join(p.dir, "evals/ds.yaml")],
    env: {},
    cwd: p.dir,
    timeoutMs: 300,
  });
  assert.equal(rows[0].status, "error");
  assert.equal(evaluator(rows[0], "llm_judge").status, "error");
});

Deno.test("judge: fenced JSON with prose is parsed; garbage is re-asked up to 3 times then an error", async () => {
  await using judge = startProviderServer("openai", {
    steps: [
      "Here you go:\n```json\n" + FREEFORM + "\n```\nHope this helps!",
      "I cannot grade this.",
      "Score: 7/10",
      "{ not json",
    ],
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": evalFile("      - type: llm_judge"),
  });
  const [good] = await run(p.dir);
  assert.equal(good.status, "ok");
  assert.equal(good.score, 0.9);
  assert.deepEqual(good.hits, ["names Paris"]);
  const [bad] = await run(p.dir);
  assert.equal(judge.requests.length, 4, "1 + 3 asks");
  assert.equal(bad.status, "error");
  const e = evaluator(bad, "llm_judge");
  assert.equal(e.status, "error");
  assert.match(e.error ?? "", /3 attempts/);
  assert.match(e.error ?? "", /\{ not json/, "raw reply excerpt");
  assert.notEqual(bad.verdict, "pass");
});

Deno.test("judge: a reply that is re-asked and then good is used; out-of-range score is re-asked", async () => {
  await using judge = startProviderServer("openai", {
    steps: [JSON.stringify({ score: 9, hits: [], misses: [] }), FREEFORM],
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": evalFile("      - type: llm_judge"),
  });
  const [row] = await run(p.dir);
  assert.equal(row.status, "ok");
  assert.equal(row.score, 0.9);
  assert.equal(judge.requests.length, 2);
});

Deno.test("judge: recorded request has system + user prompt and model, secrets redacted", async () => {
  await using judge = startProviderServer("openai", { fallback: FREEFORM });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url)
      .replace("api_key: sk-judge-key", "api_key: ${{ JUDGE_KEY }}")
      .replace("response: The capital of France is Paris.", "response: Paris sk-SECRET-999"),
    "evals/ds.yaml": evalFile("      - type: llm_judge"),
  });
  const [row] = await run(p.dir, { env: { JUDGE_KEY: "sk-SECRET-999" } });
  // a literal api_key is a secret too
  await Deno.writeTextFile(
    join(p.dir, ".agentv/targets.yaml"),
    targets(judge.url).replace(
      "response: The capital of France is Paris.",
      "response: sk-judge-key",
    ),
  );
  const [literal] = await run(p.dir);
  assert.equal(literal.status, "ok");
  const literalText = JSON.stringify(evaluator(literal, "llm_judge").evaluator_provider_request);
  assert.ok(!literalText.includes("sk-judge-key"), literalText);
  assert.equal(row.status, "ok", JSON.stringify(row));
  const sent = promptOf(judge.requests[0]);
  assert.ok(sent.user.includes("sk-SECRET-999"), "the judge itself saw the answer");
  const recorded = evaluator(row, "llm_judge").evaluator_provider_request;
  const text = JSON.stringify(recorded);
  assert.ok(!text.includes("sk-SECRET-999"), text);
  const r = recorded as Record<string, string>;
  assert.equal(r.system_prompt, sent.system);
  assert.equal(r.model, "judge-model");
  assert.ok(r.user_prompt.includes("[[ ## candidate_answer ## ]]"));
});

// ---------------------------------------------------------------- llm_judge templates

Deno.test("llm_judge: default template has the [[ ## ]] sections with the case values", async () => {
  await using judge = startProviderServer("openai", { fallback: FREEFORM });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": evalFile("      - type: llm_judge"),
  });
  await run(p.dir);
  const { system, user } = promptOf(judge.requests[0]);
  assert.match(system, /"score"/);
  assert.match(user, /\[\[ ## expected_outcome ## \]\]\nNames Paris/);
  assert.match(user, /\[\[ ## question ## \]\]\nWhat is the capital of France\?/);
  assert.match(user, /\[\[ ## reference_answer ## \]\]\nParis/);
  assert.match(user, /\[\[ ## candidate_answer ## \]\]\nThe capital of France is Paris\./);
});

const ALL_SEVEN = [
  "CA={{ candidate_answer }}",
  "Q={{question}}",
  "EO={{ expected_outcome }}",
  "RA={{ reference_answer }}",
  "EM={{ expected_messages }}",
  "IM={{ input_messages }}",
  "OM={{ output_messages }}",
].join("\n");

Deno.test("llm_judge: a prompt file and inline prompt fill all seven variables", async () => {
  await using judge = startProviderServer("openai", { fallback: FREEFORM });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "prompts/grade.md": ALL_SEVEN + "\n",
    "evals/ds.yaml": evalFile([
      "      - name: from_file",
      "        type: llm_judge",
      "        prompt: ../prompts/grade.md",
      "      - name: inline",
      "        type: llm_judge",
      "        prompt: |",
      ...ALL_SEVEN.split("\n").map((l) => `          ${l}`),
    ].join("\n")),
  });
  const [row] = await run(p.dir);
  assert.equal(row.status, "ok", JSON.stringify(row.evaluator_results));
  assert.equal(judge.requests.length, 2);
  for (const request of judge.requests) {
    const { user } = promptOf(request);
    assert.ok(!user.includes("{{"), user);
    assert.match(user, /^CA=The capital of France is Paris\.$/m);
    assert.match(user, /^Q=What is the capital of France\?$/m);
    assert.match(user, /^EO=Names Paris$/m);
    assert.match(user, /^RA=Paris$/m);
    const em = /EM=([\s\S]*?)\nIM=/.exec(user)![1];
    assert.equal(JSON.parse(em)[0].content, "Paris");
    const im = /IM=([\s\S]*?)\nOM=/.exec(user)![1];
    assert.equal(JSON.parse(im)[0].content, "What is the capital of France?");
    const om = /OM=([\s\S]*)$/.exec(user)![1];
    assert.equal(JSON.parse(om.trim()).at(-1).content, "The capital of France is Paris.");
  }
});

Deno.test("llm_judge: an unknown template variable is a validation error with a suggestion", async () => {
  await using p = await project({
    ".agentv/targets.yaml": targets("http://127.0.0.1:9/v1"),
    "prompts/bad.md": "Grade {{ candidate_anwser }} against {{ expected_outcome }}\n",
    "evals/ds.yaml": evalFile([
      "      - name: from_file",
      "        type: llm_judge",
      "        prompt: ../prompts/bad.md",
    ].join("\n")),
    "evals/inline.yaml": evalFile([
      "      - name: inline",
      "        type: llm_judge",
      "        prompt: 'Grade {{ qestion }} now'",
    ].join("\n")),
  });
  for (
    const [file, wrong, right] of [
      ["evals/ds.yaml", "candidate_anwser", "candidate_answer"],
      ["evals/inline.yaml", "qestion", "question"],
    ]
  ) {
    const io = createBufferIO({ cwd: p.dir });
    const code = await runCli(["validate", file], io);
    assert.equal(code, 1, io.out() + io.err());
    const out = io.out() + io.err();
    assert.match(out, new RegExp(`error:.*${wrong}`));
    assert.match(out, new RegExp(right));
  }
});

// ---------------------------------------------------------------- rubric

function checks(...items: [string, boolean][]): string {
  return JSON.stringify({
    checks: items.map(([id, satisfied]) => ({ id, satisfied, reasoning: `${id} reason` })),
    overall_reasoning: "overall",
  });
}

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

// ---------------------------------------------------------------- weight 0

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

// ---------------------------------------------------------------- composite

/** A judge that scores by the `SCORE=x` marker in its prompt and answers rubric checks. */
function markerJudge(request: RecordedRequest): string {
  const { system, user } = promptOf(request);
  if (system.includes('"checks"')) {
    const ids = [...user.matchAll(/^- \[([^\]]+)\]/gm)].map((m) => m[1]);
    return checks(...ids.map((id) => [id, id !== "no"] as [string, boolean]));
  }
  const score = Number(/SCORE=([0-9.]+)/.exec(user)?.[1] ?? "0.5");
  return JSON.stringify({ score, hits: [`h${score}`], misses: [], reasoning: `r${score}` });
}

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
  await using judge = startProviderServer("openai", { fallback: FREEFORM, latencyMs: 300 });
  const members = ["a", "b", "c"].map((n) => `          - {name: ${n}, type: llm_judge}`);
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": evalFile(
      ["      - type: composite", "        evaluators:", ...members].join("\n"),
    ),
  });
  const started = performance.now();
  const [row] = await run(p.dir);
  const took = performance.now() - started;
  assert.equal(row.status, "ok");
  assert.equal(judge.requests.length, 3);
  assert.ok(took < 850, `3 members of 300ms took ${took}ms: not concurrent`);
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
  });
  const row = rows[0];
  const agg = evaluator(row, "agg");
  assert.equal(agg.status, "ok", agg.error);
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
  assert.equal(agg.status, "ok", agg.error);
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

// ---------------------------------------------------------------- field_accuracy

const FIELDS_EVAL = join(FIXTURES, "fields/evals/invoice.yaml");

/** Runs the field fixture through the CLI in a subprocess with `TZ` set; rows by id. */
async function fieldRowsUnderTz(tz: string): Promise<Record<string, ResultRow>> {
  const out = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    const main = fileURLToPath(new URL("../../main.ts", import.meta.url));
    const config = fileURLToPath(new URL("../../deno.json", import.meta.url));
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--unstable-worker-options",
        "--config",
        config,
        main,
        "run",
        FIELDS_EVAL,
        "--out",
        out,
        "--quiet",
      ],
      env: { TZ: tz, NO_COLOR: "1" },
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.ok(code === 0 || code === 1, new TextDecoder().decode(stderr));
    const rows = (await Deno.readTextFile(out)).trim().split("\n").map((l) =>
      JSON.parse(l) as ResultRow
    );
    return Object.fromEntries(rows.map((r) => [r.eval_id, r]));
  } finally {
    await Deno.remove(out);
  }
}

Deno.test("field_accuracy: exact numbers, expected-missing skipped and noted, same under two TZ", async () => {
  const results = await Promise.all(
    ["Pacific/Kiritimati", "America/Los_Angeles"].map(fieldRowsUnderTz),
  );
  for (const r of results) {
    const weighted = evaluator(r.weighted, "fields");
    // invoice_number(2) hit, total(1) hit, tax(1) miss (5% > 4%), issued(1) hit; po_number skipped
    assert.equal(weighted.score, 0.8);
    assert.equal(weighted.hits.length, 3);
    assert.equal(weighted.misses.length, 1);
    assert.match(weighted.misses[0], /tax/);
    assert.ok(!weighted.hits.some((h) => h.includes("po_number")), "skipped field is no hit");
    assert.match(JSON.stringify([weighted.reasoning, weighted.details]), /po_number/);
    const dates = evaluator(r["dates-and-relative"], "fields");
    assert.equal(dates.score, 1, JSON.stringify(dates.misses));
    assert.equal(dates.hits.length, 3);
    const aon = evaluator(r["all-or-nothing"], "fields");
    assert.equal(aon.score, 0);
    assert.equal(aon.hits.length, 1);
  }
  assert.deepEqual(
    results[0].weighted.evaluator_results,
    results[1].weighted.evaluator_results,
  );
  assert.deepEqual(
    results[0]["dates-and-relative"].evaluator_results,
    results[1]["dates-and-relative"].evaluator_results,
  );
});

// ---------------------------------------------------------------- latency / cost / token_usage

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

  const [agent] = await run(p.dir, { file: "evals/agent.yaml" });
  assert.equal(agent.status, "ok", agent.error);
  assert.equal(evaluator(agent, "tokens").score, 1, JSON.stringify(agent.evaluator_results));
  assert.equal(evaluator(agent, "cost").score, 1);
});

// ---------------------------------------------------------------- generate rubrics

const GEN_YAML = `# Dataset header comment
description: Geography # trailing comment
evalcases:
  # first case: needs rubrics
  - id: needs
    expected_outcome: Names Paris as the capital
    input: What is the capital of France?

  - id: has
    expected_outcome: Names Berlin
    input: Capital of Germany?
    rubrics:
      - Mentions Berlin # keep me
`;

function generated(request: RecordedRequest): string {
  const { user } = promptOf(request);
  const outcome = user.includes("Paris") ? "paris" : user.includes("Rome") ? "rome" : "other";
  return "Here:\n```json\n" +
    JSON.stringify({
      rubrics: [{ id: `${outcome}-named`, description: `Names ${outcome}`, weight: 2 }],
    }) + "\n```";
}

Deno.test("generate rubrics: YAML keeps comments, only cases without rubrics, --dry-run writes nothing", async () => {
  await using judge = startProviderServer("openai", {
    fallback: { type: "reply", text: generated },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.yaml": GEN_YAML,
  });
  const file = join(p.dir, "evals/ds.yaml");
  const dry = createBufferIO({ cwd: p.dir });
  assert.equal(
    await runCli(["generate", "rubrics", "evals/ds.yaml", "--dry-run"], dry),
    0,
    dry.err(),
  );
  assert.equal(await Deno.readTextFile(file), GEN_YAML, "dry run wrote the file");
  assert.match(dry.out(), /^\+.*paris-named/m);
  assert.ok(!/^-/m.test(dry.out().replace(/^--- .*$/m, "")), "nothing removed: " + dry.out());
  assert.equal(judge.requests.length, 1, "only the case without rubrics is asked about");
  assert.match(promptOf(judge.requests[0]).user, /Names Paris as the capital/);

  const io = createBufferIO({ cwd: p.dir });
  assert.equal(await runCli(["generate", "rubrics", "evals/ds.yaml"], io), 0, io.err());
  const text = await Deno.readTextFile(file);
  for (
    const keep of [
      "# Dataset header comment",
      "# trailing comment",
      "# first case: needs rubrics",
      "- Mentions Berlin # keep me",
    ]
  ) assert.ok(text.includes(keep), `lost ${keep}:\n${text}`);
  // the file still loads and the generated rubric is there
  const validate = createBufferIO({ cwd: p.dir });
  assert.equal(await runCli(["validate", "evals/ds.yaml"], validate), 0, validate.out());
  const { loadEvalCases } = await import("../../mod.ts");
  const cases = await loadEvalCases(file);
  const needs = cases.find((c) => c.id === "needs")!;
  const rubric = needs.evaluators.find((e) => e.type === "rubric" || e.type === "llm_judge");
  assert.match(JSON.stringify(rubric), /paris-named/);
  assert.match(JSON.stringify(cases.find((c) => c.id === "has")), /Mentions Berlin/);
  assert.ok(!JSON.stringify(cases.find((c) => c.id === "has")).includes("-named"));
});

Deno.test("generate rubrics: JSONL lines rewritten only for cases without rubrics", async () => {
  await using judge = startProviderServer("openai", {
    fallback: { type: "reply", text: generated },
  });
  const lines = [
    { id: "a", expected_outcome: "Names Paris", input: "Capital of France?" },
    { id: "b", expected_outcome: "Names Berlin", input: "Germany?", rubrics: ["Mentions Berlin"] },
    { id: "c", expected_outcome: "Names Rome", input: "Italy?" },
  ];
  const original = lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "evals/ds.jsonl": original,
    "evals/ds.yaml": "description: sidecar\n",
  });
  const dry = createBufferIO({ cwd: p.dir });
  assert.equal(await runCli(["generate", "rubrics", "evals/ds.jsonl", "--dry-run"], dry), 0);
  assert.equal(await Deno.readTextFile(join(p.dir, "evals/ds.jsonl")), original);
  assert.match(dry.out(), /rome-named/);

  const io = createBufferIO({ cwd: p.dir });
  assert.equal(await runCli(["generate", "rubrics", "evals/ds.jsonl"], io), 0, io.err());
  const after = (await Deno.readTextFile(join(p.dir, "evals/ds.jsonl"))).trim().split("\n");
  assert.equal(after.length, 3);
  assert.equal(after[1], JSON.stringify(lines[1]), "case with rubrics untouched");
  const a = JSON.parse(after[0]);
  const c = JSON.parse(after[2]);
  assert.equal(a.id, "a");
  assert.match(JSON.stringify(a.rubrics), /paris-named/);
  assert.match(JSON.stringify(c.rubrics), /rome-named/);
  assert.equal(judge.requests.length, 4, "2 in the dry run + 2 for real");
});

Deno.test("generate rubrics: --judge-target picks the writer; an unusable reply fails that case only", async () => {
  await using unused = startProviderServer("openai", { fallback: "never asked" });
  await using writer = startProviderServer("anthropic", {
    fallback: {
      type: "reply",
      text: (r) => promptOf(r).user.includes("Rome") ? "I'd rather not." : generated(r),
    },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(unused.url, {
      judge: [
        "  - name: writer",
        "    provider: anthropic",
        `    base_url: ${writer.url}`,
        "    api_key: sk-ant",
        "    model: claude-w",
        "    max_retries: 0",
      ].join("\n"),
    }),
    "evals/ds.jsonl": [
      JSON.stringify({ id: "a", outcome: "Names Paris", input: "France?" }),
      JSON.stringify({ id: "c", expected_outcome: "Names Rome", input: "Italy?" }),
      "",
    ].join("\n"),
  });
  const io = createBufferIO({ cwd: p.dir });
  const code = await runCli(
    ["generate", "rubrics", "evals/ds.jsonl", "--judge-target", "writer"],
    io,
  );
  assert.equal(code, 1, io.out() + io.err());
  assert.equal(unused.requests.length, 0);
  assert.equal(writer.requests.length, 1 + 3, "paris once, rome asked three times");
  assert.match(io.err(), /\bc\b.*3 attempts/);
  const [a, c] = (await Deno.readTextFile(join(p.dir, "evals/ds.jsonl"))).trim().split("\n")
    .map((l) => JSON.parse(l));
  assert.match(JSON.stringify(a.rubrics), /paris-named/);
  assert.equal(c.rubrics, undefined);
  assert.deepEqual(a.rubrics[0], {
    id: "paris-named",
    description: "Names paris",
    weight: 2,
    required: true,
  });
});

Deno.test("llm_judge: a prompt file is found like other references (parents up to the root)", async () => {
  await using judge = startProviderServer("openai", { fallback: FREEFORM });
  await using p = await project({
    ".agentv/targets.yaml": targets(judge.url),
    "prompts/grade.md": "FROM-ROOT {{ candidate_answer }}\n",
    "evals/sub/ds.yaml": evalFile([
      "      - type: llm_judge",
      "        prompt: prompts/grade.md",
    ].join("\n")),
  });
  const [row] = await run(p.dir, { file: "evals/sub/ds.yaml" });
  assert.equal(row.status, "ok", JSON.stringify(row.evaluator_results));
  assert.equal(
    promptOf(judge.requests[0]).user.trim(),
    "FROM-ROOT The capital of France is Paris.",
  );
});

Deno.test("corpus: weighted-evaluators, rubric, composite, field accuracy and metrics run via the CLI; missing code judges are evaluator errors", async () => {
  await using judge = startProviderServer("openai", {
    fallback: { type: "reply", text: markerJudge },
  });
  await using p = await project({ "targets.yaml": targets(judge.url) });
  const features = fileURLToPath(
    new URL("../../fixtures/corpus/agentv-examples/features/", import.meta.url),
  );
  for (
    const feature of [
      "weighted-evaluators",
      "rubric",
      "composite",
      "document-extraction/evals/dataset-field-accuracy.yaml",
      "execution-metrics",
    ]
  ) {
    const out = join(p.dir, `${feature.split("/")[0]}.jsonl`);
    const io = createBufferIO({ cwd: p.dir });
    const code = await runCli([
      "run",
      join(features, feature.endsWith(".yaml") ? feature : `${feature}/evals/dataset.yaml`),
      "--targets",
      join(p.dir, "targets.yaml"),
      "--target",
      "default",
      "--out",
      out,
      "--quiet",
    ], io);
    assert.ok(code === 0 || code === 1, `${feature}: exit ${code}\n${io.err()}`);
    const rows = (await Deno.readTextFile(out)).trim().split("\n").map((l) =>
      JSON.parse(l) as ResultRow
    );
    assert.ok(rows.length > 0);
    for (const row of rows) {
      if (row.status === "ok") continue;
      // only code judges the corpus does not ship may fail, as evaluator errors
      const flat = (rs: EvaluatorResult[]): EvaluatorResult[] =>
        rs.flatMap((r) => [r, ...flat(r.evaluator_results ?? [])]);
      const errors = flat(row.evaluator_results).filter((e) =>
        e.status === "error" && (e.evaluator_results ?? []).every((m) => m.status !== "error")
      );
      assert.ok(errors.length > 0, `${feature}/${row.eval_id}: ${row.error}`);
      for (const e of errors) {
        assert.ok(
          e.type === "code_judge" || e.type === "composite",
          `${feature}/${row.eval_id}: ${e.type} ${e.error}`,
        );
      }
    }
  }
});
