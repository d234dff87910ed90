/**
 * Contract tests for issue 2 (the loader API and `agentv validate`), written black-box from the
 * issue text, the specs and the README: only `mod.ts`, `runCli` and `main.ts` are used.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type Diagnostic,
  type EvalCase,
  evalFileJsonSchema,
  EvalLoadError,
  type EvaluationScore,
  loadEvalCases,
  renderPrompt,
  streamEvalCases,
  validateEvalFile,
} from "../../mod.ts";
import { runCli } from "../../lib/cli/app.ts";
import { createBufferIO, REPO_ROOT } from "../cli/_buffer_io.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/contract/issue2/", import.meta.url));
const EQUIV = join(FIXTURES, "equiv");
const CORPUS = join(REPO_ROOT, "fixtures/corpus/agentv-examples");

/** A temporary dataset (with `.git`, so it is its own root) holding `files`. */
function dataset(
  files: Record<string, string | Uint8Array>,
  options: { git?: boolean } = {},
): Promise<Tree> {
  return tempTree(files, { prefix: "agentv-contract2-", git: options.git !== false });
}

/** Loads a file collecting diagnostics. */
async function load(
  path: string,
  options: { verbose?: boolean; root?: string } = {},
): Promise<{ cases: EvalCase[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const cases = await loadEvalCases(path, { ...options, onDiagnostic: (d) => diagnostics.push(d) });
  return { cases, diagnostics };
}

async function loadError(path: string, options: { root?: string } = {}): Promise<EvalLoadError> {
  try {
    await loadEvalCases(path, options);
  } catch (e) {
    assert.ok(e instanceof EvalLoadError, `expected EvalLoadError, got ${e}`);
    assert.ok(e.diagnostics.length > 0);
    return e;
  }
  assert.fail(`expected ${path} to throw EvalLoadError`);
}

const yamlCase = (id: string, extra = "") =>
  `  - id: ${id}\n    expected_outcome: Goal\n    input: Query\n${extra}`;
const line = (value: Record<string, unknown>) => JSON.stringify(value);

// --- §2 aliases, precedence, shorthands ---------------------------------------------------------

Deno.test("issue2 §2: new names win over aliases, even over an alias whose value is invalid", async () => {
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

Deno.test("issue2 §2: shorthands, aliases and tool calls in YAML and JSONL", async () => {
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

// --- §2 evaluators ------------------------------------------------------------------------------

Deno.test("issue2 §2: inline rubrics, explicit rubric options, tool_trajectory, weights", async () => {
  await using ds = await dataset({
    "a.yaml": "evalcases:\n" + yamlCase(
      "c",
      [
        "    rubrics:",
        '      - "Must be polite"',
        "    evaluators:",
        "      - type: rubric",
        '        rubrics: ["Must be polite"]',
        '        model: "gpt-4"',
        "      - name: minimum_search_calls",
        "        type: tool_trajectory",
        "        mode: any_order",
        "        minimums:",
        "          knowledgeSearch: 3",
        "      - name: expected_search_pattern",
        "        type: tool_trajectory",
        "        mode: in_order",
        "        expected:",
        "          - tool: knowledgeSearch",
        "          - tool: knowledgeSearch",
        "      - name: safety",
        "        type: llm_judge",
        "        weight: 3",
        "      - type: tool_trajectory",
        "        mode: exact",
        "        expected: [{ tool: a }]",
        "        weight: 0",
        "",
      ].join("\n"),
    ),
  });
  const { cases, diagnostics } = await load(ds.path("a.yaml"));
  assert.deepEqual(diagnostics, []);
  const evs = cases[0].evaluators as unknown as Record<string, unknown>[];
  assert.deepEqual(evs.map((e) => [e.name, e.type, e.weight]), [
    ["rubric", "rubric", 1],
    ["rubric", "rubric", 1], // name defaults to the type
    ["minimum_search_calls", "tool_trajectory", 1],
    ["expected_search_pattern", "tool_trajectory", 1],
    ["safety", "llm_judge", 3],
    ["tool_trajectory", "tool_trajectory", 0],
  ]);
  const descriptions = (e: Record<string, unknown>) =>
    (e.rubrics as { description: string }[]).map((r) => r.description);
  assert.deepEqual(descriptions(evs[0]), ["Must be polite"]);
  assert.deepEqual(descriptions(evs[1]), ["Must be polite"]); // plain strings accepted
  assert.equal(evs[1].model, "gpt-4");
  assert.deepEqual(evs[2].minimums, { knowledgeSearch: 3 });
  assert.equal(evs[3].mode, "in_order");
  assert.deepEqual(evs[3].expected, [{ tool: "knowledgeSearch" }, { tool: "knowledgeSearch" }]);
  assert.equal(evs[5].mode, "exact");
});

Deno.test("issue2 §2/§3: invalid evaluators skip the case with located error diagnostics", async () => {
  const bad = (field: string) =>
    `    evaluators:\n      - name: safety\n        type: llm_judge\n        ${field}\n`;
  await using ds = await dataset({
    "a.yaml": "evalcases:\n" + [
      yamlCase("ok"),
      yamlCase("negative", bad("weight: -1")),
      yamlCase("word", bad("weight: high")),
      yamlCase("infinite", bad("weight: .inf")),
      yamlCase(
        "mode",
        "    evaluators:\n      - type: tool_trajectory\n        mode: sometimes\n" +
          "        expected: [{ tool: knowledgeSearch }]\n",
      ),
      yamlCase("unknown-type", "    evaluators:\n      - type: psychic\n"),
    ].join(""),
  });
  const report = await validateEvalFile(ds.path("a.yaml"));
  assert.equal(report.valid, false);
  assert.equal(report.cases, 1);
  assert.equal(report.file, ds.path("a.yaml"));
  const errors = report.diagnostics.filter((d) => d.severity === "error");
  assert.equal(errors.length, 5, JSON.stringify(report.diagnostics, null, 2));
  const [negative, word, infinite, mode, unknown] = errors;
  assert.match(negative.message, /weight/);
  assert.match(negative.message, />= 0/);
  assert.equal(negative.path, "evalcases[1].evaluators[0].weight");
  assert.equal(negative.line, 11);
  assert.equal(negative.column, 17); // the offending value, not the case
  assert.equal(negative.file, ds.path("a.yaml"));
  assert.match(word.message, /weight/);
  assert.equal(word.path, "evalcases[2].evaluators[0].weight");
  assert.equal(word.line, 18);
  assert.equal(infinite.path, "evalcases[3].evaluators[0].weight");
  for (const m of ["any_order", "in_order", "exact"]) assert.match(mode.message, new RegExp(m));
  assert.equal(mode.path, "evalcases[4].evaluators[0].mode");
  assert.equal(mode.line, 31);
  assert.equal(mode.column, 15);
  assert.match(unknown.path ?? "", /^evalcases\[5\]\.evaluators\[0\]/);
  // the same through loadEvalCases: skipped cases reported, valid one returned
  const { cases, diagnostics } = await load(ds.path("a.yaml"));
  assert.deepEqual(cases.map((c) => c.id), ["ok"]);
  assert.deepEqual(diagnostics, report.diagnostics);
});

Deno.test("issue2 §2: JSONL evaluator errors name the physical line, the field and the type", async () => {
  await using ds = await dataset({
    "a.jsonl": [
      "",
      line({ id: "a", expected_outcome: "G", input: "Q" }),
      "   ",
      line({
        id: "b",
        expected_outcome: "G",
        input: "Q",
        evaluators: [{ type: "contains", value: "x", weight: -2 }],
      }),
      line({ id: "c", expected_outcome: "G", input_messages: "a string" }),
    ].join("\n"),
  });
  const { cases, diagnostics } = await load(ds.path("a.jsonl"));
  assert.deepEqual(cases.map((c) => c.id), ["a"]);
  assert.equal(diagnostics.length, 2);
  const [weight, type] = diagnostics;
  assert.equal(weight.severity, "error");
  assert.equal(weight.line, 4);
  assert.match(weight.message, /Line 4/);
  assert.match(weight.message, />= 0/);
  assert.equal(weight.path, "evaluators[0].weight");
  const text = line({
    id: "b",
    expected_outcome: "G",
    input: "Q",
    evaluators: [{ type: "contains", value: "x", weight: -2 }],
  });
  assert.equal(weight.column, text.indexOf("-2") + 1);
  assert.equal(type.line, 5);
  assert.match(type.message, /Line 5/);
  assert.match(type.message, /input_messages/);
  assert.match(type.message, /array/);
});

// --- §2 JSONL lines ------------------------------------------------------------------------------

Deno.test("issue2 §2: JSONL blank lines are skipped and line numbers stay physical", async () => {
  const ok = (id: string) => line({ id, expected_outcome: "G", input: "Q" });
  await using ds = await dataset({
    "skip.jsonl": [ok("t1"), "", ok("t2"), "   \t", ok("t3"), ""].join("\n"),
    "missing.jsonl": ["", "", ok("t1"), line({ id: "t2", input: "Q" }), ok("t3")].join("\r\n"),
    "bad.jsonl": [
      ok("t1"),
      "",
      ok("t2"),
      ok("t3"),
      '{"id": "t5", "expected_outcome": "G" "input": []}',
    ]
      .join("\n"),
  });
  const skip = await load(ds.path("skip.jsonl"));
  assert.deepEqual(skip.cases.map((c) => c.id), ["t1", "t2", "t3"]);
  assert.deepEqual(skip.diagnostics, []);

  const missing = await load(ds.path("missing.jsonl"));
  assert.deepEqual(missing.cases.map((c) => c.id), ["t1", "t3"]);
  assert.equal(missing.diagnostics.length, 1);
  assert.equal(missing.diagnostics[0].severity, "warning");
  assert.equal(missing.diagnostics[0].line, 4);
  assert.match(missing.diagnostics[0].message, /Line 4/);
  assert.match(missing.diagnostics[0].message, /missing expected_outcome/);

  const error = await loadError(ds.path("bad.jsonl"));
  assert.match(error.message, /Line 5: Invalid JSON/);
  let detail = "";
  try {
    JSON.parse('{"id": "t5", "expected_outcome": "G" "input": []}');
  } catch (e) {
    detail = (e as Error).message;
  }
  assert.ok(error.message.includes(detail), `${error.message} should include '${detail}'`);
  assert.equal(error.diagnostics[0].line, 5);
  assert.equal(error.diagnostics[0].severity, "error");
  const report = await validateEvalFile(ds.path("bad.jsonl"));
  assert.equal(report.valid, false);
  assert.equal(report.cases, 0);
  assert.match(report.diagnostics[0].message, /Line 5: Invalid JSON/);
});

Deno.test("issue2 §2: a JSONL line that is valid JSON but not an object is Invalid JSON", async () => {
  await using ds = await dataset({
    "a.jsonl": `${line({ id: "a", expected_outcome: "G", input: "Q" })}\n[1, 2]\n`,
  });
  const error = await loadError(ds.path("a.jsonl"));
  assert.match(error.message, /Line 2: Invalid JSON/);
});

// --- §2 sidecar -----------------------------------------------------------------------------------

Deno.test("issue2 §2: the sidecar gives defaults; per-case fields override for that case only", async () => {
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
      "  max_retries: 2",
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
  assert.deepEqual(byId.get("plain")!.execution, { target: "azure_base", max_retries: 2 });
  assert.deepEqual(byId.get("target")!.execution, { target: "openai", max_retries: 2 });
  assert.deepEqual(byId.get("after")!.execution, { target: "azure_base", max_retries: 2 });
  assert.deepEqual(byId.get("plain")!.evaluators.map((e) => e.type), ["contains"]);
  assert.deepEqual(byId.get("rubric-test")!.evaluators.map((e) => e.type), ["rubric"]);
  assert.deepEqual(byId.get("after")!.evaluators.map((e) => e.type), ["contains"]);
  assert.equal(byId.get("inline")!.evaluators[0].type, "rubric");
});

Deno.test("issue2 §2: without a sidecar: defaults, warning only when verbose, only <stem>.yaml", async () => {
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

Deno.test("issue2 §2: a typo in a sidecar is a warning naming the key, not silently ignored", async () => {
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

// --- §2 execution merge, evaluator precedence ----------------------------------------------------

Deno.test("issue2 §2: a case's execution is merged over the file's; evaluator lists inherit", async () => {
  await using ds = await dataset({
    "a.yaml": [
      "execution:",
      "  target: base",
      "  temperature: 0",
      "  evaluators:",
      "    - type: is_json",
      "evalcases:",
      yamlCase("inherit"),
      yamlCase("merge", "    execution: { max_tokens: 5 }\n"),
      yamlCase("target", "    execution: { target: other, temperature: 1 }\n"),
      yamlCase("own", "    evaluators: [{ type: equals, value: y }]\n"),
      yamlCase("empty", "    evaluators: []\n"),
    ].join("\n"),
  });
  const { cases, diagnostics } = await load(ds.path("a.yaml"));
  assert.deepEqual(diagnostics, []);
  const byId = new Map(cases.map((c) => [c.id, c]));
  assert.deepEqual(byId.get("inherit")!.execution, { target: "base", temperature: 0 });
  assert.deepEqual(byId.get("merge")!.execution, { target: "base", temperature: 0, max_tokens: 5 });
  assert.deepEqual(byId.get("target")!.execution, { target: "other", temperature: 1 });
  assert.deepEqual(byId.get("inherit")!.evaluators.map((e) => e.type), ["is_json"]);
  assert.deepEqual(byId.get("merge")!.evaluators.map((e) => e.type), ["is_json"]);
  assert.deepEqual(byId.get("own")!.evaluators.map((e) => e.type), ["equals"]);
  assert.deepEqual(byId.get("empty")!.evaluators, []);
  assert.equal(byId.get("empty")!.evaluator, "llm_judge");
});

// --- §2 file references, guidelines, YAML ≡ JSONL ------------------------------------------------

Deno.test("issue2 §2: YAML and JSONL with file refs, guidelines and evaluators are deep-equal", async () => {
  const yaml = await load(join(EQUIV, "evals/sub/cases.yaml"));
  const jsonl = await load(join(EQUIV, "evals/sub/cases_jsonl.jsonl"), { verbose: true });
  assert.deepEqual(yaml.diagnostics, []);
  assert.deepEqual(jsonl.diagnostics, []);
  assert.equal(yaml.cases.length, 2);
  assert.deepEqual(jsonl.cases, yaml.cases);

  const review = yaml.cases[0];
  assert.equal(review.conversation_id, "conv-1");
  assert.equal(review.dataset, "shared");
  assert.deepEqual(review.execution, { target: "openai_gpt4", temperature: 0 });
  assert.deepEqual(yaml.cases[1].execution, { target: "azure_base", temperature: 0 });
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

Deno.test("issue2 §2: the spec's equivalence scenarios are deep-equal", async () => {
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

Deno.test("issue2 §2: default guideline patterns without a config", async () => {
  await using ds = await dataset({
    "SKILL.md": "skill",
    "a.prompt.md": "prompt",
    "deep/x/b.instructions.md": "instructions",
    "plain.md": "plain",
    "evals/e.yaml": "evalcases:\n" + yamlCase(
      "c",
      "    input:\n      - role: user\n        content:\n" +
        ["SKILL.md", "a.prompt.md", "deep/x/b.instructions.md", "plain.md"]
          .map((f) => `          - { type: file, value: ${f} }\n`).join(""),
    ).replace("    input: Query\n", ""),
  });
  const { cases, diagnostics } = await load(ds.path("evals/e.yaml"));
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(cases[0].guideline_paths, [
    ds.path("SKILL.md"),
    ds.path("a.prompt.md"),
    ds.path("deep/x/b.instructions.md"),
  ]);
  assert.deepEqual(cases[0].file_paths.at(-1), ds.path("plain.md"));
});

Deno.test("issue2 §2: the nearest .agentv/config.yaml between the file and the root applies", async () => {
  await using ds = await dataset({
    ".agentv/config.yaml": 'guideline_patterns: ["*.md"]\n',
    "evals/.agentv/config.yaml": 'guideline_patterns: ["*.rules"]\n',
    "evals/a.md": "md",
    "evals/b.rules": "rules",
    "evals/e.yaml": "evalcases:\n" + yamlCase(
      "c",
      "    input:\n      - role: user\n        content:\n" +
        "          - { type: file, value: a.md }\n          - { type: file, value: b.rules }\n",
    ).replace("    input: Query\n", ""),
  });
  const { cases } = await load(ds.path("evals/e.yaml"), { root: ds.root });
  assert.deepEqual(cases[0].guideline_paths, [ds.path("evals/b.rules")]);
});

// --- §3 API -----------------------------------------------------------------------------------------

Deno.test("issue2 §3: file-level failures throw EvalLoadError; validateEvalFile never throws", async () => {
  await using ds = await dataset({
    "a.json": "{}",
    "a.txt": "x",
    "noext": "x",
    "syntax.yaml": "evalcases:\n  - id: a\n    expected_outcome: [Goal\n",
    "no_cases.yaml": "description: no cases\n",
    "list.yaml": "- a\n- b\n",
    "binary.yaml": new Uint8Array([0, 1, 2, 255, 254, 0]),
    "latin1.jsonl": new Uint8Array([123, 34, 105, 100, 34, 58, 34, 0xe9, 34, 125, 10]),
    "folder.yaml/x": "",
  });
  for (const name of ["a.json", "a.txt", "noext"]) {
    const error = await loadError(ds.path(name));
    for (const ext of [".yaml", ".yml", ".jsonl"]) assert.ok(error.message.includes(ext));
  }
  const syntax = await loadError(ds.path("syntax.yaml"));
  assert.equal(typeof syntax.diagnostics[0].line, "number");
  assert.equal(typeof syntax.diagnostics[0].column, "number");
  assert.match((await loadError(ds.path("no_cases.yaml"))).message, /evalcases/);
  await loadError(ds.path("list.yaml"));
  await loadError(ds.path("missing.yaml"));
  await loadError(ds.path("binary.yaml"));
  await loadError(ds.path("latin1.jsonl"));
  await loadError(ds.path("folder.yaml"));
  for (
    const name of [
      "a.json",
      "noext",
      "syntax.yaml",
      "no_cases.yaml",
      "list.yaml",
      "missing.yaml",
      "binary.yaml",
      "latin1.jsonl",
      "folder.yaml",
    ]
  ) {
    const report = await validateEvalFile(ds.path(name));
    assert.equal(report.valid, false, name);
    assert.equal(report.cases, 0);
    assert.ok(report.diagnostics.some((d) => d.severity === "error"));
    for (const d of report.diagnostics) assert.equal(typeof d.message, "string");
  }
});

Deno.test("issue2 §3: Diagnostic has exactly the documented fields", async () => {
  await using ds = await dataset({
    "a.yaml": "evalcases:\n" + yamlCase("a", "    tpyo: 1\n") + "  - id: b\n    input: Q\n",
  });
  const report = await validateEvalFile(ds.path("a.yaml"));
  assert.equal(report.valid, true); // unknown key and missing outcome are warnings
  assert.equal(report.cases, 1);
  assert.deepEqual(Object.keys(report).sort(), ["cases", "diagnostics", "file", "valid"]);
  const allowed = new Set(["severity", "file", "line", "column", "path", "message"]);
  for (const d of report.diagnostics) {
    for (const key of Object.keys(d)) assert.ok(allowed.has(key), key);
    assert.ok(d.severity === "error" || d.severity === "warning");
  }
  const typo = report.diagnostics.find((d) => d.message.includes("tpyo"))!;
  assert.equal(typo.path, "evalcases[0].tpyo");
  assert.equal(typo.line, 5);
  assert.equal(typo.column, 5);
  const missing = report.diagnostics.find((d) => /missing expected_outcome/.test(d.message))!;
  assert.equal(missing.severity, "warning");
  assert.equal(missing.line, 6);
});

Deno.test("issue2 §3: misplaced known keys are not answered with 'did you mean' the same key", async () => {
  await using ds = await dataset({
    "a.yaml": "evalcases:\n" + yamlCase(
      "a",
      "    evaluators:\n      - type: contains\n        value: x\n        rubrics: [a]\n",
    ),
  });
  const { diagnostics } = await load(ds.path("a.yaml"));
  assert.equal(diagnostics.length, 1);
  assert.doesNotMatch(diagnostics[0].message, /did you mean 'rubrics'/);
  assert.equal(diagnostics[0].path, "evalcases[0].evaluators[0].rubrics");
});

Deno.test("issue2 §3: streamEvalCases yields what loadEvalCases returns", async () => {
  const path = join(EQUIV, "evals/sub/cases_jsonl.jsonl");
  const streamed: EvalCase[] = [];
  for await (const c of streamEvalCases(path)) streamed.push(c);
  assert.deepEqual(streamed, await loadEvalCases(path));
});

Deno.test("issue2 §3: evalFileJsonSchema equals the committed schema and validates the corpus", async () => {
  const schema = evalFileJsonSchema() as Record<string, unknown>;
  const committed = JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "schema/eval.schema.json")));
  assert.deepEqual(schema, committed);
  assert.equal(typeof schema.$schema, "string");
  // YAML parsed through the loader's own file: cases as plain JSON values
  const { parseYamlSource } = await import("../../lib/source/yaml_source.ts");
  const parse = (text: string) => {
    const parsed = parseYamlSource(text);
    assert.ok(parsed.ok);
    return parsed.source.value;
  };
  const files: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const p = join(dir, e.name);
      if (e.isDirectory && !e.name.startsWith(".")) await walk(p);
      else if (e.isFile && /\.ya?ml$/.test(e.name)) files.push(p);
    }
  };
  await walk(CORPUS);
  let checked = 0;
  for (const file of files) {
    const value = parse(await Deno.readTextFile(file)) as Record<string, unknown> | null;
    if (!value || !("evalcases" in value)) continue; // sidecars and settings
    assert.deepEqual(validateSchema(schema, value), [], file);
    checked++;
  }
  assert.ok(checked >= 20, `only ${checked} corpus files checked`);
  // and it rejects what the loader rejects
  const bad = (extra: string) => parse("evalcases:\n" + yamlCase("a", extra));
  assert.notDeepEqual(
    validateSchema(schema, bad("    evaluators: [{ type: contains, value: x, weight: -1 }]\n")),
    [],
  );
  assert.notDeepEqual(
    validateSchema(
      schema,
      bad("    evaluators: [{ type: tool_trajectory, mode: sometimes, expected: [] }]\n"),
    ),
    [],
  );
  assert.notDeepEqual(
    validateSchema(
      schema,
      parse("evalcases:\n  - id: a\n    expected_outcome: G\n    input: 42\n"),
    ),
    [],
  );
  assert.deepEqual(validateSchema(schema, bad("")), []);
});

/** A small JSON Schema (2020-12 subset) validator with `$ref`: the errors' JSON pointers. */
function validateSchema(root: Record<string, unknown>, value: unknown): string[] {
  const errors: string[] = [];
  const type = (v: unknown) =>
    v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v;
  const check = (s: unknown, v: unknown, at: string, out: string[]): void => {
    if (s === true || s === undefined) return;
    if (s === false) return void out.push(`${at}: false schema`);
    const schema = s as Record<string, unknown>;
    if (typeof schema.$ref === "string") {
      const target = schema.$ref.replace(/^#\//, "").split("/")
        .reduce((node: unknown, key) => (node as Record<string, unknown>)[key], root);
      check(target, v, at, out);
    }
    if (schema.type !== undefined) {
      const types = ([] as unknown[]).concat(schema.type);
      const t = type(v);
      if (!types.includes(t) && !(t === "integer" && types.includes("number"))) {
        return void out.push(`${at}: type ${t}`);
      }
    }
    if ("const" in schema && JSON.stringify(schema.const) !== JSON.stringify(v)) {
      out.push(`${at}: const`);
    }
    if (
      Array.isArray(schema.enum) &&
      !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))
    ) {
      out.push(`${at}: enum`);
    }
    if (typeof v === "number") {
      if (typeof schema.minimum === "number" && v < schema.minimum) out.push(`${at}: minimum`);
      if (typeof schema.exclusiveMinimum === "number" && v <= schema.exclusiveMinimum) {
        out.push(`${at}: exclusiveMinimum`);
      }
    }
    if (typeof v === "string") {
      if (typeof schema.minLength === "number" && v.length < schema.minLength) {
        out.push(`${at}: minLength`);
      }
      if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(v)) {
        out.push(`${at}: pattern`);
      }
    }
    if (Array.isArray(v)) {
      if (typeof schema.minItems === "number" && v.length < schema.minItems) {
        out.push(`${at}: minItems`);
      }
      if (schema.items !== undefined) {
        v.forEach((item, i) => check(schema.items, item, `${at}/${i}`, out));
      }
    }
    if (type(v) === "object") {
      const record = v as Record<string, unknown>;
      const props = (schema.properties ?? {}) as Record<string, unknown>;
      for (const key of (schema.required ?? []) as string[]) {
        if (!(key in record)) out.push(`${at}/${key}: required`);
      }
      for (const [key, item] of Object.entries(record)) {
        if (schema.propertyNames !== undefined) {
          check(schema.propertyNames, key, `${at}/${key}`, out);
        }
        if (key in props) check(props[key], item, `${at}/${key}`, out);
        else if (schema.additionalProperties !== undefined) {
          check(schema.additionalProperties, item, `${at}/${key}`, out);
        }
      }
    }
    for (const sub of (schema.allOf ?? []) as unknown[]) check(sub, v, at, out);
    const branches = (list: unknown) =>
      ((list ?? []) as unknown[]).filter((sub) => {
        const inner: string[] = [];
        check(sub, v, at, inner);
        return inner.length === 0;
      }).length;
    if (Array.isArray(schema.anyOf) && branches(schema.anyOf) === 0) out.push(`${at}: anyOf`);
    if (Array.isArray(schema.oneOf) && branches(schema.oneOf) !== 1) out.push(`${at}: oneOf`);
  };
  check(root, value, "", errors);
  return errors;
}

Deno.test("issue2 §3: EvaluationScore has score, verdict?, hits, misses, reasoning?", () => {
  const full: EvaluationScore = {
    score: 0.5,
    verdict: "borderline",
    hits: ["a"],
    misses: [],
    reasoning: "r",
  };
  const minimal: EvaluationScore = { score: 1, hits: [], misses: [] };
  // @ts-expect-error: only pass | fail | borderline
  const wrong: EvaluationScore = { score: 1, hits: [], misses: [], verdict: "maybe" };
  assert.deepEqual([full.verdict, minimal.verdict, wrong.score], ["borderline", undefined, 1]);
});

Deno.test("issue2 §2: every corpus eval file loads with its README case count", async () => {
  const readme = await Deno.readTextFile(join(REPO_ROOT, "fixtures/corpus/README.md"));
  const rows = [...readme.matchAll(/^\| ([\w/.-]+\.(?:yaml|jsonl))[^|]*\| \w+ \| (\d+) \|$/gm)];
  assert.ok(rows.length >= 20);
  for (const [, rel, count] of rows) {
    const report = await validateEvalFile(join(CORPUS, rel));
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], rel);
    assert.equal(report.cases, Number(count), rel);
  }
});

// --- §5 sandbox and bounded work --------------------------------------------------------------------

Deno.test("issue2 §5: references leaving the root are refused; --root/options.root widen it", async () => {
  await using outside = await dataset({ "secret.txt": "SECRET" }, { git: false });
  await using ds = await dataset({
    "evals/e.yaml": "evalcases:\n" + [
      ["up", "../../secret.txt"],
      ["abs", join(outside.root, "secret.txt")],
      ["link", "link.txt"],
    ].map(([id, ref]) =>
      `  - id: ${id}\n    expected_outcome: G\n    input:\n      - role: user\n` +
      `        content: [{ type: file, value: "${ref}" }]\n`
    ).join(""),
  });
  await Deno.symlink(join(outside.root, "secret.txt"), ds.path("evals/link.txt"));
  const { cases, diagnostics } = await load(ds.path("evals/e.yaml"));
  assert.deepEqual(cases, []);
  assert.equal(diagnostics.length, 3);
  for (const d of diagnostics) {
    assert.equal(d.severity, "error");
    assert.ok(d.message.includes(ds.root), d.message); // names the root
    assert.match(d.path ?? "", /content\[0\]\.value$/);
  }
  assert.ok(diagnostics[1].message.includes(join(outside.root, "secret.txt")));
  assert.ok(diagnostics[2].message.includes("link.txt"));

  // CLI: same refusals, exit 1; the worker cannot read outside the root
  const io = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "evals/e.yaml"], io), 1);
  assert.doesNotMatch(io.out(), /SECRET/);
  assert.match(io.out(), /link\.txt/);
});

Deno.test("issue2 §5: the default root is the nearest folder with .agentv/ or .git", async () => {
  await using ds = await dataset({
    "shared.md": "shared",
    "project/.agentv/config.yaml": "guideline_patterns: []\n",
    "project/evals/e.yaml": "evalcases:\n" +
      "  - id: a\n    expected_outcome: G\n    input:\n      - role: user\n" +
      "        content: [{ type: file, value: shared.md }]\n",
  });
  const path = ds.path("project/evals/e.yaml");
  const refused = await load(path);
  assert.equal(refused.cases.length, 0);
  assert.ok(refused.diagnostics[0].message.includes(ds.path("project")));
  const widened = await load(path, { root: ds.root });
  assert.deepEqual(widened.cases[0].file_paths, [ds.path("shared.md")]);
  const io = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "project", "--root", "."], io), 0, io.out() + io.err());
});

