/**
 * `--max-cases N` (`maxCases`): a run runs at most N cases, the first ones in plan order once
 * `--filter` and `--shard` have chosen, each with all its trials. It is recorded and changes
 * results: a resume keeps it, and one given another value is refused.
 */
import assert from "node:assert/strict";
import { readRunRecord, runRecordPath } from "../../lib/results/run_record.ts";
import { runEval } from "../../lib/run/run_eval.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { cli, containsSuite, mockTargets, project, rowsOf } from "../_helpers/run_project.ts";

const SUITE = containsSuite("a", [["c1", "ok"], ["c2", "ok"], ["x1", "ok"], ["c3", "ok"]]);

const pairsOf = (rows: readonly ResultRow[]) => rows.map((r) => `${r.eval_id}/${r.trial}`).sort();

Deno.test("--max-cases N runs the first N cases after --filter, each with its trials, and records N", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("ok"),
    "evals/a.yaml": SUITE,
  });
  const r = await cli(
    ["run", "evals", "--filter", "c*", "--max-cases", "2", "--trials", "2", "--out", "o.jsonl"],
    p.dir,
  );
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(pairsOf(await rowsOf(p.path("o.jsonl"))), ["c1/0", "c1/1", "c2/0", "c2/1"]);
  const record = await readRunRecord(runRecordPath(p.path("o.jsonl")));
  assert.equal(record.options.max_cases, 2);

  const all = await cli(["run", "evals", "--out", "all.jsonl"], p.dir);
  assert.equal(all.code, 0, all.err);
  assert.equal((await rowsOf(p.path("all.jsonl"))).length, 4);
  assert.equal((await readRunRecord(runRecordPath(p.path("all.jsonl")))).options.max_cases, null);
});

Deno.test("--max-cases takes a whole number >= 1", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("ok"),
    "evals/a.yaml": SUITE,
  });
  for (const value of ["0", "1.5", "-2", "many"]) {
    const r = await cli(["run", "evals", `--max-cases=${value}`], p.dir);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, new RegExp(`--max-cases must be a whole number >= 1, got '${value}'`));
  }
});

Deno.test("a resume keeps the recorded --max-cases and refuses another one with a diff", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("ok"),
    "evals/a.yaml": SUITE,
  });
  const first = await cli(["run", "evals", "--max-cases", "3", "--out", "o.jsonl"], p.dir);
  assert.equal(first.code, 0, first.err);
  const out = p.path("o.jsonl");
  const lines = (await Deno.readTextFile(out)).split("\n").filter(Boolean);
  await Deno.writeTextFile(out, lines[0] + "\n");

  const refused = await cli(["run", "--resume", "o.jsonl", "--max-cases", "4"], p.dir);
  assert.equal(refused.code, 2, refused.err);
  assert.match(refused.err, /o\.jsonl\.run\.json: error: --max-cases: 3 → 4/);

  const resumed = await cli(["run", "--resume", "o.jsonl"], p.dir);
  assert.equal(resumed.code, 0, resumed.err);
  assert.deepEqual(pairsOf(await rowsOf(out)), ["c1/0", "c2/0", "x1/0"]);
});

Deno.test("runEval({ maxCases }) runs at most that many cases", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("ok"),
    "evals/a.yaml": SUITE,
  });
  const { rows, summary } = await runEval({
    files: ["evals"],
    env: {},
    cwd: p.dir,
    maxCases: 1,
  });
  assert.deepEqual(pairsOf(rows), ["c1/0"]);
  assert.equal(summary.total, 1);
});
