/**
 * `execution.trials` in eval files: on the file and on a case (the case's value wins), in a JSONL
 * sidecar, and bad values rejected at their line and column.
 */
import assert from "node:assert/strict";
import { validateEvalFile } from "../../lib/dataset/validate_eval_file.ts";
import { dataset, load } from "./_helpers.ts";

Deno.test("execution.trials of the file reaches every case and a case's own value wins", async () => {
  await using tree = await dataset({
    "evals.yaml": `execution:
  trials: 3
evalcases:
  - id: inherits
    expected_outcome: Fine
    input: Hi
  - id: own
    expected_outcome: Fine
    input: Hi
    execution:
      target: other
      trials: 10
`,
  });
  const { cases, diagnostics } = await load(tree.path("evals.yaml"));
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    cases.map((c) => [c.id, c.execution.target, c.execution.trials]),
    [["inherits", "default", 3], ["own", "other", 10]],
  );
});

Deno.test("execution.trials on one case only leaves the others without trials", async () => {
  await using tree = await dataset({
    "evals.yaml": `evalcases:
  - id: plain
    expected_outcome: Fine
    input: Hi
  - id: flaky
    expected_outcome: Fine
    input: Hi
    execution:
      trials: 10
`,
  });
  const { cases } = await load(tree.path("evals.yaml"));
  assert.deepEqual(cases.map((c) => [c.id, c.execution.trials]), [["plain", undefined], [
    "flaky",
    10,
  ]]);
});

Deno.test("execution.trials of a JSONL sidecar reaches the cases; a line's own value wins", async () => {
  await using tree = await dataset({
    "cases.jsonl": '{"id": "a", "expected_outcome": "x", "input": "Hi"}\n' +
      '{"id": "b", "expected_outcome": "x", "input": "Hi", "execution": {"trials": 2}}\n',
    "cases.yaml": "dataset: side\nexecution:\n  trials: 4\n",
  });
  const { cases, diagnostics } = await load(tree.path("cases.jsonl"));
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(cases.map((c) => [c.id, c.execution.trials]), [["a", 4], ["b", 2]]);
});

Deno.test("validateEvalFile() rejects trials that are not a whole number from 1 to 1000, at the value", async () => {
  const bad: [string, RegExp][] = [
    ["0", /trials must be at least 1, found 0/],
    ["2.5", /trials must be a whole number from 1 to 1000, found 2\.5/],
    ['"3"', /trials must be a whole number from 1 to 1000, found a string/],
    ["1001", /trials must be at most 1000, found 1001/],
  ];
  for (const [value, message] of bad) {
    await using tree = await dataset({
      "evals.yaml": `evalcases:
  - id: ok
    expected_outcome: Fine
    input: Hi
  - id: bad
    expected_outcome: Fine
    input: Hi
    execution:
      trials: ${value}
`,
    });
    const report = await validateEvalFile(tree.path("evals.yaml"));
    assert.equal(report.valid, false, value);
    const errors = report.diagnostics.filter((d) => d.severity === "error");
    assert.equal(errors.length, 1, value);
    const [d] = errors;
    assert.equal(d.path, "evalcases[1].execution.trials");
    // Line 9 is `      trials: <value>`; the value starts at column 15.
    assert.deepEqual([d.line, d.column], [9, 15], value);
    assert.match(d.message, message);
  }
});

Deno.test("validateEvalFile() rejects a bad file-level execution.trials at its position", async () => {
  await using tree = await dataset({
    "evals.yaml": `execution:
  trials: -1
evalcases:
  - id: a
    expected_outcome: Fine
    input: Hi
`,
  });
  const report = await validateEvalFile(tree.path("evals.yaml"));
  assert.equal(report.valid, false);
  const [d] = report.diagnostics.filter((x) => x.severity === "error");
  assert.deepEqual([d.line, d.column], [2, 11]);
  assert.match(d.message, /trials must be at least 1, found -1/);
});

Deno.test("a misspelt trials key in execution is an error that suggests trials", async () => {
  await using tree = await dataset({
    "evals.yaml": `evalcases:
  - id: a
    expected_outcome: Fine
    input: Hi
    execution:
      trails: 3
`,
  });
  const report = await validateEvalFile(tree.path("evals.yaml"));
  assert.equal(report.valid, false);
  const [d] = report.diagnostics.filter((x) => x.severity === "error");
  assert.match(d.message, /did you mean 'trials'\?/);
  assert.deepEqual([d.line, d.column], [6, 7]);
});