Deno.test("issue2 §5: bounded work: bombs, long lines, deep nesting, BOM, CRLF, bad bytes", async () => {
  let bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (let i = 1; i < 10; i++) bomb += `a${i}: &a${i} [${`*a${i - 1}, `.repeat(9)}*a${i - 1}]\n`;
  const ok = line({ id: "a", expected_outcome: "G", input: "Q" });
  const long = "y".repeat(20 * 1024 * 1024);
  await using ds = await dataset({
    "bomb.yaml": bomb + "evalcases: []\n",
    "long.jsonl": line({ id: "a", expected_outcome: "G", input: long }) + "\n",
    "deep.jsonl": `{"id":"a","expected_outcome":"G","input":"Q","metadata":{"x":${
      "[".repeat(50_000)
    }${"]".repeat(50_000)}}}\n`,
    "deep.yml": `evalcases:\n  - id: a\n    expected_outcome: G\n    input: Q\n    metadata: {x: ${
      "[".repeat(50_000)
    }${"]".repeat(50_000)}}\n`,
    "bom.jsonl": "\uFEFF" + ok + "\r\n\r\n" + ok.replace('"a"', '"b"') + "\r\n",
    "crlf.yaml": "\uFEFFevalcases:\r\n" + yamlCase("a").replaceAll("\n", "\r\n"),
    "bad.yaml": new Uint8Array([...new TextEncoder().encode("evalcases: [\xff"), 0xff, 0xfe]),
    "nul.jsonl": new Uint8Array([0, 0, 0, 0]),
  });
  const outcome = async (name: string) => {
    const started = performance.now();
    const report = await validateEvalFile(ds.path(name));
    assert.ok(performance.now() - started < 5000, `${name} took too long`);
    return report;
  };
  assert.equal((await outcome("bomb.yaml")).valid, false);
  const longReport = await outcome("long.jsonl");
  assert.equal(longReport.cases, 1);
  assert.equal((await outcome("deep.jsonl")).valid, false);
  assert.equal((await outcome("deep.yml")).valid, false);
  const bom = await outcome("bom.jsonl");
  assert.deepEqual([bom.valid, bom.cases], [true, 2]);
  const crlf = await outcome("crlf.yaml");
  assert.deepEqual([crlf.valid, crlf.cases], [true, 1]);
  assert.equal((await loadEvalCases(ds.path("crlf.yaml")))[0].expected_outcome, "Goal");
  assert.equal((await outcome("bad.yaml")).valid, false);
  assert.equal((await outcome("nul.jsonl")).valid, false);
});

