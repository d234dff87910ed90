/**
 * `agentv run --shard i/n` and `agentv merge`, in-process: how `--shard` is checked, that an
 * empty shard passes, that merge refuses shards of other datasets or options, reports missing
 * shards, missing cases and duplicates, and writes a results file and run record that
 * `agentv report` and `agentv compare` read.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readRunRecord, runRecordPath } from "../../lib/results/run_record.ts";
import { shardOf } from "../../lib/run/plan.ts";
import { cli, project, rowsOf } from "../_helpers/run_project.ts";

const TARGETS = "targets:\n  - name: default\n    provider: mock\n    echo: true\n";

/**
 * An eval file of `n` cases `c0`…: the mock echoes the prompt, so case `ci` (input `word-i`)
 * passes its first check and passes the second only when i is even: score 1 or 0.5.
 */
function evalFile(n: number): string {
  let text = "dataset: shards\nevalcases:\n";
  for (let i = 0; i < n; i++) {
    text += `  - id: c${i}\n    expected_outcome: echoes\n    input: word-${i}\n` +
      `    evaluators:\n      - {name: own, type: contains, value: word-${i}}\n` +
      `      - {name: even, type: contains, value: "${i % 2 === 0 ? "word" : "nope"}"}\n`;
  }
  return text;
}

function shardProject(cases: number) {
  return project({ ".agentv/targets.yaml": TARGETS, "evals/a.yaml": evalFile(cases) });
}

for (
  const [value, message] of [
    ["4/4", /shard index must be from 0 to 3 \(shards are numbered from 0\), got 4/],
    ["a/4", /shard index must be an integer from 0 to 3, got 'a'/],
    ["=-1/4", /shard index must be an integer from 0 to 3, got '-1'/],
    ["1/0", /shard count must be an integer >= 1, got '0'/],
    ["1.5/4", /shard index must be an integer/],
    ["3", /--shard must be INDEX\/COUNT, got '3'/],
  ] as const
) {
  const flag = value.startsWith("=") ? [`--shard${value}`] : ["--shard", value];
  Deno.test(`agentv run ${flag.join(" ")} is a usage error (exit 2) that says what is wrong`, async () => {
    await using p = await shardProject(1);
    const { code, err } = await cli(["run", "evals", ...flag], p.dir);
    assert.equal(code, 2, err);
    assert.match(err, message);
    assert.match(err, /JOB_COMPLETION_INDEX|numbered from 0|shards of --shard/);
  });
}

Deno.test("agentv run --shard runs only its cases, records the shard, and an empty shard passes", async () => {
  await using p = await shardProject(1);
  const home = shardOf("shards", "c0", 3);
  const empty = (home + 1) % 3;
  const ran = await cli(["run", "evals", "--shard", `${home}/3`, "--out", "home.jsonl"], p.dir);
  assert.equal(ran.code, 0, ran.err);
  assert.deepEqual((await rowsOf(join(p.dir, "home.jsonl"))).map((r) => r.eval_id), ["c0"]);
  const record = await readRunRecord(runRecordPath(join(p.dir, "home.jsonl")));
  assert.deepEqual(record.options.shard, { index: home, count: 3 });

  const none = await cli(["run", "evals", "--shard", `${empty}/3`, "--out", "e.jsonl"], p.dir);
  assert.equal(none.code, 0, none.out + none.err);
  assert.match(none.err, new RegExp(`Shard ${empty}/3 holds no case`));
  assert.deepEqual(await rowsOf(join(p.dir, "e.jsonl")), []);
  const emptyRecord = await readRunRecord(runRecordPath(join(p.dir, "e.jsonl")));
  assert.equal(emptyRecord.status, "finished");
});

/**
 * Runs every shard of `n` (of `cases` cases) in-process into `shard-i.jsonl`; returns the file
 * names.
 */
async function runShards(dir: string, cases: number, n: number): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < n; i++) {
    const out = `shard-${i}.jsonl`;
    const { code, err } = await cli(
      ["run", "evals", "--shard", `${i}/${n}`, "--out", out],
      dir,
    );
    // Odd cases score 0.5 (a fail verdict): a shard holding one exits 1.
    const odd = [...Array(cases).keys()].some((c) =>
      c % 2 === 1 && shardOf("shards", `c${c}`, n) === i
    );
    assert.equal(code, odd ? 1 : 0, err);
    files.push(out);
  }
  return files;
}

