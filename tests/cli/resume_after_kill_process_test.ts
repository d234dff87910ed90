/**
 * `agentv run --resume` after `kill -9` of a real `agentv run` process: the resumed run finishes
 * with every (case, trial) pair in the results file exactly once and a finished run record.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readRunRecord, runRecordPath } from "../../lib/results/run_record.ts";
import { cli, containsSuite, project, rowsOf, runUntilKilled } from "../_helpers/run_project.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";

Deno.test("resume after kill -9 finishes the run with every case and trial exactly once", async () => {
  // Three answers, then a call that never returns: the run is killed while it waits.
  await using server = startProviderServer("openai", {
    steps: ["ok", "ok", "ok", { type: "hang" }],
  });
  await using p = await project({
    ".agentv/targets.yaml":
      `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: sk-test\n    model: m\n`,
    "evals/a.yaml": containsSuite("a", [["c1", "ok"], ["c2", "ok"], ["c3", "ok"]]),
  });
  const out = join(p.dir, "o.jsonl");
  // A `[n/6]` progress line is printed once its row is written: kill after the third, once the
  // fourth call (the one that hangs) has arrived, so the resumed run's calls are all answered.
  const { killed, progress } = await runUntilKilled(
    ["run", "evals", "--out", out, "--workers", "1", "--trials", "2"],
    p.dir,
    { rows: 3, beforeKill: () => server.waitForRequests(4) },
  );
  assert.ok(killed, progress);
  const crashed = await readRunRecord(runRecordPath(out));
  assert.equal(crashed.status, "running");
  const before = await rowsOf(out);
  assert.equal(before.length, 3);
  // As if the kill had come in the middle of writing a fourth row.
  await Deno.writeTextFile(out, '{"eval_id": "c2", "trial": 1, "sta', { append: true });

  const r = await cli(["run", "--resume", "o.jsonl", "--trials", "2"], p.dir);
  assert.equal(r.code, 0, r.err + r.out);
  const rows = await rowsOf(out);
  const pairs = rows.map((row) => `${row.dataset}/${row.eval_id}/${row.trial}`).sort();
  assert.deepEqual(pairs, ["a/c1/0", "a/c1/1", "a/c2/0", "a/c2/1", "a/c3/0", "a/c3/1"]);
  assert.ok(rows.every((row) => row.status === "ok" && row.run_id === crashed.run_id));
  assert.equal(server.requests.length, 4 + 3, "the resume called the target for 3 pairs only");
  assert.ok((await Deno.readTextFile(out)).endsWith("\n"));
  const record = await readRunRecord(runRecordPath(out));
  assert.equal(record.status, "finished");
  assert.equal(record.run_id, crashed.run_id);
  assert.deepEqual(
    record.resumed?.map((s) => [s.kept_rows, s.dropped_rows, s.torn_line]),
    [[3, 0, true]],
  );
  assert.equal(record.summary?.total, 6);
  assert.equal(record.summary?.verdicts.pass, 6);
});
