/**
 * Case normalisation: file-level defaults, the execution merge, evaluator precedence, inline
 * rubrics, guideline patterns and dataset names.
 */
import assert from "node:assert/strict";
import { loadEvalCases } from "../../lib/dataset/load_eval_cases.ts";
import { streamEvalCases } from "../../lib/dataset/stream_eval_cases.ts";
import { validateEvalFile } from "../../lib/dataset/validate_eval_file.ts";
import { EvalLoadError } from "../../lib/dataset/errors.ts";
import type { Diagnostic } from "../../lib/schema/eval_case.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

Deno.test("execution: case keys override file keys, the rest is inherited; evaluators precedence", async () => {
  await using tree = await tempTree({
    ".agentv/.keep": "",
    "suite.yaml": `dataset: "  shop  "
target: legacy
execution:
  target: file_target
  evaluators:
    - type: is_json
evaluator: llm_judge
evalcases:
  - id: inherits
    expected_outcome: x
    input: y
  - id: case-target
    expected_outcome: x
    input: y
    execution:
      target: per_case
  - id: case-evaluators
    expected_outcome: x
    input: y
    evaluators:
      - type: contains
        value: ok
  - id: execution-evaluators-win
    expected_outcome: x
    input: y
    evaluators:
      - type: contains
        value: ok
    execution:
      evaluators: []
  - id: rubrics-prepend
    expected_outcome: x
    input: y
    rubrics: [Polite]
`,
    "legacy.yaml":
      "target: old_style\nevalcases:\n  - id: a\n    expected_outcome: x\n    input: y\n",
  });
  const cases = await loadEvalCases(tree.path("suite.yaml"));
  const byId = Object.fromEntries(cases.map((c) => [c.id, c]));
  assert.equal(byId["inherits"].dataset, "shop");
  assert.deepEqual(byId["inherits"].execution, { target: "file_target" });
  assert.deepEqual(byId["inherits"].evaluators, [{ type: "is_json", name: "is_json", weight: 1 }]);
  assert.deepEqual(byId["case-target"].execution, { target: "per_case" });
  assert.deepEqual(byId["case-target"].evaluators.map((e) => e.type), ["is_json"]);
  assert.deepEqual(byId["case-evaluators"].evaluators.map((e) => e.type), ["contains"]);
  assert.deepEqual(byId["execution-evaluators-win"].evaluators, []);
  assert.deepEqual(byId["rubrics-prepend"].evaluators.map((e) => [e.name, e.type]), [
    ["rubric", "rubric"],
    ["is_json", "is_json"],
  ]);
  assert.ok(cases.every((c) => !("evaluators" in c.execution)));
  const [legacy] = await loadEvalCases(tree.path("legacy.yaml"));
  assert.equal(legacy.execution.target, "old_style");
  assert.equal(legacy.dataset, "legacy");
});

Deno.test("guideline patterns: no '/' matches the file name at any depth, '/' the root-relative path", async () => {
  const input = (refs: string[]) =>
    JSON.stringify({
      id: refs.join("+"),
      expected_outcome: "x",
      input: [{ role: "user", content: refs.map((value) => ({ type: "file", value })) }],
    });
  await using tree = await tempTree({
    ".agentv/config.yaml": 'guideline_patterns: ["*.rules.md", "docs/**/*.md"]\n',
    "evals/deep/style.rules.md": "rules",
    "docs/a/guide.md": "guide",
    "other/guide.md": "not a guideline",
    "evals/deep/cases.jsonl": input(["style.rules.md", "docs/a/guide.md", "other/guide.md"]) + "\n",
  });
  const [c] = await loadEvalCases(tree.path("evals/deep/cases.jsonl"));
  assert.deepEqual(c.guideline_paths, [
    tree.path("evals/deep/style.rules.md"),
    tree.path("docs/a/guide.md"),
  ]);
  assert.deepEqual(c.file_paths, [...c.guideline_paths, tree.path("other/guide.md")]);
});

Deno.test("guideline patterns default to *.instructions.md, *.prompt.md and SKILL.md", async () => {
  await using tree = await tempTree({
    ".git/HEAD": "",
    "a/x.instructions.md": "1",
    "a/y.prompt.md": "2",
    "a/SKILL.md": "3",
    "a/notes.md": "4",
    "a/e.yaml": `evalcases:
  - id: a
    expected_outcome: x
    input:
      - role: user
        content:
          - { type: file, value: x.instructions.md }
          - { type: file, value: y.prompt.md }
          - { type: file, value: SKILL.md }
          - { type: file, value: notes.md }
`,
  });
  const [c] = await loadEvalCases(tree.path("a/e.yaml"));
  assert.equal(c.guideline_paths.length, 3);
  assert.deepEqual(c.file_paths.at(-1), tree.path("a/notes.md"));
});