// --- §4 CLI -----------------------------------------------------------------------------------------

Deno.test("issue2 §4: validate prints ✓/✗ lines, file:line:col diagnostics, a summary; exit 0/1", async () => {
  await using ds = await dataset({
    "evals/good.yaml": "evalcases:\n" + yamlCase("a") + yamlCase("b"),
    "evals/bad.yaml": "evalcases:\n" +
      yamlCase("neg", "    evaluators: [{ type: contains, value: x, weight: -1 }]\n"),
    "evals/data.jsonl": line({ id: "a", expected_outcome: "G", input: "Q" }),
    "evals/data.yaml": "dataset: sidecar\n",
    "evals/.agentv/ignored.yaml": "not: an eval file\n",
    "evals/node_modules/x.yaml": "nope: 1\n",
    "evals/run.baseline.jsonl": line({ eval_id: "a", score: 1 }),
  });
  const good = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "evals/good.yaml", "evals/data.jsonl"], good), 0);
  assert.equal(
    good.out(),
    "✓ evals/data.jsonl (1 case)\n✓ evals/good.yaml (2 cases)\n2 files valid (0 errors, 0 warnings)\n",
  );
  const all = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "evals"], all), 1);
  const out = all.out();
  assert.match(out, /^✗ evals\/bad\.yaml \(0 cases, 1 error\)$/m);
  assert.match(out, /^evals\/bad\.yaml:5:\d+: error: .*weight.*>= 0/m);
  assert.match(out, /^✓ evals\/data\.jsonl \(1 case\)$/m);
  assert.match(out, /^✓ evals\/good\.yaml \(2 cases\)$/m);
  assert.doesNotMatch(out, /data\.yaml|baseline|node_modules|\.agentv/);
  assert.match(out.trimEnd().split("\n").at(-1)!, /1 of 3 files invalid \(1 error, 0 warnings\)/);

  // a sidecar named next to its JSONL (shell-expanded glob) is not validated as an eval file
  const expanded = createBufferIO({ cwd: ds.root });
  assert.equal(
    await runCli(["validate", "evals/data.jsonl", "evals/data.yaml", "evals/good.yaml"], expanded),
    0,
    expanded.out(),
  );
  const globbed = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "evals/*.yaml"], globbed), 1);
  assert.doesNotMatch(globbed.out(), /data\.yaml/);
});

