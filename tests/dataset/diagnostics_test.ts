/**
 * Diagnostics: positions of the offending node, unknown keys (warned, stripped, case kept),
 * file-level failures, judge prompt templates.
 */
import assert from "node:assert/strict";
import { EvalLoadError, formatDiagnostic, formatPath } from "../../lib/dataset/errors.ts";
import { loadEvalCases } from "../../lib/dataset/load_eval_cases.ts";
import { validateEvalFile } from "../../lib/dataset/validate_eval_file.ts";
import type { Diagnostic } from "../../lib/schema/eval_case.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

const marker = { ".agentv/.keep": "" };

Deno.test("validateEvalFile() reports the line and column of an invalid evaluator weight", async () => {
  await using tree = await tempTree({
    ...marker,
    "evals.yaml": `evalcases:
  - id: ok
    expected_outcome: Fine
    input: Hi
  - id: bad
    expected_outcome: Fine
    input: Hi
    evaluators:
      - type: contains
        value: x
      - type: llm_judge
        weight: -2
`,
  });
  const report = await validateEvalFile(tree.path("evals.yaml"));
  assert.equal(report.valid, false);
  assert.equal(report.cases, 1);
  assert.equal(report.diagnostics.length, 1);
  const [d] = report.diagnostics;
  assert.equal(d.path, "evalcases[1].evaluators[1].weight");
  assert.deepEqual([d.line, d.column], [12, 17]);
  assert.match(d.message, /^Case 'bad': weight must be >= 0/);
  assert.match(d.message, /case 'bad' is skipped$/);
});

Deno.test("loadEvalCases() warns about an unknown key with a suggestion and still loads the case", async () => {
  await using tree = await tempTree({
    ...marker,
    "evals.yaml": `evalcases:
  - id: typo
    expected_outcome: Fine
    input: Hi
    rubrcs: [Polite]
`,
  });
  const diagnostics: Diagnostic[] = [];
  const cases = await loadEvalCases(tree.path("evals.yaml"), {
    onDiagnostic: (d) => diagnostics.push(d),
  });
  assert.equal(cases.length, 1);
  assert.deepEqual(cases[0].evaluators, []);
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0].severity, "warning");
  assert.match(diagnostics[0].message, /Unknown key 'rubrcs'.*did you mean 'rubrics'\?/);
  assert.deepEqual([diagnostics[0].line, diagnostics[0].column], [5, 5]);
  assert.equal(diagnostics[0].path, "evalcases[0].rubrcs");
});

Deno.test("an unknown key inside a message is stripped and the case loads", async () => {
  await using tree = await tempTree({
    ...marker,
    "evals.jsonl":
      '{"id": "a", "expected_outcome": "x", "input": [{"role": "user", "content": "Hi", "contnet": 1}]}\n',
  });
  const report = await validateEvalFile(tree.path("evals.jsonl"));
  assert.equal(report.valid, true);
  assert.equal(report.cases, 1);
  assert.equal(report.diagnostics[0].path, "input[0].contnet");
  assert.equal(report.diagnostics[0].column, 82);
  assert.match(report.diagnostics[0].message, /did you mean 'content'\?/);
});

Deno.test("a missing key points at its parent mapping", async () => {
  await using tree = await tempTree({
    ...marker,
    "evals.yaml": `evalcases:
  - id: no-input
    expected_outcome: Fine
`,
  });
  const report = await validateEvalFile(tree.path("evals.yaml"));
  assert.equal(report.valid, false);
  const d = report.diagnostics[0];
  assert.match(d.message, /missing input/);
  assert.deepEqual([d.line, d.column], [2, 5]);
  assert.equal(d.path, "evalcases[0]");
});

Deno.test("an unknown evaluator type is an error naming the supported types", async () => {
  await using tree = await tempTree({
    ...marker,
    "evals.yaml": `evalcases:
  - id: a
    expected_outcome: Fine
    input: Hi
    evaluators:
      - type: llm_judje
`,
  });
  const report = await validateEvalFile(tree.path("evals.yaml"));
  assert.equal(report.cases, 0);
  assert.match(
    report.diagnostics[0].message,
    /'llm_judje' is not supported; expected one of llm_judge/,
  );
});

