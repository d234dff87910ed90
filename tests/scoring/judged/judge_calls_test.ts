/** Judged evaluators: judge target selection, retries, timeouts, reply parsing, recorded requests. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type ResultRow, type RunConfigError, runEval } from "../../../mod.ts";
import { runCli } from "../../../lib/cli/app.ts";
import { createBufferIO } from "../../cli/_buffer_io.ts";
import { startProviderServer } from "../../_helpers/provider_servers.ts";
import { evalFile, evaluator, FREEFORM, project, promptOf, run, targets } from "./_helpers.ts";

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
  // ${{ JUDGE_KEY }} goes to a loopback judge: the dataset's targets file needs consent.
  const [row] = await run(p.dir, { env: { JUDGE_KEY: "sk-SECRET-999" }, allowRun: true });
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
