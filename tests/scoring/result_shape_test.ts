/** Evaluators: the shape of evaluator results, the case score formula and verdicts. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, evaluate, mockTargets, project, rowsOf } from "../_helpers/run_project.ts";

Deno.test("evaluator results have the documented shape; case score formula and verdicts", async () => {
  const r = await evaluate(
    "Paris",
    `      - {name: a, type: contains, value: Paris, weight: 3}
      - {name: b, type: contains, value: Rome, weight: 1}
      - {name: c, type: contains, value: Oslo, weight: 0}
`,
  );
  assert.equal(r.score, 0.75);
  assert.equal(r.verdict, "borderline");
  assert.equal(r.status, "ok");
  for (const e of r.evaluator_results) {
    for (const key of ["name", "type", "status", "score", "weight", "verdict", "hits", "misses"]) {
      assert.ok(key in e, `${key} on ${JSON.stringify(e)}`);
    }
  }
  assert.deepEqual(r.evaluator_results.map((e) => [e.name, e.weight, e.verdict]), [
    ["a", 3, "pass"],
    ["b", 1, "fail"],
    ["c", 0, "fail"],
  ]);
  const pass = await evaluate(
    "Paris",
    "      - {type: contains, value: Paris, weight: 4}\n      - {type: contains, value: X}\n",
  );
  assert.equal(pass.score, 0.8);
  assert.equal(pass.verdict, "pass");
  const fail = await evaluate(
    "Paris",
    "      - {type: contains, values: [Paris, x, y, z, w], mode: all}\n",
  );
  assert.equal(fail.score, 0.2);
  assert.equal(fail.verdict, "fail");
  const b = await evaluate(
    "Paris",
    "      - {type: contains, values: [Paris, P, a, b, c], mode: all}\n",
  );
  assert.equal(b.score, 0.6);
  assert.equal(b.verdict, "borderline");
});

Deno.test("a case with no evaluators and no judge is a clear error, not a silent pass", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("anything"),
    "evals/a.yaml": "evalcases:\n  - id: c1\n    expected_outcome: x\n    input: q\n" +
      "  - id: c2\n    expected_outcome: x\n    input: q\n    evaluators: [{type: contains, value: any}]\n",
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 1);
  const [row] = (await rowsOf(join(p.dir, "o.jsonl"))).filter((row) => row.eval_id === "c1");
  assert.equal(row.status, "error");
  assert.match(
    row.error ?? "",
    /^No judge for target 'default': the case lists no evaluators, so llm_judge/,
  );
  assert.equal(row.attempts, 0, "the target is not called for a case that could not be graded");
  // Alone, nothing could run: a configuration error (exit 2) that says the same.
  await Deno.writeTextFile(
    join(p.dir, "evals/a.yaml"),
    "evalcases:\n  - id: c1\n    expected_outcome: x\n    input: q\n",
  );
  const alone = await cli(["run", "evals"], p.dir);
  assert.equal(alone.code, 2, alone.out + alone.err);
  assert.match(alone.err, /No judge for target 'default'/);
});