Deno.test("a case that is not a mapping is reported, the others load", async () => {
  await using tree = await tempTree({
    ...marker,
    "evals.yaml":
      "evalcases:\n  - just a string\n  - id: a\n    expected_outcome: x\n    input: y\n",
  });
  const report = await validateEvalFile(tree.path("evals.yaml"));
  assert.equal(report.cases, 1);
  assert.equal(report.diagnostics[0].line, 2);
  assert.match(report.diagnostics[0].message, /must be a mapping/);
});

Deno.test("file-level failures throw EvalLoadError with positioned diagnostics", async () => {
  await using tree = await tempTree({
    ...marker,
    "syntax.yaml": "evalcases:\n  - id: a\n   bad: [\n",
    "no_cases.yaml": "description: nothing here\n",
    "list.yaml": "- a\n- b\n",
    "dup.yaml": "evalcases: []\nevalcases: []\n",
  });
  for (
    const [file, pattern, line] of [
      ["syntax.yaml", /YAML syntax error/, 3],
      ["no_cases.yaml", /missing evalcases/, 1],
      ["list.yaml", /top level is not a mapping/, 1],
      ["dup.yaml", /YAML syntax error.*(unique|duplicate)/i, 2],
    ] as const
  ) {
    const error = await loadEvalCases(tree.path(file)).then(
      () => assert.fail(`${file} should not load`),
      (e) => e,
    );
    assert.ok(error instanceof EvalLoadError, String(error));
    assert.match(error.message, pattern);
    assert.equal(error.diagnostics[0].line, line, file);
    const report = await validateEvalFile(tree.path(file));
    assert.equal(report.valid, false);
    assert.deepEqual(report.diagnostics, error.diagnostics);
  }
});

Deno.test("an unreadable or missing file is an EvalLoadError, not a crash", async () => {
  const error = await loadEvalCases("/nonexistent/agentv/evals.yaml").catch((e) => e);
  assert.ok(error instanceof EvalLoadError);
  assert.match(error.message, /Cannot read the file/);
});

Deno.test("judge prompt files: unknown {{ variables }} are errors with a suggestion", async () => {
  await using tree = await tempTree({
    ...marker,
    "prompts/judge.md": "Grade {{ candidate_anwser }} against {{ expected_outcome }}.\n",
    "prompts/good.md": "Grade {{ candidate_answer }}.\n",
    "evals/evals.yaml": `evalcases:
  - id: typo
    expected_outcome: Fine
    input: Hi
    evaluators:
      - type: llm_judge
        prompt: prompts/judge.md
  - id: good
    expected_outcome: Fine
    input: Hi
    evaluators:
      - type: llm_judge
        prompt: prompts/good.md
  - id: inline
    expected_outcome: Fine
    input: Hi
    evaluators:
      - type: llm_judge
        prompt: "Is {{ candidate_answer }} about {{ qestion }}?"
  - id: missing-file
    expected_outcome: Fine
    input: Hi
    evaluators:
      - type: llm_judge
        prompt: prompts/nope.md
`,
  });
  const report = await validateEvalFile(tree.path("evals/evals.yaml"));
  assert.equal(report.cases, 1);
  const messages = report.diagnostics.map((d) => `${d.path}: ${d.message}`);
  assert.match(
    messages[0],
    /evalcases\[0\]\.evaluators\[0\]\.prompt: .*candidate_anwser.*did you mean '\{\{ candidate_answer \}\}'/,
  );
  assert.match(messages[1], /evalcases\[2\].*qestion.*did you mean '\{\{ question \}\}'/);
  assert.match(messages[2], /evalcases\[3\].*prompts\/nope\.md' not found/);
});

Deno.test("formatDiagnostic() and formatPath() render locations", () => {
  assert.equal(
    formatPath(["evalcases", 2, "evaluators", 0, "weight"]),
    "evalcases[2].evaluators[0].weight",
  );
  assert.equal(formatPath(["a b"]), '["a b"]');
  assert.equal(
    formatDiagnostic({ severity: "error", file: "a.yaml", line: 3, column: 5, message: "Bad" }),
    "a.yaml:3:5: error: Bad",
  );
  assert.equal(
    formatDiagnostic({ severity: "warning", file: "a.yaml", message: "W" }),
    "a.yaml: warning: W",
  );
});
