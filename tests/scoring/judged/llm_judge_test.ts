import assert from "node:assert/strict";
import { runEvaluator } from "../../../lib/scoring/run_evaluator.ts";
import type { EvaluatorConfig } from "../../../lib/schema/evaluator.ts";
import { startProviderServer } from "../../_helpers/provider_servers.ts";
import { makeCase } from "../_context.ts";
import { createJudgeClient } from "../../../lib/scoring/judge_client.ts";
import { judgedContext, judgeOver, judgeTarget, SECRET, userPrompt } from "./_judge.ts";

const judgeConfig = (extra: Record<string, unknown> = {}) =>
  ({ type: "llm_judge", name: "quality", weight: 1, ...extra }) as EvaluatorConfig;

Deno.test("llm_judge scores a well-formed JSON reply with the default template", async () => {
  await using server = startProviderServer("openai", {
    steps: [
      JSON.stringify({
        score: 0.7,
        hits: ["names Paris", " "],
        misses: ["no detail"],
        reasoning: "Mostly right.",
      }),
    ],
  });
  const result = await runEvaluator(judgeConfig(), judgedContext(judgeOver(server), "Paris."));
  assert.equal(result.status, "ok");
  assert.equal(result.type, "llm_judge");
  assert.equal(result.score, 0.7);
  assert.equal(result.verdict, "borderline");
  assert.deepEqual(result.hits, ["names Paris"]);
  assert.deepEqual(result.misses, ["no detail"]);
  assert.equal(result.reasoning, "Mostly right.");
  assert.equal(server.requests.length, 1);
  const body = server.requests[0].body;
  assert.equal(body.messages[0].role, "system");
  assert.match(body.messages[0].content, /"score": <number between 0\.0 and 1\.0>/);
  const user = userPrompt(body);
  assert.match(
    user,
    /\[\[ ## expected_outcome ## \]\]\nAnswers correctly\n\n\[\[ ## question ## \]\]\nWhat is the capital of France\?/,
  );
  assert.match(
    user,
    /\[\[ ## reference_answer ## \]\]\nParis\n\n\[\[ ## candidate_answer ## \]\]\nParis\.$/,
  );
  const recorded = result.evaluator_provider_request as Record<string, unknown>;
  assert.equal(recorded.target, "judge");
  assert.equal(recorded.model, "judge-model");
  assert.equal(recorded.attempts, 1);
  assert.equal(recorded.user_prompt, user);
  assert.equal(recorded.system_prompt, body.messages[0].content);
});

Deno.test("llm_judge reads JSON from a code fence surrounded by prose", async () => {
  await using server = startProviderServer("openai", {
    steps: [
      'Here is my grade {as requested}:\n```json\n{"score": 0.9, "hits": ["a"], "misses": [], "reasoning": "Good {x}."}\n```\nThanks!',
    ],
  });
  const result = await runEvaluator(judgeConfig(), judgedContext(judgeOver(server), "Paris"));
  assert.equal(result.status, "ok");
  assert.equal(result.score, 0.9);
  assert.equal(result.verdict, "pass");
  assert.equal(result.reasoning, "Good {x}.");
  assert.equal(server.requests.length, 1);
});

Deno.test("llm_judge re-asks after garbage and an out-of-range score, then uses the third reply", async () => {
  await using server = startProviderServer("openai", {
    steps: [
      "I would say it is quite good.",
      '{"score": 42}',
      '{"score": 0.25, "misses": ["wrong city"]}',
    ],
  });
  const result = await runEvaluator(judgeConfig(), judgedContext(judgeOver(server), "Lyon"));
  assert.equal(result.status, "ok");
  assert.equal(result.score, 0.25);
  assert.equal(result.verdict, "fail");
  assert.equal(server.requests.length, 3);
  assert.match(
    userPrompt(server.requests[1].body),
    /previous reply could not be used: the reply contained no JSON object/,
  );
  assert.match(userPrompt(server.requests[2].body), /score: score must be between 0\.0 and 1\.0/);
  assert.deepEqual(result.details, { judge_attempts: 3 });
});

Deno.test("llm_judge gives status error after three unusable replies, quoting the raw reply", async () => {
  await using server = startProviderServer("openai", {
    fallback: "Sorry, I cannot grade this answer.",
  });
  const result = await runEvaluator(judgeConfig(), judgedContext(judgeOver(server), "Paris"));
  assert.equal(server.requests.length, 3);
  assert.equal(result.status, "error");
  assert.equal(result.score, 0);
  assert.equal(result.verdict, "fail");
  assert.match(
    result.error!,
    /gave no usable reply after 3 attempts: the reply contained no JSON object/,
  );
  assert.match(result.error!, /raw reply: "Sorry, I cannot grade this answer\."/);
  assert.deepEqual(result.details, {
    judge_attempts: 3,
    raw_reply_excerpt: "Sorry, I cannot grade this answer.",
  });
});

Deno.test("llm_judge with a judge that cannot be reached is an error, not a score", async () => {
  await using server = startProviderServer("openai", { steps: [{ type: "status", status: 500 }] });
  const result = await runEvaluator(judgeConfig(), judgedContext(judgeOver(server), "Paris"));
  assert.equal(result.status, "error");
  assert.match(result.error!, /Judge 'judge' could not be reached/);
  assert.equal(server.requests.length, 1);
});

Deno.test("llm_judge fills {{ variables }} of a prompt file and sends the evaluator's model", async () => {
  await using server = startProviderServer("openai", { steps: ['{"score": 1}'] });
  const ctx = judgedContext(judgeOver(server), "  Paris  ", {
    evalCase: makeCase({
      expected_outcome: "Names the capital",
      expected_output: [{ role: "assistant", content: "Paris, France" }],
    }),
  });
  const result = await runEvaluator(
    judgeConfig({ prompt: "../prompts/custom.md", model: "gpt-judge-large" }),
    ctx,
  );
  assert.equal(result.status, "ok");
  const body = server.requests[0].body;
  assert.equal(body.model, "gpt-judge-large");
  assert.equal(
    userPrompt(body),
    "# Custom grader\n\nQuestion: What is the capital of France?\nOutcome: Names the capital\n" +
      "Reference: Paris, France\nAnswer: Paris\nUnknown stays: {{ not_a_variable }}\n",
  );
  assert.equal(
    (result.evaluator_provider_request as Record<string, unknown>).model,
    "gpt-judge-large",
  );
});

Deno.test("llm_judge uses inline prompt text as the template", async () => {
  await using server = startProviderServer("openai", { steps: ['{"score": 1}'] });
  await runEvaluator(
    judgeConfig({ prompt: "Is {{ candidate_answer }} right?" }),
    judgedContext(judgeOver(server), "Paris"),
  );
  assert.equal(userPrompt(server.requests[0].body), "Is Paris right?");
});

Deno.test("llm_judge with a prompt file that does not exist is an error naming it", async () => {
  await using server = startProviderServer("openai");
  const result = await runEvaluator(
    judgeConfig({ prompt: "../prompts/missing.md" }),
    judgedContext(judgeOver(server), "Paris"),
  );
  assert.equal(result.status, "error");
  assert.match(result.error!, /Prompt file '\.\.\/prompts\/missing\.md' was not found/);
  assert.equal(server.requests.length, 0);
});

Deno.test("llm_judge without a judge is an error naming the fix", async () => {
  const result = await runEvaluator(judgeConfig(), judgedContext(undefined, "Paris"));
  assert.equal(result.status, "error");
  assert.match(
    result.error!,
    /No judge for target 'mock': set judge_target: <name> on target 'mock'/,
  );
  assert.match(result.error!, /or pass --judge-target/);
});

Deno.test("the recorded judge request is redacted", async () => {
  await using server = startProviderServer("openai", { steps: ['{"score": 1}'] });
  const result = await runEvaluator(
    judgeConfig(),
    judgedContext(judgeOver(server), `my key is ${SECRET}`),
  );
  const recorded = JSON.stringify(result.evaluator_provider_request);
  assert.ok(!recorded.includes(SECRET));
  assert.match(recorded, /my key is \*\*\*/);
  assert.equal(server.requests[0].headers.authorization, `Bearer ${SECRET}`);
});

Deno.test("judge calls honour the judge target's temperature and max_tokens", async () => {
  await using server = startProviderServer("openai", { steps: ['{"score": 1}'] });
  await runEvaluator(
    judgeConfig(),
    judgedContext(judgeOver(server, "openai", { temperature: 0, max_tokens: 321 }), "Paris"),
  );
  assert.equal(server.requests[0].body.temperature, 0);
  assert.equal(server.requests[0].body.max_tokens, 321);
});

Deno.test("llm_judge works against the Anthropic wire format", async () => {
  await using server = startProviderServer("anthropic", {
    steps: ['Grade:\n```\n{"score": 0.6, "hits": ["ok"], "misses": ["terse"]}\n```'],
  });
  const result = await runEvaluator(
    judgeConfig(),
    judgedContext(judgeOver(server, "anthropic"), "Paris"),
  );
  assert.equal(result.status, "ok");
  assert.equal(result.score, 0.6);
  assert.equal(result.verdict, "borderline");
  const body = server.requests[0].body;
  const system = typeof body.system === "string"
    ? body.system
    : body.system.map((b: { text: string }) => b.text).join("");
  assert.match(system, /"score": <number between 0\.0 and 1\.0>/);
  assert.equal(server.requests[0].headers["x-api-key"], SECRET);
});

Deno.test("judge calls go through the target's retry policy (429 then a reply)", async () => {
  await using server = startProviderServer("openai", {
    steps: [{ type: "status", status: 429, retryAfter: "0" }, '{"score": 1}'],
  });
  const target = {
    ...judgeTarget(server),
    retry: {
      maxRetries: 2,
      initialDelayMs: 1,
      maxDelayMs: 5,
      backoffFactor: 2,
      retryStatusCodes: [429],
    },
  };
  const judge = createJudgeClient(target, { timeoutMs: 5_000 });
  const result = await runEvaluator(judgeConfig(), judgedContext(judge, "Paris"));
  assert.equal(result.status, "ok");
  assert.equal(result.score, 1);
  assert.equal(server.requests.length, 2);
  assert.equal((result.evaluator_provider_request as { attempts: number }).attempts, 2);
});
