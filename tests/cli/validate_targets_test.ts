/** `agentv validate` checks every case's target against the targets file that applies. */
import assert from "node:assert/strict";
import { runCli } from "../../lib/cli/app.ts";
import { validatePaths } from "../../lib/cli/validate.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { createBufferIO, normalize } from "./_buffer_io.ts";

const TARGETS = `targets:
  - name: default
    provider: mock
    response: ok
    judge_target: judge
  - name: fast_mock
    provider: mock
    response: ok
    judge_target: judge
  - name: judge
    provider: mock
    judge: true
`;

const SUITE = `execution:
  target: default
evalcases:
  - id: uses-default
    expected_outcome: Says ok
    input: hi
  - id: uses-typo
    expected_outcome: Says ok
    input: hi
    execution:
      target: fast_mok
  - id: uses-unknown
    expected_outcome: Says ok
    input: hi
    execution:
      target: nowhere
`;

async function validate(args: string[], cwd: string) {
  const io = createBufferIO({ cwd });
  const code = await runCli(["validate", ...args], io);
  return { code, out: normalize(io.out()), err: normalize(io.err()) };
}

Deno.test("validate reports a case whose target is not defined, at the case's execution.target, with did-you-mean and the defined targets", async () => {
  await using tree = await tempTree({ ".agentv/targets.yaml": TARGETS, "evals/a.yaml": SUITE }, {
    git: true,
  });
  const { code, out } = await validate(["evals/a.yaml"], tree.dir);
  assert.equal(code, 1, out);
  assert.match(out, /^✗ evals\/a\.yaml \(3 cases, 2 errors\)$/m);
  const typo = out.split("\n").find((l) => l.startsWith("evals/a.yaml:11:15: error: "));
  assert.ok(typo, out);
  assert.match(
    typo,
    /Case 'uses-typo': target 'fast_mok' is not defined in \.agentv\/targets\.yaml/,
  );
  assert.match(typo, /did you mean 'fast_mock'\?/);
  assert.match(typo, /defined targets: default, fast_mock, judge/);
  assert.match(out, /^evals\/a\.yaml:16:15: error: Case 'uses-unknown': target 'nowhere'/m);
  assert.ok(!/uses-default/.test(out), "a defined target is not reported");
});

Deno.test("validate reports a file-level default target that is missing at each case's id, and follows the nearest targets file", async () => {
  await using tree = await tempTree({
    ".agentv/targets.yaml": TARGETS,
    // a nearer targets file hides the outer one, as in a run
    "sub/.agentv/targets.yaml": "targets:\n  - name: other\n    provider: mock\n",
    "sub/evals/b.yaml": "evalcases:\n  - id: b1\n    expected_outcome: x\n    input: hi\n",
    "evals/c.jsonl": '{"id":"c1","expected_outcome":"x","input":"hi"}\n',
    "evals/c.yaml": "execution:\n  target: missing_one\n",
  }, { git: true });
  const result = await validatePaths(["sub/evals/b.yaml", "evals/c.jsonl"], { cwd: tree.dir });
  const b = result.files.find((r) => r.file.endsWith("b.yaml"))!;
  const c = result.files.find((r) => r.file.endsWith("c.jsonl"))!;
  assert.equal(b.valid, false);
  assert.deepEqual(
    b.diagnostics.map((d) => [d.line, d.column, d.path]),
    [[2, 9, "evalcases[0].id"]],
  );
  assert.match(b.diagnostics[0].message, /target 'default' \(the file's default target\)/);
  assert.match(b.diagnostics[0].message, /defined targets: other/);
  assert.equal(c.valid, false);
  assert.equal(c.diagnostics[0].line, 1);
  assert.match(c.diagnostics[0].message, /Case 'c1': target 'missing_one'/);
});

Deno.test("validate --target and --targets check cases as run would use them", async () => {
  await using tree = await tempTree({
    ".agentv/targets.yaml": TARGETS,
    "evals/a.yaml":
      "evalcases:\n  - id: a1\n    expected_outcome: x\n    input: hi\n    execution:\n      target: default\n",
    "elsewhere/targets.yaml": "targets:\n  - name: remote\n    provider: mock\n",
  }, { git: true });
  const ok = await validate(["evals/a.yaml", "--target", "fast_mock"], tree.dir);
  assert.equal(ok.code, 0, ok.out);
  const wrong = await validate(["evals/a.yaml", "--target", "fast"], tree.dir);
  assert.equal(wrong.code, 1);
  assert.match(wrong.out, /target 'fast' \(given by --target\) is not defined/);
  const other = await validate(["evals/a.yaml", "--targets", "elsewhere/targets.yaml"], tree.dir);
  assert.equal(other.code, 1);
  assert.match(other.out, /target 'default' is not defined in elsewhere\/targets\.yaml/);
  const missing = await validate(["evals/a.yaml", "--targets", "nope.yaml"], tree.dir);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /Targets file not found/);
});

Deno.test("validate fails a case whose target definition or targets file is invalid (a run could not use it), not one without a targets file (a dry run needs none)", async () => {
  await using tree = await tempTree({
    ".agentv/targets.yaml":
      "targets:\n  - name: default\n    provider: mock\n    workers: lots\n  - name: fine\n    provider: mock\n",
    "evals/a.yaml":
      "evalcases:\n  - id: a1\n    expected_outcome: x\n    input: hi\n  - id: a2\n    expected_outcome: x\n    input: hi\n    execution: { target: fine }\n    evaluators: [{ type: contains, value: x }]\n",
  }, { git: true });
  const { code, out } = await validate(["evals/a.yaml"], tree.dir);
  assert.equal(code, 1);
  assert.match(
    out,
    /^evals\/a\.yaml:2:9: error: Case 'a1': target 'default' cannot be used: its definition in \.agentv\/targets\.yaml:4:\d+ is invalid/m,
  );
  assert.ok(!out.includes("Case 'a2'"), out);
  await Deno.writeTextFile(tree.path(".agentv/targets.yaml"), "targets: 3\n");
  const broken = await validate(["evals/a.yaml"], tree.dir);
  assert.equal(broken.code, 1);
  assert.match(
    broken.out,
    /error: Case 'a1': target 'default' cannot be used: the targets file \.agentv\/targets\.yaml(:\d+:\d+)? is invalid/,
  );
  await Deno.remove(tree.path(".agentv/targets.yaml"));
  const none = await validate(["evals/a.yaml"], tree.dir);
  assert.equal(none.code, 0, none.out);
});

Deno.test("validate points at a JSONL case's own target by line and column, and holds no case of a large file", async () => {
  const lines = Array.from(
    { length: 3000 },
    (_, i) => JSON.stringify({ id: `c${i}`, expected_outcome: "x", input: "hi" }),
  );
  // One case names a target that does not exist, after 2,999 valid ones.
  lines.push(
    '{"id": "odd", "expected_outcome": "x", "input": "hi", "execution": {"target": "fast_mok"}}',
  );
  await using tree = await tempTree({
    ".agentv/targets.yaml": TARGETS,
    "evals/many.jsonl": lines.join("\n") + "\n",
  }, { git: true });
  const result = await validatePaths(["evals/many.jsonl"], { cwd: tree.dir });
  const [report] = result.files;
  assert.equal(report.cases, 3001);
  assert.equal(report.targets, undefined, "the case targets stay in the sandbox");
  assert.deepEqual(
    report.diagnostics.map((d) => [d.line, d.column, d.path]),
    [[3001, lines[3000].indexOf('"fast_mok"') + 1, "execution.target"]],
  );
  assert.match(report.diagnostics[0].message, /did you mean 'fast_mock'/);
});
