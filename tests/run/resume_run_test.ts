/**
 * `agentv run --resume <results>`: the same run goes on in the same file. Finished pairs are left
 * out, interrupted rows and a torn last line are replaced, the record keeps its run id and lists
 * the resume, and the summary covers every row of the file. Changed eval files and options that
 * change results are refused before anything runs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { readRunRecord, runRecordPath } from "../../lib/results/run_record.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { createBufferIO } from "../cli/_buffer_io.ts";
import { cli, containsSuite, project, rowsOf } from "../_helpers/run_project.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";

const openaiTargets = (url: string) =>
  `targets:\n  - name: default\n    provider: openai\n    base_url: ${url}\n    api_key: sk-test\n    model: m\n`;

/** `dataset/id/trial` of every row, sorted. */
function pairsOf(rows: readonly ResultRow[]): string[] {
  return rows.map((r) => `${r.dataset}/${r.eval_id}/${r.trial}`).sort();
}

Deno.test("resume after Ctrl-C runs the interrupted cases again and keeps one row per case", async () => {
  // The first request is answered; the next two hang until the run is interrupted.
  await using server = startProviderServer("openai", {
    steps: ["ok", { type: "hang" }, { type: "hang" }],
  });
  await using p = await project({
    ".agentv/targets.yaml": openaiTargets(server.url),
    "evals/a.yaml": containsSuite("a", [["c1", "ok"], ["c2", "ok"], ["c3", "ok"]]),
  });
  const io = createBufferIO({ cwd: p.dir });
  const running = runCli(["run", "evals", "--workers", "2", "--out", "o.jsonl"], io);
  // Three requests: one answered, two hanging (the cases in flight); then Ctrl-C.
  await server.waitForRequests(3);
  io.interrupt();
  assert.equal(await running, 130, io.err());
  const out = join(p.dir, "o.jsonl");
  const before = await rowsOf(out);
  assert.equal(before.filter((r) => r.error === "interrupted").length, 2);
  const first = await readRunRecord(runRecordPath(out));
  assert.equal(first.status, "interrupted");

  const r = await cli(["run", "--resume", "o.jsonl"], p.dir);
  assert.equal(r.code, 0, r.err + r.out);
  assert.match(r.out, /Resuming o\.jsonl/);
  const rows = await rowsOf(out);
  assert.deepEqual(pairsOf(rows), ["a/c1/0", "a/c2/0", "a/c3/0"]);
  assert.ok(rows.every((row) => row.status === "ok" && row.run_id === first.run_id));
  assert.equal(server.requests.length, 5, "only the two interrupted cases ran again");
  const record = await readRunRecord(runRecordPath(out));
  assert.equal(record.run_id, first.run_id);
  assert.equal(record.started_at, first.started_at);
  assert.equal(record.status, "finished");
  assert.equal(record.resumed?.length, 1);
  assert.equal(record.resumed?.[0].kept_rows, 1);
  assert.equal(record.resumed?.[0].dropped_rows, 2);
  assert.equal(record.resumed?.[0].torn_line, false);
  assert.notEqual(record.resumed?.[0].ended_at, null);
  // The summary is over the whole file, not only the two cases of the resume.
  assert.equal(record.summary?.total, 3);
  assert.equal(record.summary?.scored, 3);
  assert.equal(record.summary?.verdicts.pass, 3);
});

