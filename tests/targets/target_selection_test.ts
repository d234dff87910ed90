/** Targets: which targets file and which target a case uses; `validate` checks the targets file. */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  byId,
  cli,
  containsSuite,
  lib,
  mockTargets,
  project,
  rowsOf,
} from "../_helpers/run_project.ts";

Deno.test("targets: the nearest targets file wins; --targets overrides; .jsonc works", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("outer"),
    "evals/inner/.agentv/targets.jsonc":
      `// comment\n{"targets": [{"name": "default", "provider": "mock", "response": "inner"}]}`,
    "evals/inner/a.yaml": containsSuite("a", [["c1", "inner"]]),
    "evals/b.yaml": containsSuite("b", [["c2", "outer"]]),
    "other/t.yaml": mockTargets("explicit"),
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 0, r.out + r.err);
  const rows = byId(await rowsOf(join(p.dir, "o.jsonl")));
  assert.equal(rows.c1.candidate_answer, "inner");
  assert.equal(rows.c2.candidate_answer, "outer");
  const files = ["evals/inner/a.yaml", "evals/b.yaml"];
  for (const row of await lib(p.dir, files, { targetsFile: "other/t.yaml" })) {
    assert.equal(row.candidate_answer, "explicit");
  }
});

Deno.test("targets: the case's execution.target picks the target; --target overrides", async () => {
  await using p = await project({
    ".agentv/targets.yaml":
      `targets:\n  - name: default\n    provider: mock\n    response: D\n  - name: alt\n    provider: mock\n    response: A\n  - name: third\n    provider: mock\n    response: T\n`,
    "evals/a.yaml": `execution:
  target: alt
evalcases:
  - id: file-level
    expected_outcome: x
    input: x
    evaluators: [{type: contains, value: x}]
  - id: case-level
    expected_outcome: x
    input: x
    execution:
      target: default
    evaluators: [{type: contains, value: x}]
`,
  });
  const rows = byId(await lib(p.dir, ["evals/a.yaml"]));
  assert.equal(rows["file-level"].target, "alt");
  assert.equal(rows["file-level"].candidate_answer, "A");
  assert.equal(rows["case-level"].target, "default");
  assert.equal(rows["case-level"].candidate_answer, "D");
  for (const row of await lib(p.dir, ["evals/a.yaml"], { target: "third" })) {
    assert.equal(row.target, "third");
    assert.equal(row.candidate_answer, "T");
  }
});

Deno.test("targets: `agentv validate` checks the targets file with file:line:col", async () => {
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - name: default\n    provider: nosuch\n",
    "evals/a.yaml": containsSuite("a", [["c1", "x"]]),
  });
  const r = await cli(["validate", "."], p.dir);
  assert.equal(r.code, 1, r.out + r.err);
  assert.match(r.out + r.err, /targets\.yaml:3:\d+/);
});