Deno.test("issue2 §4: --json prints files[] and a summary; --verbose shows the sidecar warning", async () => {
  await using ds = await dataset({
    "evals/a.jsonl": line({ id: "a", expected_outcome: "G", input: "Q" }),
    "evals/b.yaml": "evalcases:\n" +
      yamlCase("neg", "    evaluators: [{ type: contains, value: x, weight: -1 }]\n"),
  });
  const io = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "evals", "--json"], io), 1);
  const json = JSON.parse(io.out());
  assert.deepEqual(
    json.files.map((f: Record<string, unknown>) => [f.file, f.kind, f.valid, f.cases]),
    [
      ["evals/a.jsonl", "eval", true, 1],
      ["evals/b.yaml", "eval", false, 0],
    ],
  );
  const d = json.files[1].diagnostics[0];
  assert.deepEqual([d.severity, d.file, d.line, d.path], [
    "error",
    "evals/b.yaml",
    5,
    "evalcases[0].evaluators[0].weight",
  ]);
  assert.equal(json.summary.invalid, 1);
  assert.equal(json.summary.errors, 1);
  assert.deepEqual(json.files[0].diagnostics, []);

  const quiet = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "evals/a.jsonl"], quiet), 0);
  assert.doesNotMatch(quiet.out(), /warning:/);
  const verbose = createBufferIO({ cwd: ds.root });
  assert.equal(await runCli(["validate", "evals/a.jsonl", "--verbose"], verbose), 0);
  assert.match(verbose.out(), /^evals\/a\.jsonl: warning: .*[Ss]idecar/m);
  assert.match(verbose.out(), /1 warning/);
});

