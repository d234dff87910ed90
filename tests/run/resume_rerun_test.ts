/**
 * `agentv run --rerun-failed <results>` and `--retry-errors <results>`: just the failed (or error)
 * (case, trial) pairs of a parent run, into a new results file whose run record names the parent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readRunRecord, runRecordPath } from "../../lib/results/run_record.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { cli, project, rowsOf } from "../_helpers/run_project.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";

const caseYaml = (id: string, value: string, target = "default") =>
  `  - id: ${id}\n    expected_outcome: x\n    input: Say ${value}\n` +
  `    execution: {target: ${target}}\n` +
  `    evaluators: [{type: contains, value: ${JSON.stringify(value)}}]\n`;

/** c1 passes, c2 fails (no "nope" in "ok"), c3 is an error (its target has no API key). */
const SUITE = "dataset: a\nevalcases:\n" + caseYaml("c1", "ok") + caseYaml("c2", "nope") +
  caseYaml("c3", "ok", "broken");

const MOCK = "  - name: default\n    provider: mock\n    response: ok\n";
const BROKEN_TARGETS = `targets:\n${MOCK}` +
  "  - name: broken\n    provider: openai\n    api_key: ${{ NOT_SET_ANYWHERE }}\n    model: m\n";
/** The same targets with `broken` fixed (a mock answering `ok`). */
const FIXED_TARGETS = `targets:\n${MOCK}  - name: broken\n    provider: mock\n    response: ok\n`;

function pairsOf(rows: readonly ResultRow[]): string[] {
  return rows.map((r) => `${r.eval_id}/${r.trial}`).sort();
}

/** A parent run of {@link SUITE} in `parent.jsonl`. */
async function parentRun() {
  const p = await project({ ".agentv/targets.yaml": BROKEN_TARGETS, "evals/a.yaml": SUITE });
  const r = await cli(["run", "evals", "--out", "parent.jsonl"], p.dir);
  assert.equal(r.code, 1, r.err);
  const rows = await rowsOf(p.path("parent.jsonl"));
  const status = Object.fromEntries(rows.map((row) => [row.eval_id, [row.status, row.verdict]]));
  assert.deepEqual(status.c2, ["ok", "fail"]);
  assert.equal(status.c3[0], "error");
  return p;
}

Deno.test("--rerun-failed runs the fail and error cases into a new file that names its parent", async () => {
  await using p = await parentRun();
  const parentPath = p.path("parent.jsonl");
  const parentText = await Deno.readTextFile(parentPath);
  const parent = await readRunRecord(runRecordPath(parentPath));
  // The broken target is fixed before the rerun (targets are not part of the dataset hash).
  await Deno.writeTextFile(p.path(".agentv/targets.yaml"), FIXED_TARGETS);
  const r = await cli(["run", "--rerun-failed", "parent.jsonl", "--out", "rerun.jsonl"], p.dir);
  assert.equal(r.code, 1, "c2 still fails");
  assert.match(r.out, /Rerunning 2 failed cases of parent\.jsonl/);
  const rows = await rowsOf(p.path("rerun.jsonl"));
  assert.deepEqual(pairsOf(rows), ["c2/0", "c3/0"]);
  const c3 = rows.find((row) => row.eval_id === "c3")!;
  assert.equal(c3.status, "ok");
  const record = await readRunRecord(runRecordPath(p.path("rerun.jsonl")));
  assert.notEqual(record.run_id, parent.run_id);
  assert.ok(rows.every((row) => row.run_id === record.run_id));
  assert.equal(record.parent_run_id, parent.run_id);
  assert.equal(record.parent_results_path, parentPath);
  assert.equal(record.rerun, "failed");
  assert.equal(record.status, "finished");
  assert.equal(record.summary?.total, 2);
  assert.equal(await Deno.readTextFile(parentPath), parentText, "the parent is untouched");
});

