/**
 * Seed 001 (yaml-schema) and seed 000 (input / expected_output fields): one test per scenario,
 * named after it.
 */
import assert from "node:assert/strict";
import { type EvaluationScore, EvaluationScoreSchema } from "../../lib/schema/result.ts";
import { load, only } from "./_helpers.ts";

// --- seed 001 -------------------------------------------------------------------------------

Deno.test("Parse expected_outcome", async () => {
  const c = await only("yaml/expected_outcome.yaml");
  assert.equal(c.expected_outcome, "Goal");
});

Deno.test("Parse outcome alias", async () => {
  const c = await only("yaml/outcome_alias.yaml");
  assert.equal(c.expected_outcome, "Goal");
});

Deno.test("Inline Rubrics Definition", async () => {
  const c = await only("yaml/inline_rubrics.yaml");
  assert.deepEqual(c.evaluators, [{
    name: "rubric",
    type: "rubric",
    weight: 1,
    rubrics: [{ id: "rubric-1", description: "Must be polite", weight: 1, required: true }],
  }]);
});

Deno.test("Explicit Configuration", async () => {
  const c = await only("yaml/explicit_rubric.yaml");
  assert.equal(c.evaluators.length, 1);
  const e = c.evaluators[0];
  assert.equal(e.type, "rubric");
  assert.equal(e.name, "rubric");
  assert.ok(e.type === "rubric");
  assert.equal(e.model, "gpt-4");
  assert.deepEqual(e.rubrics, [{
    id: "rubric-1",
    description: "Must be polite",
    weight: 1,
    required: true,
  }]);
});

Deno.test("Score Type", () => {
  // Type level: `verdict` is optional and limited to the three values.
  const withVerdict: EvaluationScore = { score: 1, verdict: "borderline", hits: [], misses: [] };
  const without: EvaluationScore = { score: 0.5, hits: [], misses: [] };
  type Verdict = NonNullable<EvaluationScore["verdict"]>;
  const all: Verdict[] = ["pass", "fail", "borderline"];
  // @ts-expect-error: "maybe" is not a verdict
  const bad: Verdict = "maybe";
  // Runtime: the schema accepts the three verdicts, an absent one, and nothing else.
  for (const verdict of all) {
    assert.ok(EvaluationScoreSchema.safeParse({ ...without, verdict }).success);
  }
  assert.ok(EvaluationScoreSchema.safeParse(withVerdict).success);
  assert.ok(EvaluationScoreSchema.safeParse(without).success);
  assert.equal(EvaluationScoreSchema.safeParse({ ...without, verdict: bad }).success, false);
});

Deno.test("Assistant message with tool calls", async () => {
  const c = await only("yaml/tool_calls.yaml");
  assert.equal(c.expected_output.length, 3);
  const [user, searching, answer] = c.expected_output;
  assert.equal(user.role, "user");
  assert.equal(searching.role, "assistant");
  assert.equal(searching.content, "Let me search for that information...");
  assert.deepEqual(searching.tool_calls, [
    {
      tool: "knowledgeSearch",
      input: { query: "branch deactivation process" },
      output: "Found documentation...",
    },
    { tool: "knowledgeSearch", input: { query: "block style", limit: 3 } },
  ]);
  assert.ok(!("args" in searching.tool_calls![0]));
  assert.equal(answer.content, "Based on the search results...");
});

Deno.test("Tool calls without input", async () => {
  const c = await only("yaml/tool_calls_without_input.yaml");
  assert.deepEqual(c.expected_output, [{
    role: "assistant",
    tool_calls: [{ tool: "knowledgeSearch" }],
  }]);
});

Deno.test("Configure tool_trajectory evaluator with minimums", async () => {
  const c = await only("yaml/trajectory_minimums.yaml");
  const e = c.evaluators[0];
  assert.equal(e.type, "tool_trajectory");
  assert.ok(e.type === "tool_trajectory");
  assert.equal(e.name, "minimum_search_calls");
  assert.equal(e.mode, "any_order");
  assert.deepEqual(e.minimums, { knowledgeSearch: 3 });
});