Deno.test("issue2 §4: usage errors exit 2 with a suggestion; help and version exit 0", async () => {
  const run = async (args: string[]) => {
    const io = createBufferIO();
    const code = await runCli(args, io);
    return { code, out: io.out(), err: io.err() };
  };
  const flag = await run(["validate", "fixtures/cli/project", "--jsno"]);
  assert.equal(flag.code, 2);
  assert.match(flag.err, /--jsno/);
  assert.match(flag.err, /did you mean '--json'/);
  assert.equal(flag.out, "");
  const top = await run(["--verison"]);
  assert.equal(top.code, 2);
  assert.match(top.err, /did you mean '--version'/);
  const command = await run(["validat", "x"]);
  assert.equal(command.code, 2);
  assert.match(command.err, /did you mean 'validate'/);
  assert.equal((await run(["validate"])).code, 2);
  assert.equal((await run(["validate", "no/such/path.yaml"])).code, 2);
  assert.equal((await run(["validate", "fixtures/cli/project", "--root", "no/such/dir"])).code, 2);
  const help = await run(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.out, /validate/);
  const validateHelp = await run(["validate", "--help"]);
  assert.equal(validateHelp.code, 0);
  for (const option of ["--root", "--verbose", "--json"]) {
    assert.ok(validateHelp.out.includes(option));
  }
  const version = await run(["--version"]);
  assert.equal(version.code, 0);
  assert.match(version.out, /0\.1\.0/);
});