Deno.test("an invalid .agentv/config.yaml is an error diagnostic and the defaults apply", async () => {
  await using tree = await tempTree({
    ".agentv/config.yaml": "guideline_patterns: '*.md'\n",
    "e.yaml": "evalcases:\n  - id: a\n    expected_outcome: x\n    input: y\n",
  });
  const report = await validateEvalFile(tree.path("e.yaml"));
  assert.equal(report.valid, false);
  assert.equal(report.cases, 1);
  assert.equal(report.diagnostics[0].file, tree.path(".agentv/config.yaml"));
  assert.match(report.diagnostics[0].message, /guideline_patterns must be a list/);
});

Deno.test("missing file references and expected-output files are resolved per side", async () => {
  await using tree = await tempTree({
    ".agentv/.keep": "",
    "answer.md": "the answer\r\n",
    "e.yaml": `evalcases:
  - id: ok
    expected_outcome: x
    input: y
    expected_output:
      - role: assistant
        content:
          - { type: file, value: answer.md }
  - id: missing
    expected_outcome: x
    input:
      - role: user
        content:
          - { type: file, value: nothere.md }
`,
  });
  const diagnostics: Diagnostic[] = [];
  const cases = await loadEvalCases(tree.path("e.yaml"), {
    onDiagnostic: (d) => diagnostics.push(d),
  });
  assert.deepEqual(cases.map((c) => c.id), ["ok"]);
  assert.deepEqual(cases[0].expected_output[0].content, [
    { type: "file", value: "answer.md", path: tree.path("answer.md"), text: "the answer\n" },
  ]);
  assert.deepEqual(cases[0].file_paths, []);
  assert.equal(diagnostics[0].path, "evalcases[1].input[0].content[0].value");
  assert.equal(diagnostics[0].line, 14);
  assert.match(diagnostics[0].message, /'nothere\.md' not found/);
});

Deno.test("streamEvalCases() yields what loadEvalCases() returns, then fails at a malformed line", async () => {
  const good = (id: string) => JSON.stringify({ id, expected_outcome: "x", input: "y" });
  await using tree = await tempTree({
    ".agentv/.keep": "",
    "ok.jsonl": [good("a"), good("b"), "", good("c")].join("\n"),
    "bad.jsonl": [good("a"), good("b"), "{nope", good("c")].join("\n"),
    "cases.yaml": "evalcases:\n  - id: y\n    expected_outcome: x\n    input: y\n",
  });
  const loaded = await loadEvalCases(tree.path("ok.jsonl"));
  assert.deepEqual(await Array.fromAsync(streamEvalCases(tree.path("ok.jsonl"))), loaded);
  assert.deepEqual(
    await Array.fromAsync(streamEvalCases(tree.path("cases.yaml"))),
    await loadEvalCases(tree.path("cases.yaml")),
  );
  const seen: string[] = [];
  const error = await (async () => {
    for await (const c of streamEvalCases(tree.path("bad.jsonl"))) seen.push(c.id);
  })().catch((e) => e);
  assert.deepEqual(seen, ["a", "b"]);
  assert.ok(error instanceof EvalLoadError);
  assert.equal(error.diagnostics[0].line, 3);
  // loadEvalCases is all-or-nothing
  assert.ok(await loadEvalCases(tree.path("bad.jsonl")).catch((e) => e) instanceof EvalLoadError);
});

Deno.test("sidecar problems are file-level errors; a verbose-only warning when it is missing", async () => {
  await using tree = await tempTree({
    ".agentv/.keep": "",
    "d.jsonl": '{"id": "a", "expected_outcome": "x", "input": "y"}\n',
    "d.yaml": "execution:\n  evaluators:\n    - type: nope\n",
  });
  const e = await loadEvalCases(tree.path("d.jsonl")).catch((e) => e);
  assert.ok(e instanceof EvalLoadError);
  assert.equal(e.diagnostics[0].file, tree.path("d.yaml"));
  assert.equal(e.diagnostics[0].line, 3);
});
