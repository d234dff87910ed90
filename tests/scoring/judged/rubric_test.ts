import assert from "node:assert/strict";
import { aggregateCaseScore } from "../../../lib/scoring/case_score.ts";
import { rubricPrompt, scoreRubrics } from "../../../lib/scoring/rubric.ts";
import { runEvaluator } from "../../../lib/scoring/run_evaluator.ts";
import type { EvaluatorConfig, Rubric } from "../../../lib/schema/evaluator.ts";
import { startProviderServer } from "../../_helpers/provider_servers.ts";
import { judgedContext, judgeOver, userPrompt } from "./_judge.ts";

// The corpus's "technical-writing-detailed" rubrics: total weight 7.5.
const HTTP_RUBRICS: Rubric[] = [
  {
    id: "structure",
    description: "Has clear headings and organization",
    weight: 1,
    required: true,
  },
  {
    id: "success-codes",
    description: "Covers 2xx success codes with examples",
    weight: 2,
    required: true,
  },
  {
    id: "client-errors",
    description: "Explains 4xx client error codes",
    weight: 2,
    required: true,
  },
  {
    id: "server-errors",
    description: "Explains 5xx server error codes",
    weight: 1.5,
    required: false,
  },
  {
    id: "practical-examples",
    description: "Includes practical use case examples",
    weight: 1,
    required: false,
  },
];

const check = (id: string, satisfied: boolean, reasoning = "r") => ({ id, satisfied, reasoning });
const rubricConfig = (rubrics: Rubric[], extra: Record<string, unknown> = {}) =>
  ({ type: "rubric", name: "rubric", weight: 1, rubrics, ...extra }) as EvaluatorConfig;

Deno.test("rubric score is satisfied weight over the weight of all rubrics", () => {
  const s = scoreRubrics(HTTP_RUBRICS, {
    checks: [
      check("structure", true),
      check("success-codes", true),
      check("client-errors", true),
      check("server-errors", false),
      check("practical-examples", false),
    ],
    overall_reasoning: "",
  });
  assert.equal(s.score, 5 / 7.5);
  assert.equal(s.verdict, "borderline");
  assert.deepEqual(s.failed_required, []);
  assert.deepEqual(s.hits, [
    "[structure] Has clear headings and organization: r",
    "[success-codes] Covers 2xx success codes with examples: r",
    "[client-errors] Explains 4xx client error codes: r",
  ]);
  assert.equal(s.misses.length, 2);
});

Deno.test("an unanswered rubric counts as unsatisfied with a miss saying so", () => {
  const s = scoreRubrics(HTTP_RUBRICS, {
    checks: [
      check("structure", true),
      check("success-codes", true),
      check("client-errors", true),
      check("server-errors", true),
    ],
    overall_reasoning: "",
  });
  assert.equal(s.score, 6.5 / 7.5);
  assert.equal(s.verdict, "pass");
  assert.deepEqual(s.unanswered, ["practical-examples"]);
  assert.deepEqual(s.misses, [
    "[practical-examples] Includes practical use case examples: not answered by the judge (counted as not satisfied)",
  ]);
});

Deno.test("duplicate answers count once (the first) and unknown ids are ignored", () => {
  const rubrics: Rubric[] = [
    { id: "a", description: "A", weight: 1, required: false },
    { id: "b", description: "B", weight: 1, required: false },
  ];
  const s = scoreRubrics(rubrics, {
    checks: [
      check("a", true),
      check("a", true),
      check("a", false),
      check("zzz", true),
      check("b", false),
    ],
    overall_reasoning: "",
  });
  assert.equal(s.score, 0.5);
  assert.deepEqual(s.duplicate_checks, ["a"]);
  assert.deepEqual(s.unknown_checks, ["zzz"]);
  assert.equal(s.hits.length, 1);
});

Deno.test("a failed required rubric forces verdict fail whatever the score", () => {
  const s = scoreRubrics(HTTP_RUBRICS, {
    checks: [
      check("structure", false),
      check("success-codes", true),
      check("client-errors", true),
      check("server-errors", true),
      check("practical-examples", true),
    ],
    overall_reasoning: "",
  });
  assert.equal(s.score, 6.5 / 7.5);
  assert.equal(s.verdict, "fail");
  assert.deepEqual(s.failed_required, ["structure"]);
});

Deno.test("all-zero rubric weights count each rubric once", () => {
  const s = scoreRubrics([
    { id: "a", description: "A", weight: 0, required: false },
    { id: "b", description: "B", weight: 0, required: false },
    { id: "c", description: "C", weight: 0, required: false },
  ], { checks: [check("a", true), check("b", true), check("c", false)], overall_reasoning: "" });
  assert.equal(s.score, 2 / 3);
});

