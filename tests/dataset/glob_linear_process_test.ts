/**
 * Loader: globs from a dataset or the command line cannot hang a run: the real CLI, bounded by a
 * kill timer (an exponential matcher would hang the process, not the suite), finishes a many-star
 * glob against a long name. The semantics are tests/dataset/glob_linear_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMainBounded } from "../_helpers/bounded_process.ts";
import { containsSuite, mockTargets, project, rowsOf } from "../_helpers/run_project.ts";

const EVIL_GLOB = "*a*a*a*a*a*a*a*b";
const LONG_ID = "a".repeat(60);

Deno.test("run --filter with a many-star glob finishes against a long id", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": containsSuite("a", [[LONG_ID, "Paris"], ["ab", "Paris"], [
      "aaaaaaab",
      "Paris",
    ]]),
  });
  const r = await runMainBounded(
    ["run", "evals", "--filter", EVIL_GLOB, "--out", "o.jsonl"],
    p.dir,
  );
  assert.equal(r.killed, false, "--filter hung on a many-star glob");
  assert.equal(r.code, 0, r.err);
  const rows = await rowsOf(join(p.dir, "o.jsonl"));
  assert.deepEqual(rows.map((row) => row.eval_id), ["aaaaaaab"]);
});

Deno.test("validate with a many-star guideline pattern finishes against a long file name", async () => {
  const name = `${"a".repeat(60)}.md`;
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    ".agentv/config.yaml": `guideline_patterns: ["${EVIL_GLOB}"]\n`,
    [`evals/${name}`]: "notes",
    "evals/a.yaml": "evalcases:\n  - id: c1\n    expected_outcome: x\n    input:\n" +
      `      - role: user\n        content:\n          - { type: file, value: ${name} }\n` +
      "    evaluators: [{ type: contains, value: Paris }]\n",
  });
  const r = await runMainBounded(["validate", "evals"], p.dir);
  assert.equal(r.killed, false, "validate hung on a many-star guideline pattern");
  assert.equal(r.code, 0, r.out + r.err);
});