/** A finished run of four cases (c2 fails) in `o.jsonl`, with a mock target. */
async function finishedRun() {
  const p = await project({
    ".agentv/targets.yaml": "targets:\n  - name: default\n    provider: mock\n    response: ok\n",
    "evals/a.yaml": containsSuite("a", [["c1", "ok"], ["c2", "nope"], ["c3", "ok"], ["c4", "ok"]]),
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl", "--workers", "1"], p.dir);
  assert.equal(r.code, 1, r.err);
  return p;
}

Deno.test("resume cuts a torn last line off, keeps every whole row and runs the rest", async () => {
  await using p = await finishedRun();
  const out = join(p.dir, "o.jsonl");
  const lines = (await Deno.readTextFile(out)).split("\n").filter(Boolean);
  // As if killed while writing the third row: two whole rows and half a line.
  const whole = lines.slice(0, 2);
  await Deno.writeTextFile(out, whole.join("\n") + "\n" + lines[2].slice(0, 25));
  const kept = whole.map((l) => JSON.parse(l).eval_id as string);

  const r = await cli(["run", "--resume", "o.jsonl"], p.dir);
  assert.equal(r.code, 1, "c2 still fails");
  const text = await Deno.readTextFile(out);
  assert.ok(text.startsWith(whole.join("\n") + "\n"), "the whole rows are kept as they were");
  const rows = await rowsOf(out);
  assert.deepEqual(pairsOf(rows), ["a/c1/0", "a/c2/0", "a/c3/0", "a/c4/0"]);
  assert.deepEqual(rows.slice(0, 2).map((row) => row.eval_id), kept);
  const record = await readRunRecord(runRecordPath(out));
  assert.equal(record.status, "finished");
  assert.equal(record.resumed?.[0].torn_line, true);
  assert.equal(record.resumed?.[0].kept_rows, 2);
  // Summary over all four rows: three pass (score 1), c2 fails (score 0).
  assert.equal(record.summary?.total, 4);
  assert.deepEqual(record.summary?.verdicts, { pass: 3, borderline: 0, fail: 1 });
  assert.equal(record.summary?.scores.mean, 3 / 4);
  assert.deepEqual(record.summary?.failed.map((f) => f.eval_id), ["c2"]);
});

Deno.test("resume of a finished run runs nothing and reports the whole file", async () => {
  await using p = await finishedRun();
  const out = join(p.dir, "o.jsonl");
  const text = await Deno.readTextFile(out);
  const r = await cli(["run", "--resume", "o.jsonl", "--json", "-q"], p.dir);
  assert.equal(r.code, 1, "c2 still fails");
  assert.equal(await Deno.readTextFile(out), text);
  const summary = JSON.parse(r.out);
  assert.equal(summary.total, 4);
  assert.equal(summary.verdicts.fail, 1);
});

Deno.test("resume is refused when an eval file changed, naming the file", async () => {
  await using p = await finishedRun();
  const out = join(p.dir, "o.jsonl");
  const lines = (await Deno.readTextFile(out)).split("\n").filter(Boolean);
  await Deno.writeTextFile(out, lines.slice(0, 2).join("\n") + "\n");
  const recordBefore = await Deno.readTextFile(runRecordPath(out));
  await Deno.writeTextFile(
    p.path("evals/a.yaml"),
    containsSuite("a", [["c1", "ok"], ["c2", "ok"], ["c3", "ok"], ["c4", "ok"]]),
  );
  const r = await cli(["run", "--resume", "o.jsonl"], p.dir);
  assert.equal(r.code, 2, r.err);
  assert.match(
    r.err,
    new RegExp(`${p.path("evals/a.yaml").replaceAll("/", "\\/")}: the eval file changed`),
  );
  assert.match(r.err, /hint: /);
  // Nothing ran: the file and its record are as they were.
  assert.equal((await Deno.readTextFile(out)).split("\n").filter(Boolean).length, 2);
  assert.equal(await Deno.readTextFile(runRecordPath(out)), recordBefore);
});

Deno.test("resume is refused when eval files are added to the run", async () => {
  await using p = await finishedRun();
  await Deno.writeTextFile(p.path("evals/b.yaml"), containsSuite("b", [["d1", "ok"]]));
  const r = await cli(["run", "evals", "--resume", "o.jsonl"], p.dir);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /not those of run/);
  assert.match(r.err, /b\.yaml/);
});

Deno.test("resume is refused when an option that changes results differs", async () => {
  await using p = await finishedRun();
  for (
    const [args, flag] of [
      [["--target", "default"], "--target"],
      [["--dry-run"], "--dry-run"],
      [["--filter", "c*"], "--filter"],
    ] as const
  ) {
    const r = await cli(["run", "--resume", "o.jsonl", ...args], p.dir);
    assert.equal(r.code, 2, `${flag}: ${r.err}`);
    assert.match(r.err, new RegExp(`options that change results differ.*${flag} is`), r.err);
  }
  // Options that do not change results may differ.
  const r = await cli(["run", "--resume", "o.jsonl", "--workers", "3", "--timeout", "9"], p.dir);
  assert.equal(r.code, 1, r.err);
});

Deno.test("resume with trials runs the missing trials of each case once", async () => {
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - name: default\n    provider: mock\n    response: ok\n",
    "evals/a.yaml": containsSuite("a", [["c1", "ok"], ["c2", "ok"]]),
  });
  const out = join(p.dir, "o.jsonl");
  const first = await cli(["run", "evals", "--out", "o.jsonl", "--trials", "3"], p.dir);
  assert.equal(first.code, 0, first.err);
  const all = (await Deno.readTextFile(out)).split("\n").filter(Boolean);
  // Keep trials 0 of c1 and 1 of c2 only.
  const keep = all.filter((l) => {
    const row = JSON.parse(l);
    return (row.eval_id === "c1" && row.trial === 0) || (row.eval_id === "c2" && row.trial === 1);
  });
  assert.equal(keep.length, 2);
  await Deno.writeTextFile(out, keep.join("\n") + "\n");

  const refused = await cli(["run", "--resume", "o.jsonl", "--trials", "2"], p.dir);
  assert.equal(refused.code, 2, refused.err);
  assert.match(refused.err, /--trials is 2 \(run .* had 3\)/);

  const r = await cli(["run", "--resume", "o.jsonl", "--trials", "3"], p.dir);
  assert.equal(r.code, 0, r.err);
  const rows = await rowsOf(out);
  assert.deepEqual(pairsOf(rows), [
    "a/c1/0",
    "a/c1/1",
    "a/c1/2",
    "a/c2/0",
    "a/c2/1",
    "a/c2/2",
  ]);
  const record = await readRunRecord(runRecordPath(out));
  assert.equal(record.status, "finished");
  assert.equal(record.summary?.total, 6);
});