Deno.test("rubric prompt lists rubrics with REQUIRED and weight markers", () => {
  const p = rubricPrompt(
    { question: "Q?", expected_outcome: "E", reference_answer: "", candidate_answer: "A" },
    HTTP_RUBRICS.slice(2, 5),
  );
  assert.equal(
    p,
    "You are an expert evaluator. Evaluate the candidate answer against each rubric item below.\n\n" +
      "[[ ## question ## ]]\nQ?\n\n[[ ## expected_outcome ## ]]\nE\n\n[[ ## candidate_answer ## ]]\nA\n\n" +
      "[[ ## rubrics ## ]]\n- [client-errors] (REQUIRED) (weight: 2): Explains 4xx client error codes\n" +
      "- [server-errors] (weight: 1.5): Explains 5xx server error codes\n" +
      "- [practical-examples]: Includes practical use case examples\n\n" +
      "For each rubric, determine if it is satisfied and provide brief reasoning.",
  );
});

Deno.test("rubric evaluator: partial answer, duplicates and a failed required rubric through the judge", async () => {
  const reply = {
    checks: [
      check("structure", true, "headings"),
      check("success-codes", true),
      check("success-codes", true),
      check("client-errors", false, "no 4xx"),
    ],
    overall_reasoning: "Misses 4xx.",
  };
  await using server = startProviderServer("openai", {
    steps: ["```json\n" + JSON.stringify(reply) + "\n```"],
  });
  const result = await runEvaluator(
    rubricConfig(HTTP_RUBRICS, { model: "rubric-model" }),
    judgedContext(judgeOver(server), "guide"),
  );
  assert.equal(result.status, "ok");
  assert.equal(result.type, "rubric");
  assert.equal(result.score, 3 / 7.5);
  assert.equal(result.verdict, "fail");
  assert.equal(result.reasoning, "Misses 4xx.");
  assert.deepEqual(result.details, {
    forces_fail: "required rubric 'client-errors' (Explains 4xx client error codes) not satisfied",
    unanswered: ["server-errors", "practical-examples"],
    duplicate_checks: ["success-codes"],
  });
  assert.equal(server.requests[0].body.model, "rubric-model");
  assert.match(
    userPrompt(server.requests[0].body),
    /- \[structure\] \(REQUIRED\): Has clear headings/,
  );
  assert.match(
    server.requests[0].body.messages[0].content,
    /"overall_reasoning": "string \(summary\)"/,
  );

  // The case verdict is forced to fail when the rubric evaluator counts (weight > 0) ...
  const other = {
    ...result,
    name: "other",
    type: "contains",
    score: 1,
    details: undefined,
    verdict: "pass" as const,
    hits: [],
    misses: [],
  };
  const counted = aggregateCaseScore([result, other]);
  assert.equal(counted.score, (3 / 7.5 + 1) / 2);
  assert.equal(counted.verdict, "fail");
  assert.match(counted.forced_by!, /rubric: required rubric 'client-errors'/);
  // ... and not when it has weight 0 (reported only).
  const uncounted = aggregateCaseScore([{ ...result, weight: 0 }, other]);
  assert.equal(uncounted.verdict, "pass");
  assert.deepEqual(uncounted.misses, []);
});

Deno.test("llm_judge with rubrics runs in rubric mode", async () => {
  await using server = startProviderServer("anthropic", {
    steps: [JSON.stringify({ checks: [check("rubric-1", true)], overall_reasoning: "ok" })],
  });
  const result = await runEvaluator(
    {
      type: "llm_judge",
      name: "polite",
      weight: 1,
      rubrics: [{ id: "rubric-1", description: "Is polite", weight: 1, required: true }],
    } as EvaluatorConfig,
    judgedContext(judgeOver(server, "anthropic"), "Hello!"),
  );
  assert.equal(result.status, "ok");
  assert.equal(result.score, 1);
  assert.deepEqual(result.hits, ["[rubric-1] Is polite: r"]);
  assert.match(JSON.stringify(server.requests[0].body.system), /checks/);
});

Deno.test("rubric evaluator: a reply without checks is re-asked, then an error", async () => {
  await using server = startProviderServer("openai", {
    fallback: '{"score": 1, "reasoning": "looks fine"}',
  });
  const result = await runEvaluator(
    rubricConfig(HTTP_RUBRICS),
    judgedContext(judgeOver(server), "guide"),
  );
  assert.equal(server.requests.length, 3);
  assert.equal(result.status, "error");
  assert.match(result.error!, /checks: checks must be an array of rubric checks/);
  assert.match(result.error!, /raw reply: "\{"score": 1, "reasoning": "looks fine"\}"/);
});
