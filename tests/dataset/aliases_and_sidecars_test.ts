/** Loader: aliases and their precedence, shorthands, sidecar defaults and execution merging. */
import assert from "node:assert/strict";
import { validateEvalFile } from "../../mod.ts";
import { dataset, line, load, yamlCase } from "./_helpers.ts";

Deno.test("new names win over aliases, even over an alias whose value is invalid", async () => {
  await using ds = await dataset({
    "a.yaml": [
      "evalcases:",
      "  - id: both",
      "    expected_outcome: Goal",
      "    outcome: Ignored outcome",
      '    input: "New query"',
      "    input_messages:",
      "      - role: user",
      '        content: "Old query"',
      "    expected_output: { riskLevel: High }",
      "    expected_messages:",
      "      - role: assistant",
      '        content: "Old answer"',
      "  - id: invalid-alias",
      "    expected_outcome: Goal",
      "    input: x",
      "    input_messages: not-a-list",
      "    expected_output: y",
      "    expected_messages: 42",
      "",
    ].join("\n"),
  });
  const { cases, diagnostics } = await load(ds.path("a.yaml"));
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(cases.map((c) => c.id), ["both", "invalid-alias"]);
  assert.equal(cases[0].expected_outcome, "Goal");
  assert.deepEqual(cases[0].input, [{ role: "user", content: "New query" }]);
  assert.deepEqual(cases[0].expected_output, [{
    role: "assistant",
    content: { riskLevel: "High" },
  }]);
  assert.deepEqual(cases[1].input, [{ role: "user", content: "x" }]);
  assert.deepEqual(cases[1].expected_output, [{ role: "assistant", content: "y" }]);
});

Deno.test("shorthands, aliases and tool calls load the same from YAML and JSONL", async () => {
  const toolCalls = [
    { role: "assistant", tool_calls: [{ tool: "Read", input: { file_path: "config.json" } }] },
    { role: "assistant", content: { status: "done" } },
  ];
  await using ds = await dataset({
    "a.jsonl": [
      line({ id: "s", expected_outcome: "Goal", input: "What is 2+2?", expected_output: "4" }),
      line({ id: "o", outcome: "Goal", input: "Q", expected_output: { riskLevel: "High" } }),
      line({ id: "m", expected_outcome: "Goal", input: "Q", expected_output: toolCalls }),
      line({
        id: "alias",
        expected_outcome: "Goal",
        input_messages: [{ role: "user", content: "Query" }],
        expected_messages: [{ role: "assistant", content: "Answer" }],
      }),
      line({
        id: "no-input",
        expected_outcome: "Goal",
        input: "Q",
        expected_output: [{ role: "assistant", tool_calls: [{ tool: "knowledgeSearch" }] }],
      }),
    ].join("\n"),
  });
  const { cases, diagnostics } = await load(ds.path("a.jsonl"));
  assert.deepEqual(diagnostics, []);
  const byId = new Map(cases.map((c) => [c.id, c]));
  assert.deepEqual(byId.get("s")!.input, [{ role: "user", content: "What is 2+2?" }]);
  assert.deepEqual(byId.get("s")!.expected_output, [{ role: "assistant", content: "4" }]);
  assert.equal(byId.get("o")!.expected_outcome, "Goal");
  assert.deepEqual(byId.get("o")!.expected_output, [{
    role: "assistant",
    content: { riskLevel: "High" },
  }]);
  assert.deepEqual(byId.get("m")!.expected_output, toolCalls);
  assert.deepEqual(byId.get("alias")!.input, [{ role: "user", content: "Query" }]);
  assert.deepEqual(byId.get("alias")!.expected_output, [{ role: "assistant", content: "Answer" }]);
  assert.deepEqual(byId.get("no-input")!.expected_output[0].tool_calls, [{
    tool: "knowledgeSearch",
  }]);
});