Deno.test("--resume cannot be combined with --out, --rerun-failed or --retry-errors", async () => {
  await using p = await finishedRun();
  for (
    const args of [
      ["--resume", "o.jsonl", "--out", "x.jsonl"],
      ["--resume", "o.jsonl", "--rerun-failed", "o.jsonl"],
      ["--rerun-failed", "o.jsonl", "--retry-errors", "o.jsonl"],
    ]
  ) {
    const r = await cli(["run", ...args], p.dir);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /cannot be used together/);
  }
  const missing = await cli(["run", "--resume", "gone.jsonl"], p.dir);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /gone\.jsonl\.run\.json: cannot read the run record/);
});

Deno.test("resume of an older record compares only the options it has", async () => {
  await using p = await finishedRun();
  const recordPath = runRecordPath(p.path("o.jsonl"));
  const record = JSON.parse(await Deno.readTextFile(recordPath));
  // A record written before --trials, --trials-gate and --shard existed.
  for (const key of ["trials", "trials_gate", "shard"]) delete record.options[key];
  await Deno.writeTextFile(recordPath, JSON.stringify(record));
  const ok = await cli(["run", "--resume", "o.jsonl", "--trials-gate", "any"], p.dir);
  assert.equal(ok.code, 1, "c2 fails: " + ok.err);
  assert.doesNotMatch(ok.err, /options that change results differ/);
  const refused = await cli(["run", "--resume", "o.jsonl", "--judge-target", "j"], p.dir);
  assert.equal(refused.code, 2);
  assert.match(refused.err, /--judge-target is "j" \(run .* had null\)/);
});