Deno.test("issue2 §4: main.ts: no colours off a TTY or with NO_COLOR; exit codes", async () => {
  const spawn = async (args: string[], env: Record<string, string> = {}) => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--unstable-worker-options", join(REPO_ROOT, "main.ts"), ...args],
      cwd: REPO_ROOT,
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder();
    return {
      code: output.code,
      all: text.decode(output.stdout) + text.decode(output.stderr),
    };
  };
  const broken = await spawn(
    ["validate", "fixtures/cli/project", "fixtures/cli/broken/evals/bad_weight.yaml"],
    { NO_COLOR: "1", FORCE_COLOR: "1" },
  );
  assert.equal(broken.code, 1);
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(broken.all, /\x1b\[/);
  assert.match(broken.all, /bad_weight\.yaml:8:17: error: .*weight must be >= 0/);
  assert.match(broken.all, /1 of 5 files invalid \(1 error, 0 warnings\)/);
  const usage = await spawn(["validate", "--nope"]);
  assert.equal(usage.code, 2);
});

Deno.test("issue2 §4: colours are used when the IO asks for them", async () => {
  const io = createBufferIO({ color: true, isTTY: true });
  assert.equal(await runCli(["validate", "fixtures/cli/broken/evals/bad_weight.yaml"], io), 1);
  // deno-lint-ignore no-control-regex
  assert.match(io.out(), /\x1b\[/);
});
