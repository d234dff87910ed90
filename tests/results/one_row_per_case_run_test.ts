/**
 * A results file holds one row per (dataset, case, target, trial), and agentv never writes a
 * second: a resume or rerun of a file that holds a copied row is refused (the file untouched),
 * `merge` reports a shard's copied row and writes each case run once, and a run whose eval files
 * share a dataset name and a case id is refused before anything runs (its rows could not be told
 * apart; they used to read as two trials).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readResults } from "../../lib/results/read_results.ts";
import { cli, containsSuite, mockTargets, project } from "../_helpers/run_project.ts";

function twoCases() {
  return project({
    ".agentv/targets.yaml": mockTargets("ok"),
    "evals/a.yaml": containsSuite("a", [["c1", "ok"], ["c2", "nope"], ["c3", "ok"], ["c4", "x"]]),
  });
}

/** Appends a copy of the first row of `path`; resolves to the file's new text. */
async function copyFirstRow(path: string): Promise<string> {
  const text = await Deno.readTextFile(path);
  const forged = text + text.split("\n")[0] + "\n";
  await Deno.writeTextFile(path, forged);
  return forged;
}

for (
  const flag of [
    ["--resume"],
    ["--rerun-failed", "--out", "rerun.jsonl"],
    ["--retry-errors", "--out", "retry.jsonl"],
  ]
) {
  Deno.test(`${flag[0]} refuses a results file holding a case run twice, changing nothing`, async () => {
    await using p = await twoCases();
    assert.equal((await cli(["run", "evals", "--out", "o.jsonl"], p.dir)).code, 1);
    const forged = await copyFirstRow(join(p.dir, "o.jsonl"));
    const r = await cli(["run", flag[0], "o.jsonl", ...flag.slice(1)], p.dir);
    assert.equal(r.code, 2, r.err + r.out);
    assert.match(
      r.err,
      /o\.jsonl:5:1: error: Duplicate result row: case 'c1' .* is also at line 1/,
    );
    assert.match(r.err, /has 1 case run\(s\) with more than one row/);
    assert.match(r.err, /hint: remove the extra lines/);
    assert.equal(await Deno.readTextFile(join(p.dir, "o.jsonl")), forged);
    for (const out of ["rerun.jsonl", "retry.jsonl"]) {
      assert.ok(!(await Deno.stat(join(p.dir, out)).then(() => true, () => false)), out);
    }
  });
}

Deno.test("a resumed run and a rerun write each case run once", async () => {
  await using p = await twoCases();
  assert.equal((await cli(["run", "evals", "--out", "o.jsonl"], p.dir)).code, 1);
  // A resume of a finished run runs nothing; a rerun writes only the failed case runs.
  assert.equal((await cli(["run", "--resume", "o.jsonl"], p.dir)).code, 1);
  const rerun = await cli(["run", "--rerun-failed", "o.jsonl", "--out", "r.jsonl"], p.dir);
  assert.equal(rerun.code, 1, rerun.err);
  for (const [file, rows] of [["o.jsonl", 4], ["r.jsonl", 2]] as const) {
    const read = await readResults(join(p.dir, file));
    assert.deepEqual(read.problems, [], file);
    assert.equal(read.rows.length, rows, file);
  }
});

Deno.test("merge reports a shard's copied row and writes each case run once", async () => {
  await using p = await twoCases();
  for (const i of [0, 1]) {
    const r = await cli(["run", "evals", "--shard", `${i}/2`, "--out", `s${i}.jsonl`], p.dir);
    assert.ok(r.code <= 1, r.err);
  }
  // The shard that holds rows gets a copy of its first row.
  const shard = (await readResults(join(p.dir, "s0.jsonl"))).rows.length > 0 ? "s0" : "s1";
  await copyFirstRow(join(p.dir, `${shard}.jsonl`));
  const merged = await cli(["merge", "s0.jsonl", "s1.jsonl", "-o", "all.jsonl"], p.dir);
  assert.equal(merged.code, 1, merged.err);
  assert.match(merged.err, new RegExp(`${shard}\\.jsonl:\\d+:1: error: Duplicate result row`));
  const read = await readResults(join(p.dir, "all.jsonl"));
  assert.deepEqual(read.problems, []);
  assert.deepEqual(read.rows.map((r) => r.eval_id), ["c1", "c2", "c3", "c4"]);
});

Deno.test("a run whose eval files share a dataset name and a case id is refused before anything runs", async () => {
  const suite = containsSuite("same", [["c1", "ok"]]);
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("ok"),
    "evals/one/a.yaml": suite,
    "evals/two/a.yaml": suite,
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 2, r.err + r.out);
  assert.match(
    r.err,
    /evals\/two\/a\.yaml: error: Case 'c1' of dataset 'same' is also in evals\/one\/a\.yaml; their rows could not be told apart/,
  );
  assert.match(r.err, /hint: give one of the files its own dataset name/);
  assert.ok(!(await Deno.stat(join(p.dir, "o.jsonl")).then(() => true, () => false)));
  // Named apart, both run.
  await Deno.writeTextFile(
    join(p.dir, "evals/two/a.yaml"),
    containsSuite("other", [["c1", "ok"]]),
  );
  assert.equal((await cli(["run", "evals", "--out", "o.jsonl"], p.dir)).code, 0);
});
