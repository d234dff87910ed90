/**
 * What continues or joins runs works per (case, target, trial) on a run of several targets: an
 * interrupted run is balanced across its targets and `--resume` runs exactly what is missing;
 * `--rerun-failed` reruns only the failed target's rows; the budget cap stops the run in plan
 * order; the response cache records and replays each target's answers; shards of a multi-target
 * run merge into one row per (case, target, trial).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval } from "../../mod.ts";
import { readRunRecord, runRecordPath } from "../../lib/results/run_record.ts";
import { cli, containsSuite, project, rowsOf } from "../_helpers/run_project.ts";
import { CACHE_ENV } from "./_user.ts";
import { grid, runsOf, THREE_TARGETS } from "./_matrix.ts";

const CASES = ["c1", "c2", "c3", "c4"];
const SUITE = containsSuite("d", CASES.map((id) => [id, "ok"]));

Deno.test("an interrupted multi-target run is balanced across its targets; --resume runs the rest", async () => {
  await using p = await project({ ".agentv/targets.yaml": THREE_TARGETS, "evals/a.yaml": SUITE });
  const out = join(p.dir, "o.jsonl");
  const controller = new AbortController();
  let finished = 0;
  await runEval({
    files: [join(p.dir, "evals/a.yaml")],
    env: {},
    cwd: p.dir,
    out,
    workers: 1,
    target: ["a", "b", "c"],
    signal: controller.signal,
    onEvent: (e) => {
      if (e.type === "case_finished" && ++finished === 7) controller.abort();
    },
  });
  const partial = await rowsOf(out);
  const per = (target: string) => partial.filter((r) => r.target === target).length;
  // Plan order a, b, c, a, b, c, a: seven rows are 3 of a and 2 each of b and c.
  assert.deepEqual([per("a"), per("b"), per("c")], [3, 2, 2]);
  assert.equal((await readRunRecord(runRecordPath(out))).status, "interrupted");

  const resumed = await cli(["run", "--resume", "o.jsonl"], p.dir);
  assert.equal(resumed.code, 1, resumed.err); // b fails its cases
  const rows = await rowsOf(out);
  assert.deepEqual(runsOf(rows), grid(CASES, ["a", "b", "c"], 1));
  const record = await readRunRecord(runRecordPath(out));
  assert.equal(record.status, "finished");
  assert.equal(record.resumed?.[0].kept_rows, 7);
  assert.deepEqual(record.summary?.targets?.map((t) => t.total), [4, 4, 4]);
});

Deno.test("--rerun-failed on a multi-target run reruns only the failed target's rows", async () => {
  await using p = await project({ ".agentv/targets.yaml": THREE_TARGETS, "evals/a.yaml": SUITE });
  const first = await cli(["run", "evals", "--target", "a,b,c", "--out", "o.jsonl"], p.dir);
  assert.equal(first.code, 1, first.err);
  const rerun = await cli(["run", "--rerun-failed", "o.jsonl", "--out", "r.jsonl"], p.dir);
  assert.equal(rerun.code, 1, rerun.err);
  assert.deepEqual(runsOf(await rowsOf(join(p.dir, "r.jsonl"))), grid(CASES, ["b"], 1));
  // A given --target that differs from the run's is refused, with what differs.
  const changed = await cli(
    ["run", "--rerun-failed", "o.jsonl", "--target", "a,b", "--out", "x.jsonl"],
    p.dir,
  );
  assert.equal(changed.code, 2);
  assert.match(changed.err, /--target is \["a","b"\] \(run .* had \["a","b","c"\]\)/);
});

Deno.test("the response cache records each target's answers and a replay gives them back", async () => {
  await using p = await project({ ".agentv/targets.yaml": THREE_TARGETS, "evals/a.yaml": SUITE });
  const env = { env: CACHE_ENV };
  const recorded = await cli(
    ["run", "evals", "--target", "a,b,c", "--cache", "readwrite", "--out", "w.jsonl"],
    p.dir,
    env,
  );
  assert.equal(recorded.code, 1, recorded.err);
  const replayed = await cli(
    ["run", "evals", "--target", "a,b,c", "--replay", "--out", "r.jsonl", "--json"],
    p.dir,
    env,
  );
  assert.equal(replayed.code, 1, replayed.err);
  assert.deepEqual(JSON.parse(replayed.out).cache, { hits: 12, misses: 0, writes: 0 });
  const answers = async (file: string) =>
    (await rowsOf(join(p.dir, file))).map((r) => `${r.eval_id}/${r.target}=${r.candidate_answer}`)
      .sort();
  assert.deepEqual(await answers("r.jsonl"), await answers("w.jsonl"));
  assert.ok((await answers("r.jsonl")).includes("c1/b=nope from b"));
});

Deno.test("the shards of a multi-target run merge into one row per (case, target, trial)", async () => {
  await using p = await project({ ".agentv/targets.yaml": THREE_TARGETS, "evals/a.yaml": SUITE });
  for (const shard of ["0/2", "1/2"]) {
    const r = await cli(
      ["run", "evals", "--target", "a,b,c", "--shard", shard, "--out", `s${shard[0]}.jsonl`],
      p.dir,
    );
    assert.ok(r.code === 0 || r.code === 1, r.err);
  }
  // Every target and trial of a case lands in the case's shard.
  for (const file of ["s0.jsonl", "s1.jsonl"]) {
    const rows = await rowsOf(join(p.dir, file));
    const cases = new Set(rows.map((r) => r.eval_id));
    assert.equal(rows.length, cases.size * 3, file);
  }
  const merged = await cli(["merge", "s0.jsonl", "s1.jsonl", "-o", "all.jsonl"], p.dir);
  assert.equal(merged.code, 1, merged.err); // b fails its cases: the merged run fails its gate
  assert.doesNotMatch(merged.err, /more than once|in no shard/);
  assert.deepEqual(runsOf(await rowsOf(join(p.dir, "all.jsonl"))), grid(CASES, ["a", "b", "c"], 1));
  const record = await readRunRecord(runRecordPath(join(p.dir, "all.jsonl")));
  assert.equal(record.status, "finished");
  assert.deepEqual(record.targets.map((t) => t.name).sort(), ["a", "b", "c"]);
});

Deno.test("the budget cap stops a multi-target run in plan order; --resume with a larger cap completes it", async () => {
  await using p = await project({ ".agentv/targets.yaml": THREE_TARGETS, "evals/a.yaml": SUITE });
  // Only a reports a cost, 0.002 per call: after its third call ($0.006 > $0.005) nothing starts.
  const first = await cli(
    [
      "run",
      "evals",
      "--target",
      "a,b,c",
      "--workers",
      "1",
      "--budget-usd",
      "0.005",
      "--out",
      "o.jsonl",
    ],
    p.dir,
  );
  assert.equal(first.code, 1, first.err);
  const rows = await rowsOf(join(p.dir, "o.jsonl"));
  // Plan order c1/a, c1/b, c1/c, c2/a, ..., c3/a (a's third call): the rest are skipped rows,
  // each naming its target.
  assert.deepEqual(
    rows.filter((r) => r.status === "skipped").map((r) => `${r.eval_id}/${r.target}`),
    ["c3/b", "c3/c", "c4/a", "c4/b", "c4/c"],
  );
  const resumed = await cli(["run", "--resume", "o.jsonl", "--budget-usd", "1"], p.dir);
  assert.equal(resumed.code, 1, resumed.err); // b fails its cases
  const all = await rowsOf(join(p.dir, "o.jsonl"));
  assert.deepEqual(runsOf(all), grid(CASES, ["a", "b", "c"], 1));
  assert.equal(all.filter((r) => r.status === "skipped").length, 0);
});