Deno.test("the sidecar gives defaults; per-case fields override for that case only", async () => {
  await using ds = await dataset({
    "evals/dataset.jsonl": [
      line({ id: "plain", expected_outcome: "G", input: "Q" }),
      line({ id: "target", expected_outcome: "G", input: "Q", execution: { target: "openai" } }),
      line({
        id: "rubric-test",
        expected_outcome: "G",
        input: "Q",
        evaluators: [{ type: "rubric", rubrics: ["Must be polite"] }],
      }),
      line({ id: "inline", expected_outcome: "G", input: "Q", rubrics: ["Is short"] }),
      line({ id: "after", expected_outcome: "G", input: "Q" }),
    ].join("\n"),
    "evals/dataset.yaml": [
      "description: Test dataset",
      "dataset: my-tests",
      "execution:",
      "  target: azure_base",
      "  evaluators:",
      "    - type: contains",
      "      value: x",
      "evaluator: llm_judge",
      "",
    ].join("\n"),
  });
  const { cases, diagnostics } = await load(ds.path("evals/dataset.jsonl"), { verbose: true });
  assert.deepEqual(diagnostics, []);
  const byId = new Map(cases.map((c) => [c.id, c]));
  for (const c of cases) {
    assert.equal(c.dataset, "my-tests");
    assert.equal(c.evaluator, "llm_judge");
  }
  assert.deepEqual(byId.get("plain")!.execution, { target: "azure_base" });
  assert.deepEqual(byId.get("target")!.execution, { target: "openai" });
  assert.deepEqual(byId.get("after")!.execution, { target: "azure_base" });
  assert.deepEqual(byId.get("plain")!.evaluators.map((e) => e.type), ["contains"]);
  assert.deepEqual(byId.get("rubric-test")!.evaluators.map((e) => e.type), ["rubric"]);
  assert.deepEqual(byId.get("after")!.evaluators.map((e) => e.type), ["contains"]);
  assert.equal(byId.get("inline")!.evaluators[0].type, "rubric");
});

Deno.test("without a sidecar: defaults, a warning only when verbose, only <stem>.yaml is a sidecar", async () => {
  await using ds = await dataset({
    "evals/subfolder/mytest.jsonl": line({ id: "a", expected_outcome: "G", input: "Q" }),
    "evals/subfolder/dataset.yaml": "dataset: wrong\n",
    "evals/subfolder/mytest.yml": "dataset: wrong-too\n",
  });
  const path = ds.path("evals/subfolder/mytest.jsonl");
  const quiet = await load(path);
  assert.deepEqual(quiet.diagnostics, []);
  const c = quiet.cases[0];
  assert.equal(c.dataset, "mytest");
  assert.deepEqual(c.execution, { target: "default" });
  assert.equal(c.evaluator, "llm_judge");
  assert.deepEqual(c.evaluators, []);
  assert.equal("description" in c, false);
  const verbose = await load(path, { verbose: true });
  assert.equal(verbose.cases.length, 1);
  assert.equal(verbose.diagnostics.length, 1);
  assert.equal(verbose.diagnostics[0].severity, "warning");
  assert.match(verbose.diagnostics[0].message, /sidecar/i);
  assert.match(verbose.diagnostics[0].message, /mytest\.yaml/);
  const report = await validateEvalFile(path, { verbose: true });
  assert.equal(report.valid, true);
});

Deno.test("a typo in a sidecar is a warning naming the key, not silently ignored", async () => {
  await using ds = await dataset({
    "d.jsonl": line({ id: "a", expected_outcome: "G", input: "Q" }),
    "d.yaml": "execuiton:\n  target: x\n",
  });
  const { cases, diagnostics } = await load(ds.path("d.jsonl"));
  assert.equal(cases.length, 1);
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0].severity, "warning");
  assert.equal(diagnostics[0].line, 1);
  assert.match(diagnostics[0].message, /execuiton/);
  assert.match(diagnostics[0].message, /did you mean 'execution'/);
});

Deno.test("a case's execution is merged over the file's; evaluator lists inherit", async () => {
  await using ds = await dataset({
    "a.yaml": [
      "execution:",
      "  target: base",
      "  evaluators:",
      "    - type: is_json",
      "evalcases:",
      yamlCase("inherit"),
      yamlCase("merge", "    execution: {}\n"),
      yamlCase("target", "    execution: { target: other }\n"),
      yamlCase("own", "    evaluators: [{ type: equals, value: y }]\n"),
      yamlCase("empty", "    evaluators: []\n"),
    ].join("\n"),
  });
  const { cases, diagnostics } = await load(ds.path("a.yaml"));
  assert.deepEqual(diagnostics, []);
  const byId = new Map(cases.map((c) => [c.id, c]));
  assert.deepEqual(byId.get("inherit")!.execution, { target: "base" });
  assert.deepEqual(byId.get("merge")!.execution, { target: "base" });
  assert.deepEqual(byId.get("target")!.execution, { target: "other" });
  assert.deepEqual(byId.get("inherit")!.evaluators.map((e) => e.type), ["is_json"]);
  assert.deepEqual(byId.get("merge")!.evaluators.map((e) => e.type), ["is_json"]);
  assert.deepEqual(byId.get("own")!.evaluators.map((e) => e.type), ["equals"]);
  assert.deepEqual(byId.get("empty")!.evaluators, []);
  assert.equal(byId.get("empty")!.evaluator, "llm_judge");
});