Deno.test("Configure tool_trajectory evaluator with expected sequence", async () => {
  const c = await only("yaml/trajectory_expected.yaml");
  const e = c.evaluators[0];
  assert.ok(e.type === "tool_trajectory");
  assert.equal(e.mode, "in_order");
  assert.deepEqual(e.expected, [
    { tool: "knowledgeSearch" },
    { tool: "knowledgeSearch" },
    { tool: "knowledgeSearch" },
  ]);
});

Deno.test("Reject invalid tool_trajectory mode", async () => {
  const { cases, diagnostics } = await load("yaml/trajectory_invalid_mode.yaml");
  assert.equal(cases.length, 0);
  const error = diagnostics.find((d) => d.severity === "error");
  assert.ok(error, JSON.stringify(diagnostics));
  for (const mode of ["any_order", "in_order", "exact"]) {
    assert.match(error.message, new RegExp(mode));
  }
  assert.equal(error.path, "evalcases[0].evaluators[0].mode");
  assert.equal(error.line, 7);
  assert.equal(error.column, 15);
});

Deno.test("Parse evaluator weight", async () => {
  const c = await only("yaml/weight.yaml");
  assert.equal(c.evaluators[0].weight, 3);
  assert.equal(c.evaluators[0].name, "safety");
});

Deno.test("Reject negative weight", async () => {
  const { cases, diagnostics } = await load("yaml/weight_negative.yaml");
  assert.equal(cases.length, 0);
  const error = diagnostics.find((d) => d.severity === "error");
  assert.ok(error);
  assert.match(error.message, /weight/);
  assert.match(error.message, />= 0/);
  assert.equal(error.path, "evalcases[0].evaluators[0].weight");
  assert.deepEqual([error.line, error.column], [8, 17]);
});

Deno.test("Reject non-numeric weight", async () => {
  const { cases, diagnostics } = await load("yaml/weight_non_numeric.yaml");
  assert.equal(cases.length, 0);
  const error = diagnostics.find((d) => d.severity === "error");
  assert.ok(error);
  assert.match(error.message, /weight must be a number/);
  assert.equal(error.path, "evalcases[0].evaluators[0].weight");
});

// --- seed 000 -------------------------------------------------------------------------------

Deno.test("String shorthand for single user query", async () => {
  const c = await only("yaml/input_string.yaml");
  assert.deepEqual(c.input, [{ role: "user", content: "What is 2+2?" }]);
});

Deno.test("Full message array", async () => {
  const c = await only("yaml/input_array.yaml");
  assert.deepEqual(c.input, [
    { role: "system", content: "You are a calculator" },
    { role: "user", content: "What is 2+2?" },
  ]);
});

Deno.test("input_messages alias", async () => {
  const c = await only("yaml/input_messages_alias.yaml");
  assert.deepEqual(c.input, [{ role: "user", content: "Query" }]);
});

Deno.test("String shorthand", async () => {
  const c = await only("yaml/expected_string.yaml");
  assert.deepEqual(c.expected_output, [{ role: "assistant", content: "The answer is 4" }]);
});

Deno.test("Structured object", async () => {
  const c = await only("yaml/expected_object.yaml");
  assert.deepEqual(c.expected_output, [{
    role: "assistant",
    content: { riskLevel: "High", reasoning: "Explanation" },
  }]);
});

Deno.test("Full message array with tool calls", async () => {
  const c = await only("yaml/expected_tool_calls.yaml");
  assert.deepEqual(c.expected_output, [
    { role: "assistant", tool_calls: [{ tool: "Read", input: { file_path: "config.json" } }] },
    { role: "assistant", content: { status: "done" } },
  ]);
});

Deno.test("expected_messages alias", async () => {
  const c = await only("yaml/expected_messages_alias.yaml");
  assert.deepEqual(c.expected_output, [{ role: "assistant", content: "Answer" }]);
});

Deno.test("Both input and input_messages specified", async () => {
  const c = await only("yaml/both_inputs.yaml");
  assert.deepEqual(c.input, [{ role: "user", content: "New query" }]);
});

Deno.test("Both expected_output and expected_messages specified", async () => {
  const c = await only("yaml/both_expected.yaml");
  assert.deepEqual(c.expected_output, [{ role: "assistant", content: { riskLevel: "High" } }]);
});
