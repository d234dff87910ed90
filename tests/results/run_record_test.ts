/** The run record `<results>.run.json`: written at the start, updated at the end. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { readResults } from "../../lib/results/read_results.ts";
import { readRunRecord, runRecordPath } from "../../lib/results/run_record.ts";
import { runEval } from "../../lib/run/run_eval.ts";
import type { RunRecord } from "../../lib/schema/run_record.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { project, SECRET } from "../_helpers/run_project.ts";

const CASES = `evalcases:
  - id: one
    expected_outcome: x
    input: x
    evaluators: [{type: contains, value: ok}]
  - id: two
    expected_outcome: x
    input: x
    evaluators: [{type: contains, value: nope}]
`;

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

Deno.test("a run's record reads running while it runs, then finished with what ran", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: "ok", usage: { input: 5, output: 2 } },
  });
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: openai
    base_url: ${server.url}
    api_key: \${{ API_KEY }}
    model: gpt-test
`,
    "evals/a.yaml": CASES,
  });
  const out = join(p.dir, "results", "r.jsonl");
  const recordPath = runRecordPath(out);
  const during: RunRecord[] = [];
  const { rows, summary } = await runEval({
    files: ["evals/a.yaml"],
    env: { API_KEY: SECRET },
    cwd: p.dir,
    // ${{ API_KEY }} goes to a loopback server: the dataset's targets file needs consent.
    allowRun: true,
    out,
    workers: 1,
    timeoutMs: 30_000,
    filter: "*",
    threshold: 0.5,
    now: (() => {
      let t = Date.UTC(2026, 0, 21, 10, 0, 0);
      return () => t += 1000;
    })(),
    onEvent: (e) => {
      // Read the record from disk while the run is going: it says `running`, no end time.
      if (e.type === "case_finished") during.push(JSON.parse(Deno.readTextFileSync(recordPath)));
    },
  });
  assert.equal(during.length, 2);
  for (const r of during) {
    assert.equal(r.status, "running");
    assert.equal(r.ended_at, null);
    assert.equal(r.summary, null);
  }

  const record = await readRunRecord(recordPath);
  assert.equal(record.schema_version, 1);
  assert.equal(record.status, "finished");
  assert.equal(record.error, null);
  assert.equal(record.results_path, out);
  const denoJson = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  assert.equal(record.agentv_version, denoJson.version);
  assert.ok(Date.parse(record.ended_at!) > Date.parse(record.started_at));
  assert.equal(record.started_at, during[0].started_at);
  assert.deepEqual(record.options, {
    target: null,
    targets_file: null,
    judge_target: null,
    filter: "*",
    workers: 1,
    timeout_ms: 30_000,
    dry_run: false,
    sandbox: null,
    threshold: 0.5,
    root: null,
    trials: null,
    trials_gate: "mean",
    budget_usd: null,
    max_cases: null,
    shard: null,
  });
  assert.deepEqual(record.targets, [{
    name: "default",
    provider: "openai",
    model: "gpt-test",
    endpoint: server.url,
    judge_target: null,
    targets_file: join(p.dir, ".agentv", "targets.yaml"),
    // The definition as resolved, its key redacted.
    settings: {
      name: "default",
      provider: "openai",
      base_url: server.url,
      api_key: "***",
      model: "gpt-test",
    },
  }]);
  const evalFile = join(p.dir, "evals", "a.yaml");
  assert.deepEqual(record.datasets, [{
    path: evalFile,
    sha256: sha256(await Deno.readFile(evalFile)),
  }]);
  assert.deepEqual(record.summary, summary);
  assert.deepEqual(record.summary?.verdicts, { pass: 1, borderline: 0, fail: 1 });
  // Every row carries the run id; the key is nowhere in the record.
  assert.deepEqual(rows.map((r) => [r.run_id, r.trial]), [
    [record.run_id, 0],
    [record.run_id, 0],
  ]);
  assert.deepEqual(
    (await readResults(out)).rows.map((r) => r.run_id),
    rows.map(() => record.run_id),
  );
  assert.equal((await Deno.readTextFile(recordPath)).includes(SECRET), false);
  // Only the record and the results file are left in the folder (the temporary file is gone).
  const names = [];
  for await (const entry of Deno.readDir(join(p.dir, "results"))) names.push(entry.name);
  assert.deepEqual(names.sort(), ["r.jsonl", "r.jsonl.run.json"]);
});

Deno.test("an interrupted run's record says interrupted, with the partial summary and an end time", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: mock
    response: ok
  - name: slow
    provider: mock
    response: ok
    delay_ms: 60000
`,
    "evals/a.yaml": `evalcases:
  - id: quick
    expected_outcome: x
    input: x
    evaluators: [{type: contains, value: ok}]
  - id: hang
    expected_outcome: x
    input: x
    execution: {target: slow}
    evaluators: [{type: contains, value: ok}]
`,
  });
  const out = join(p.dir, "r.jsonl");
  const controller = new AbortController();
  const { summary } = await runEval({
    files: ["evals/a.yaml"],
    env: {},
    cwd: p.dir,
    out,
    workers: 1,
    signal: controller.signal,
    onEvent: (e) => {
      if (e.type === "case_started" && e.eval_id === "hang") controller.abort();
    },
  });
  assert.equal(summary.interrupted, true);
  const record = await readRunRecord(runRecordPath(out));
  assert.equal(record.status, "interrupted");
  assert.notEqual(record.ended_at, null);
  assert.deepEqual(record.summary, summary);
  assert.equal(record.summary?.total, 2);
  assert.deepEqual(record.summary?.errors.map((e) => [e.eval_id, e.error]), [
    ["hang", "interrupted"],
  ]);
});

Deno.test("a run that stops on an error records failed, with the reason and an end time", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: mock
    response: ok
`,
    "evals/a.yaml": CASES,
  });
  const out = join(p.dir, "r.jsonl");
  const failure = new Error("the listener broke");
  await assert.rejects(
    runEval({
      files: ["evals/a.yaml"],
      env: {},
      cwd: p.dir,
      out,
      workers: 1,
      onEvent: (e) => {
        if (e.type === "case_finished") throw failure;
      },
    }),
    (e) => e === failure,
  );
  const record = await readRunRecord(runRecordPath(out));
  assert.equal(record.status, "failed");
  assert.equal(record.error, "the listener broke");
  assert.notEqual(record.ended_at, null);
  // The row recorded before the listener threw is in the file, whole.
  assert.equal((await readResults(out)).rows.length, 1);
});