Deno.test("agentv merge joins the shards into one run that report and compare read like a single run", async () => {
  await using p = await shardProject(9);
  const files = await runShards(p.dir, 9, 3);
  const merged = await cli(["merge", ...files, "-o", "all/merged.jsonl"], p.dir);
  // Odd cases fail (0.5): the merged run fails the gate as the single run would.
  assert.equal(merged.code, 1, merged.err);
  assert.equal(merged.err, "");
  assert.match(merged.out, /Merged 3 shards \(9 rows\) into all\/merged\.jsonl/);
  const path = join(p.dir, "all/merged.jsonl");
  const rows = await rowsOf(path);
  assert.deepEqual(
    rows.map((r) => [r.eval_id, r.score]),
    [...Array(9).keys()].map((i) => `c${i}`).sort().map((id) => [
      id,
      Number(id.slice(1)) % 2 === 0 ? 1 : 0.5,
    ]),
  );
  const record = await readRunRecord(runRecordPath(path));
  const shardRecords = await Promise.all(
    files.map((f) => readRunRecord(runRecordPath(join(p.dir, f)))),
  );
  assert.equal(record.status, "finished");
  assert.equal(record.error, null);
  assert.equal(record.options.shard, null);
  assert.ok(!shardRecords.some((r) => r.run_id === record.run_id));
  assert.deepEqual(
    record.merged_from?.map((m) => [m.run_id, m.shard?.index, m.rows]),
    shardRecords.map((r, i) => [r.run_id, i, r.summary!.total]),
  );
  assert.equal(record.summary?.total, 9);
  assert.deepEqual(record.summary?.verdicts, { pass: 5, borderline: 0, fail: 4 });
  assert.equal(record.summary?.scores.mean, (5 * 1 + 4 * 0.5) / 9);

  const single = await cli(["run", "evals", "--out", "single.jsonl"], p.dir);
  assert.equal(single.code, 1);
  for (const format of ["json", "junit", "markdown", "html"]) {
    const report = await cli(["report", "all/merged.jsonl", "--format", format], p.dir);
    assert.equal(report.code, 0, `${format}: ${report.err}`);
    if (format === "json") {
      assert.equal(JSON.parse(report.out).summary.total, 9);
    }
  }
  const compare = await cli(["compare", "single.jsonl", "all/merged.jsonl", "--json"], p.dir);
  assert.equal(compare.code, 0, compare.err);
  const compared = JSON.parse(compare.out);
  assert.deepEqual(
    [compared.summary.matched, compared.summary.ties, compared.only_baseline.length],
    [9, 9, 0],
  );
  assert.equal(compared.only_candidate.length, 0);
  for (const m of compared.matched) assert.equal(m.score1, m.score2, m.eval_id);
});

Deno.test("agentv merge names the missing shard and the cases no shard ran (exit 1, status failed)", async () => {
  await using p = await shardProject(9);
  const files = await runShards(p.dir, 9, 3);
  const { code, err } = await cli(["merge", files[0], files[2], "-o", "m.jsonl"], p.dir);
  assert.equal(code, 1);
  assert.match(err, /missing shard 1\/3/);
  const lost = [...Array(9).keys()].map((i) => `c${i}`).filter((id) =>
    shardOf("shards", id, 3) === 1
  );
  assert.ok(lost.length > 0);
  for (const id of lost) assert.match(err, new RegExp(`shards/${id} \\[default\\] trial 0`));
  const record = await readRunRecord(runRecordPath(join(p.dir, "m.jsonl")));
  assert.equal(record.status, "failed");
  assert.match(record.error ?? "", /shard 1\/3 is missing/);
  assert.equal(record.summary?.not_started, lost.length);
  assert.equal((await rowsOf(join(p.dir, "m.jsonl"))).length, 9 - lost.length);
});

