/** Loader: the same dataset written in YAML and in JSONL loads deep-equal. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadEvalCases, renderPrompt } from "../../mod.ts";
import { dataset, EQUIV, line, load } from "./_helpers.ts";

Deno.test("YAML and JSONL with file refs, guidelines and evaluators load deep-equal", async () => {
  const yaml = await load(join(EQUIV, "evals/sub/cases.yaml"));
  const jsonl = await load(join(EQUIV, "evals/sub/cases_jsonl.jsonl"), { verbose: true });
  assert.deepEqual(yaml.diagnostics, []);
  assert.deepEqual(jsonl.diagnostics, []);
  assert.equal(yaml.cases.length, 2);
  assert.deepEqual(jsonl.cases, yaml.cases);

  const review = yaml.cases[0];
  assert.equal(review.conversation_id, "conv-1");
  assert.equal(review.dataset, "shared");
  assert.deepEqual(review.execution, { target: "openai_gpt4" });
  assert.deepEqual(yaml.cases[1].execution, { target: "azure_base" });
  // references: eval folder first, then each folder above it up to the root
  const guideline = join(EQUIV, "python.instructions.md"); // pattern without `/`: the name
  const style = join(EQUIV, "docs/style.md"); // pattern with `/`: root-relative path
  const code = join(EQUIV, "evals/sub/code.py");
  const notes = join(EQUIV, "docs/notes/readme.md"); // `docs/*.md` does not match it
  assert.deepEqual(review.guideline_paths, [guideline, style]);
  assert.deepEqual(review.file_paths, [guideline, style, code, notes]);
  const segments = review.input[1].content as Record<string, unknown>[];
  assert.equal(segments[2].text, "def add(a, b):\n    return a + b\n");
  assert.equal(segments[0].guideline, true);
  assert.equal(segments[2].guideline, undefined);
  // no source-location fields
  assert.deepEqual(Object.keys(review).sort(), [
    "conversation_id",
    "dataset",
    "evaluator",
    "evaluators",
    "execution",
    "expected_outcome",
    "expected_output",
    "file_paths",
    "guideline_paths",
    "id",
    "input",
  ]);
  // rubrics first (inline), then the case's own evaluators
  assert.deepEqual(review.evaluators.map((e) => [e.name, e.type, e.weight]), [
    ["rubric", "rubric", 1],
    ["tool_trajectory", "tool_trajectory", 1],
    ["contains-add", "contains", 0.5],
    ["rubric", "rubric", 1],
  ]);
  // renderPrompt: guidelines first, then the input
  const prompt = renderPrompt(review);
  assert.ok(prompt.indexOf("Use type hints.") < prompt.indexOf("You are a reviewer"));
  assert.ok(prompt.indexOf("Be concise.") < prompt.indexOf("Review this code"));
  assert.ok(prompt.includes("def add(a, b):"));
  assert.ok(prompt.includes("Not a guideline."));
  assert.ok(prompt.indexOf("Not a guideline.") > prompt.indexOf("You are a reviewer"));
});

Deno.test("the spec's equivalence scenarios load deep-equal", async () => {
  await using ds = await dataset({
    "y.yaml": [
      "evalcases:",
      "  - id: test-1",
      "    expected_outcome: Goal",
      '    input: "Query"',
      "    expected_output: { riskLevel: High }",
      "  - id: test-2",
      "    expected_outcome: Goal",
      "    input_messages:",
      "      - role: user",
      "        content: Query",
      "",
    ].join("\n"),
    "y.jsonl": [
      line({
        id: "test-1",
        expected_outcome: "Goal",
        input: "Query",
        expected_output: { riskLevel: "High" },
      }),
      line({
        id: "test-2",
        expected_outcome: "Goal",
        input_messages: [{ role: "user", content: "Query" }],
      }),
    ].join("\n"),
  });
  const yaml = await loadEvalCases(ds.path("y.yaml"));
  const jsonl = await loadEvalCases(ds.path("y.jsonl"));
  assert.deepEqual(jsonl, yaml);
});
