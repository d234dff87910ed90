/**
 * Seed 004 (JSONL dataset format) and seed 003 (input / expected_output in JSONL): one test per
 * scenario, named after it. ("CLI works with both formats" is covered by the CLI tests.)
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { EvalLoadError } from "../../lib/dataset/errors.ts";
import { loadEvalCases } from "../../lib/dataset/load_eval_cases.ts";
import { load, only, seed } from "./_helpers.ts";

async function rejects(path: string): Promise<EvalLoadError> {
  try {
    await loadEvalCases(seed(path));
  } catch (e) {
    assert.ok(e instanceof EvalLoadError, String(e));
    return e;
  }
  throw new Error(`expected ${path} to fail`);
}

// --- JSONL File Format Detection ------------------------------------------------------------

Deno.test("Detect JSONL file by extension", async () => {
  // The same text as one YAML flow mapping per line would not be a YAML eval file: only the
  // JSONL parser reads it as a case.
  const c = await only("jsonl/detect/dataset.jsonl");
  assert.equal(c.id, "test-1");
  assert.deepEqual(c.input, [{ role: "user", content: "Query" }]);
});

Deno.test("Detect YAML file by extension", async () => {
  const c = await only("jsonl/detect/dataset.yml");
  assert.equal(c.id, "test-1");
  assert.equal(c.dataset, "dataset");
});

Deno.test("Reject unsupported file extensions", async () => {
  for (const file of ["jsonl/detect/dataset.json", "jsonl/detect/dataset.txt"]) {
    const e = await rejects(file);
    for (const ext of [".yaml", ".yml", ".jsonl"]) assert.ok(e.message.includes(ext), e.message);
    assert.equal(e.diagnostics[0].severity, "error");
  }
});

// --- JSONL Line Parsing ---------------------------------------------------------------------

Deno.test("Parse valid single-line JSONL", async () => {
  const c = await only("jsonl/single.jsonl");
  assert.equal(c.id, "test-1");
  assert.equal(c.expected_outcome, "Goal");
  assert.deepEqual(c.input, [{ role: "user", content: "Query" }]);
});

Deno.test("Parse multi-line JSONL", async () => {
  const { cases, diagnostics } = await load("jsonl/multi.jsonl");
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(cases.map((c) => [c.id, c.expected_outcome]), [
    ["test-1", "Goal 1"],
    ["test-2", "Goal 2"],
    ["test-3", "Goal 3"],
  ]);
});

Deno.test("Skip empty lines", async () => {
  const { cases, diagnostics } = await load("jsonl/blank_lines.jsonl");
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(cases.map((c) => c.id), ["test-1", "test-2", "test-3"]);
});

Deno.test("Error on malformed JSON", async () => {
  const e = await rejects("jsonl/malformed.jsonl");
  assert.ok(e.message.includes("Line 5: Invalid JSON"), e.message);
  // the platform parser's own detail
  let detail = "";
  try {
    JSON.parse(
      '{"id": "test-5", "expected_outcome": "Goal 5" "input_messages": [{"role": "user", "content": "Query"}]}',
    );
  } catch (err) {
    detail = (err as Error).message;
  }
  // The parser's detail, with the column within line 5, not the place of its one-line parse.
  const words = detail.replace(/ at position \d+.*$/, "");
  assert.ok(e.message.includes(`Line 5: Invalid JSON - ${words} (column 47)`), e.message);
  assert.doesNotMatch(e.message, /line 1 column|at position/);
  assert.equal(e.diagnostics[0].line, 5);
  assert.equal(e.diagnostics[0].column, 47);
});

Deno.test("Error on missing required fields", async () => {
  const { cases, diagnostics } = await load("jsonl/missing_outcome.jsonl");
  assert.deepEqual(cases.map((c) => c.id), ["test-1", "test-2", "test-4"]);
  assert.equal(diagnostics.length, 1);
  const [warning] = diagnostics;
  assert.equal(warning.severity, "warning");
  assert.ok(warning.message.includes("Line 3"), warning.message);
  assert.ok(warning.message.includes("missing expected_outcome"), warning.message);
  assert.equal(warning.line, 3);
});

// --- Sidecar Metadata File ------------------------------------------------------------------

Deno.test("Load metadata from sidecar YAML", async () => {
  const { cases } = await load("jsonl/sidecar/dataset.jsonl");
  const a = cases.find((c) => c.id === "a")!;
  assert.equal(a.dataset, "my-tests");
  assert.equal(a.execution.target, "azure_base");
  assert.equal(a.evaluator, "llm_judge");
  assert.ok(cases.every((c) => c.dataset === "my-tests"));
});

Deno.test("Use defaults when sidecar not found", async () => {
  const { cases, diagnostics } = await load("jsonl/no_sidecar/dataset.jsonl");
  assert.deepEqual(diagnostics, []);
  assert.equal(cases[0].dataset, "dataset");
  assert.deepEqual(cases[0].execution, { target: "default" });
  assert.equal(cases[0].evaluator, "llm_judge");
  assert.deepEqual(cases[0].evaluators, []);
});

Deno.test("Look for companion YAML with same base name", async () => {
  const c = await only("jsonl/evals/subfolder/mytest.jsonl");
  // mytest.yaml is read; dataset.yaml beside it is not
  assert.equal(c.dataset, "from-mytest-sidecar");
  assert.equal(c.execution.target, "default");
});

// --- Per-Case Field Overrides ---------------------------------------------------------------

Deno.test("Override execution target per case", async () => {
  const { cases } = await load("jsonl/sidecar/dataset.jsonl");
  assert.equal(cases.find((c) => c.id === "openai-test")!.execution.target, "openai_gpt4");
  assert.equal(cases.find((c) => c.id === "a")!.execution.target, "azure_base");
});

Deno.test("Override evaluators per case", async () => {
  const { cases } = await load("jsonl/sidecar/dataset.jsonl");
  const c = cases.find((c) => c.id === "rubric-test")!;
  assert.deepEqual(c.evaluators, [{
    name: "rubric",
    type: "rubric",
    weight: 1,
    rubrics: [{ id: "rubric-1", description: "Must be polite", weight: 1, required: true }],
  }]);
  assert.deepEqual(cases.find((c) => c.id === "a")!.evaluators, []);
});

Deno.test("Merge defaults with per-case fields", async () => {
  const { cases } = await load("jsonl/sidecar/dataset.jsonl");
  const c = cases.find((c) => c.id === "test")!;
  assert.equal(c.execution.target, "openai");
  assert.equal(c.evaluator, "llm_judge");
  assert.equal(c.dataset, "my-tests");
});

// --- File Reference Resolution --------------------------------------------------------------

Deno.test("Resolve relative file reference", async () => {
  const c = await only("jsonl/evals/tests/dataset.jsonl");
  const code = seed("jsonl/evals/tests/code.py");
  assert.deepEqual(c.input[0].content, [{
    type: "file",
    value: "./code.py",
    path: code,
    text: "def add(a, b):\n    return a + b\n",
  }]);
  assert.deepEqual(c.file_paths, [code]);
  assert.deepEqual(c.guideline_paths, []);
});

Deno.test("Resolve guideline files from JSONL", async () => {
  const { renderPrompt } = await import("../../lib/targets/render_prompt.ts");
  const c = await only("guidelines/evals/dataset.jsonl");
  const path = seed("guidelines/evals/python.instructions.md");
  assert.deepEqual(c.guideline_paths, [path]);
  assert.deepEqual(c.file_paths, [path]);
  const segment = (c.input[0].content as { guideline?: boolean }[])[0];
  assert.equal(segment.guideline, true);
  assert.equal(
    renderPrompt(c),
    '[[ ## Guidelines ## ]]\n\n<file path="python.instructions.md">\nAlways use type hints.\n</file>',
  );
});

// --- Schema Compatibility -------------------------------------------------------------------

Deno.test("JSONL and YAML produce same EvalCase", async () => {
  const fromYaml = await loadEvalCases(seed("jsonl/same/yaml/old.yaml"));
  const fromJsonl = await loadEvalCases(seed("jsonl/same/jsonl/old.jsonl"));
  assert.equal(fromYaml.length, 1);
  assert.deepStrictEqual(fromJsonl, fromYaml);
});

Deno.test("All eval case fields supported in JSONL", async () => {
  const c = await only("jsonl/full/dataset.jsonl");
  assert.equal(c.id, "full-test");
  assert.equal(c.conversation_id, "conv-1");
  assert.equal(c.expected_outcome, "Goal");
  assert.deepEqual(c.input, [
    { role: "system", content: "Be brief" },
    { role: "user", content: "Query" },
  ]);
  assert.deepEqual(c.expected_output, [{
    role: "assistant",
    content: "Answer",
    tool_calls: [{ tool: "search", input: { q: "x" } }],
  }]);
  assert.deepEqual(c.execution, { target: "azure" });
  assert.deepEqual(c.evaluators, [
    {
      name: "rubric",
      type: "rubric",
      weight: 1,
      rubrics: [
        { id: "rubric-1", description: "Is brief", weight: 1, required: true },
        { id: "polite", description: "Is polite", weight: 2, required: false },
      ],
    },
    {
      name: "kw",
      type: "contains",
      weight: 1,
      value: "Answer",
      mode: "all",
      case_sensitive: true,
    },
  ]);
});

// --- Error Reporting ------------------------------------------------------------------------

Deno.test("Line number in parse errors", async () => {
  const e = await rejects("jsonl/line42.jsonl");
  assert.ok(e.message.includes("Line 42"), e.message);
  assert.match(e.message, /Invalid JSON - .+/);
  assert.equal(e.diagnostics.length, 1);
  assert.equal(e.diagnostics[0].line, 42);
});

Deno.test("Field validation errors reference line", async () => {
  const { cases, diagnostics } = await load("jsonl/line10.jsonl");
  assert.equal(cases.length, 10);
  const error = diagnostics.find((d) => d.severity === "error");
  assert.ok(error);
  assert.ok(error.message.includes("Line 10"), error.message);
  assert.ok(error.message.includes("input_messages"), error.message);
  assert.ok(error.message.includes("array of messages, found a string"), error.message);
  assert.equal(error.line, 10);
  assert.equal(error.path, "input_messages");
});

Deno.test("Sidecar not found is a warning, not error", async () => {
  const { cases, diagnostics } = await load("jsonl/no_sidecar/dataset.jsonl", { verbose: true });
  assert.equal(cases.length, 1);
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0].severity, "warning");
  assert.match(diagnostics[0].message, /Sidecar metadata file not found: .*dataset\.yaml/);
});

// --- Backward Compatibility -----------------------------------------------------------------

Deno.test("Existing YAML files work unchanged", async () => {
  const { cases, diagnostics } = await load("jsonl/same/yaml/old.yaml");
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(cases, [{
    id: "test-1",
    dataset: "old",
    expected_outcome: "Goal",
    input: [{ role: "user", content: "Query" }],
    expected_output: [],
    execution: { target: "default" },
    evaluator: "llm_judge",
    evaluators: [],
    guideline_paths: [],
    file_paths: [],
  }]);
});

Deno.test("Mixed YAML and JSONL in same repo", async () => {
  const yaml = await only("jsonl/mixed/evals/test1.yaml");
  const jsonl = await only("jsonl/mixed/evals/test2.jsonl");
  assert.equal(yaml.id, "y1");
  assert.equal(jsonl.id, "j1");
  assert.equal(
    dirname(seed("jsonl/mixed/evals/test1.yaml")),
    dirname(seed("jsonl/mixed/evals/test2.jsonl")),
  );
});

// --- seed 003 -------------------------------------------------------------------------------

Deno.test("String input in JSONL", async () => {
  const c = await only("jsonl/new_fields/string_input.jsonl");
  assert.deepEqual(c.input, [{ role: "user", content: "What is 2+2?" }]);
});

Deno.test("Array input in JSONL", async () => {
  const c = await only("jsonl/new_fields/array_input.jsonl");
  assert.deepEqual(c.input, [{ role: "user", content: "Query" }]);
});

Deno.test("input_messages alias in JSONL", async () => {
  const c = await only("jsonl/new_fields/input_messages.jsonl");
  assert.deepEqual(c.input, [{ role: "user", content: "Query" }]);
});

Deno.test("String expected_output in JSONL", async () => {
  const c = await only("jsonl/new_fields/string_expected.jsonl");
  assert.deepEqual(c.expected_output, [{ role: "assistant", content: "Answer" }]);
});

Deno.test("Object expected_output in JSONL", async () => {
  const c = await only("jsonl/new_fields/object_expected.jsonl");
  assert.deepEqual(c.expected_output, [{ role: "assistant", content: { riskLevel: "High" } }]);
});

Deno.test("Array expected_output in JSONL", async () => {
  const c = await only("jsonl/new_fields/array_expected.jsonl");
  assert.deepEqual(c.expected_output, [{
    role: "assistant",
    tool_calls: [{ tool: "Read", input: { file_path: "config.json" } }],
  }]);
});

Deno.test("expected_messages alias in JSONL", async () => {
  const c = await only("jsonl/new_fields/expected_messages.jsonl");
  assert.deepEqual(c.expected_output, [{ role: "assistant", content: "Answer" }]);
});

Deno.test("JSONL and YAML produce same EvalCase with new fields", async () => {
  const fromYaml = await loadEvalCases(seed("jsonl/same/yaml/new.yaml"));
  const fromJsonl = await loadEvalCases(seed("jsonl/same/jsonl/new.jsonl"));
  assert.equal(fromYaml.length, 1);
  assert.deepStrictEqual(fromJsonl, fromYaml);
});