Deno.test("agentv merge reports a shard given twice and its duplicate rows, keeping one row each", async () => {
  await using p = await shardProject(6);
  const files = await runShards(p.dir, 6, 2);
  await Deno.copyFile(join(p.dir, files[0]), join(p.dir, "again.jsonl"));
  await Deno.copyFile(
    runRecordPath(join(p.dir, files[0])),
    runRecordPath(join(p.dir, "again.jsonl")),
  );
  const { code, err } = await cli(["merge", ...files, "again.jsonl", "-o", "m.jsonl"], p.dir);
  assert.equal(code, 1);
  assert.match(err, /shard 0\/2 given more than once/);
  const dupes = (await rowsOf(join(p.dir, files[0]))).length;
  assert.match(err, new RegExp(`${dupes} case run\\(s\\) appear more than once`));
  assert.match(err, /shard-0\.jsonl, again\.jsonl/);
  assert.equal((await rowsOf(join(p.dir, "m.jsonl"))).length, 6);
});

Deno.test("agentv merge refuses (exit 2) shards run with other options or over changed eval files", async () => {
  await using p = await shardProject(4);
  await cli(["run", "evals", "--shard", "0/2", "--out", "a.jsonl"], p.dir);
  await cli(["run", "evals", "--shard", "1/2", "--out", "b.jsonl", "--trials", "2"], p.dir);
  const options = await cli(["merge", "a.jsonl", "b.jsonl", "-o", "m.jsonl"], p.dir);
  assert.equal(options.code, 2);
  assert.match(options.err, /not the shards of one run/);
  assert.match(options.err, /option trials: null in a\.jsonl, 2 in b\.jsonl/);

  // How a shard ran (workers, timeout) does not change its scores: those shards merge.
  await cli(["run", "evals", "--shard", "1/2", "--out", "d.jsonl", "--workers", "1"], p.dir);
  await cli(["run", "evals", "--shard", "0/2", "--out", "e.jsonl", "--timeout", "30"], p.dir);
  const how = await cli(["merge", "d.jsonl", "e.jsonl", "-o", "how.jsonl"], p.dir);
  // Merged (exit 1 is the gate: two cases of this project fail by design).
  assert.doesNotMatch(how.err, /not the shards of one run/);
  assert.match(how.out, /Merged 2 shards \(4 rows\) into how\.jsonl \(run .*, finished\)/);

  await Deno.writeTextFile(join(p.dir, "evals/a.yaml"), evalFile(5));
  await cli(["run", "evals", "--shard", "1/2", "--out", "c.jsonl"], p.dir);
  const changed = await cli(["merge", "a.jsonl", "c.jsonl", "-o", "m.jsonl"], p.dir);
  assert.equal(changed.code, 2);
  assert.match(changed.err, /eval file .*a\.yaml: content differs \(sha256/);

  await cli(["run", "evals", "--out", "whole.jsonl"], p.dir);
  const whole = await cli(["merge", "a.jsonl", "whole.jsonl", "-o", "m.jsonl"], p.dir);
  assert.equal(whole.code, 2);
  assert.match(whole.err, /whole\.jsonl was not run with --shard/);
  await assert.rejects(Deno.stat(join(p.dir, "m.jsonl")), Deno.errors.NotFound);
});

Deno.test("agentv merge without -o, with a results file lacking its run record, or onto an input is a usage error", async () => {
  await using p = await shardProject(2);
  await cli(["run", "evals", "--shard", "0/1", "--out", "a.jsonl"], p.dir);
  assert.match((await cli(["merge", "a.jsonl"], p.dir)).err, /needs the merged results file: -o/);
  const onto = await cli(["merge", "a.jsonl", "-o", "a.jsonl"], p.dir);
  assert.equal(onto.code, 2);
  assert.match(onto.err, /would overwrite the input/);
  await Deno.copyFile(join(p.dir, "a.jsonl"), join(p.dir, "bare.jsonl"));
  const bare = await cli(["merge", "bare.jsonl", "-o", "m.jsonl"], p.dir);
  assert.equal(bare.code, 2);
  assert.match(bare.err, /bare\.jsonl\.run\.json: cannot read the run record/);
  assert.match(bare.err, /keep <results>\.run\.json with its results file/);
});