Deno.test("--retry-errors runs only the error cases", async () => {
  await using p = await parentRun();
  await Deno.writeTextFile(p.path(".agentv/targets.yaml"), FIXED_TARGETS);
  const r = await cli(["run", "--retry-errors", "parent.jsonl", "--out", "retry.jsonl"], p.dir);
  assert.equal(r.code, 0, r.err);
  const rows = await rowsOf(p.path("retry.jsonl"));
  assert.deepEqual(pairsOf(rows), ["c3/0"]);
  const record = await readRunRecord(runRecordPath(p.path("retry.jsonl")));
  assert.equal(record.rerun, "errors");
  assert.equal(record.parent_results_path, p.path("parent.jsonl"));

  // The retry has no error left: nothing to rerun, no file written, exit 0.
  const again = await cli(["run", "--retry-errors", "retry.jsonl", "--out", "again.jsonl"], p.dir);
  assert.equal(again.code, 0, again.err);
  assert.match(again.out, /No error case in retry\.jsonl .*nothing to rerun/);
  await assert.rejects(Deno.stat(p.path("again.jsonl")), Deno.errors.NotFound);
});

Deno.test("--rerun-failed picks the failed trials of a case, not all its trials", async () => {
  // One request per trial, in order with one worker: c1 trial 1 answers without "ok".
  await using server = startProviderServer("openai", { steps: ["ok", "bad", "ok", "ok"] });
  await using p = await project({
    ".agentv/targets.yaml":
      `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: sk-test\n    model: m\n`,
    "evals/a.yaml": "dataset: a\nevalcases:\n" + caseYaml("c1", "ok") + caseYaml("c2", "ok"),
  });
  const first = await cli(
    ["run", "evals", "--out", "p.jsonl", "--trials", "2", "--workers", "1"],
    p.dir,
  );
  const parentRows = await rowsOf(p.path("p.jsonl"));
  const failed = parentRows.filter((row) => row.verdict === "fail");
  assert.deepEqual(pairsOf(failed), ["c1/1"], first.out);
  const r = await cli(
    ["run", "--rerun-failed", "p.jsonl", "--out", "r.jsonl", "--trials", "2"],
    p.dir,
  );
  assert.equal(r.code, 0, r.err);
  const rows = await rowsOf(p.path("r.jsonl"));
  assert.deepEqual(pairsOf(rows), ["c1/1"]);
  assert.equal(server.requests.length, 5);
});

Deno.test("a rerun is refused when an eval file of the parent changed", async () => {
  await using p = await parentRun();
  await Deno.writeTextFile(p.path("evals/a.yaml"), SUITE + "# edited\n");
  const r = await cli(["run", "--rerun-failed", "parent.jsonl", "--out", "r.jsonl"], p.dir);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /a\.yaml: the eval file changed since run/);
  await assert.rejects(Deno.stat(p.path("r.jsonl")), Deno.errors.NotFound);
});

Deno.test("a rerun may not write over its parent's results", async () => {
  await using p = await parentRun();
  const r = await cli(["run", "--rerun-failed", "parent.jsonl", "--out", "parent.jsonl"], p.dir);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /overwrite the results of its parent run/);
  assert.equal((await rowsOf(p.path("parent.jsonl"))).length, 3);
});

Deno.test("a rerun without --out writes to the default results path", async () => {
  await using p = await parentRun();
  await Deno.writeTextFile(p.path(".agentv/targets.yaml"), FIXED_TARGETS);
  const r = await cli(["run", "--retry-errors", join(p.dir, "parent.jsonl")], p.dir);
  assert.equal(r.code, 0, r.err);
  const files = [];
  for await (const entry of Deno.readDir(p.path(".agentv/results"))) {
    if (entry.name.endsWith(".jsonl")) files.push(entry.name);
  }
  assert.equal(files.length, 1, files.join(", "));
  const rows = await rowsOf(p.path(`.agentv/results/${files[0]}`));
  assert.deepEqual(pairsOf(rows), ["c3/0"]);
});
