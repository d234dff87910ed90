import assert from "node:assert/strict";
import { join } from "node:path";
import { readResults } from "../../lib/results/read_results.ts";
import { RunConfigError } from "../../lib/run/errors.ts";
import type { RunEvent } from "../../lib/results/events.ts";
import { defaultResultsPath, runEval } from "../../lib/run/run_eval.ts";
import { chatServer, contains, evalCase, set, tempDataset } from "./_helpers.ts";

const openaiTarget = (url: string, extra = "") =>
  `targets:\n  - name: default\n    provider: openai\n    base_url: ${url}\n    api_key: sk-x\n    model: m\n    retry_initial_delay_ms: 1\n    retry_max_delay_ms: 5\n${extra}`;

Deno.test("runEval() scores every case, writes one row per case and summarises", async () => {
  await using ds = await tempDataset(
    "targets:\n  - name: default\n    provider: mock\n    response: ok then\n",
  );
  const out = join(ds.dir, "results", "r.jsonl");
  const events: RunEvent[] = [];
  const { rows, summary } = await runEval({
    sets: [set(ds.dir, [
      evalCase("a"),
      evalCase("b", { evaluators: [contains("nope")] }),
      evalCase("c", { evaluators: [contains("ok", { weight: 3 }), contains("zzz")] }),
    ])],
    env: {},
    cwd: ds.dir,
    out,
    onEvent: (e) => events.push(e),
  });
  assert.deepEqual(rows.map((r) => [r.eval_id, r.status, r.score, r.verdict]).sort(), [
    ["a", "ok", 1, "pass"],
    ["b", "ok", 0, "fail"],
    ["c", "ok", 0.75, "borderline"],
  ]);
  const a = rows.find((r) => r.eval_id === "a")!;
  assert.equal(a.target, "default");
  assert.equal(a.candidate_answer, "ok then");
  assert.equal(a.attempts, 1);
  assert.deepEqual(a.output_messages, [{ role: "assistant", content: "ok then" }]);
  assert.equal(a.trace_summary?.event_count, 0);
  assert.equal(a.evaluator_results[0].type, "contains");
  assert.equal(typeof a.duration_ms, "number");
  assert.equal(a.dry_run, undefined);
  const written = await readResults(out);
  assert.deepEqual(written.rows, rows);
  assert.equal(summary.total, 3);
  assert.deepEqual(summary.verdicts, { pass: 1, borderline: 1, fail: 1 });
  assert.equal(summary.results_path, out);
  assert.deepEqual(
    events.map((e) => e.type).filter((t) => t !== "case_started" && t !== "case_finished"),
    [
      "target_resolved",
      "run_started",
      "run_finished",
    ],
  );
  assert.deepEqual(
    events.flatMap((e) => e.type === "case_started" ? [[e.eval_id, e.index]] : []),
    [["a", 0], ["b", 1], ["c", 2]],
  );
});

Deno.test("runEval() bounds concurrency by workers and by the target's own workers cap", async () => {
  await using server = chatServer(() => ({ text: "ok", latencyMs: 40 }));
  await using ds = await tempDataset(
    openaiTarget(server.url) +
      `  - name: capped\n    provider: openai\n    base_url: ${server.url}\n    api_key: sk-x\n    model: m\n    workers: 2\n`,
  );
  const cases = Array.from({ length: 12 }, (_, i) => evalCase(`c${i}`));
  const first = await runEval({ sets: [set(ds.dir, cases)], env: {}, cwd: ds.dir, workers: 5 });
  assert.equal(first.summary.total, 12);
  assert.equal(server.maxInFlight, 5);
  const capped = Array.from({ length: 8 }, (_, i) => evalCase(`k${i}`, { target: "capped" }));
  await using server2 = chatServer(() => ({ text: "ok", latencyMs: 40 }));
  await Deno.writeTextFile(
    ds.targetsFile,
    `targets:\n  - name: capped\n    provider: openai\n    base_url: ${server2.url}\n    api_key: sk-x\n    model: m\n    workers: 2\n`,
  );
  const second = await runEval({ sets: [set(ds.dir, capped)], env: {}, cwd: ds.dir, workers: 8 });
  assert.equal(second.summary.errors.length, 0);
  assert.equal(server2.maxInFlight, 2);
});

Deno.test("runEval() retries transient failures and records attempts; 401 is not retried", async () => {
  await using server = chatServer((n, body) => {
    const q = body.messages.at(-1)!.content;
    if (q.includes("flaky") && n < 2) return { status: n === 0 ? 503 : 429, retryAfter: "0" };
    if (q.includes("denied")) return { status: 401 };
    return { text: "ok" };
  });
  await using ds = await tempDataset(openaiTarget(server.url));
  const events: RunEvent[] = [];
  const { rows, summary } = await runEval({
    sets: [set(ds.dir, [
      evalCase("flaky", { question: "flaky question" }),
      evalCase("denied", { question: "denied question" }),
    ])],
    env: {},
    cwd: ds.dir,
    workers: 1,
    onEvent: (e) => events.push(e),
  });
  const flaky = rows.find((r) => r.eval_id === "flaky")!;
  assert.equal(flaky.status, "ok");
  assert.equal(flaky.attempts, 3);
  const denied = rows.find((r) => r.eval_id === "denied")!;
  assert.equal(denied.status, "error");
  assert.equal(denied.attempts, 1);
  assert.equal(denied.score, 0);
  assert.match(denied.error!, /401/);
  assert.deepEqual(summary.errors.map((e) => e.eval_id), ["denied"]);
  assert.deepEqual(
    events.flatMap((e) => e.type === "retry" ? [[e.eval_id, e.attempt]] : []),
    [["flaky", 1], ["flaky", 2]],
  );
});

Deno.test("runEval() records in-flight cases as interrupted and stops scheduling on abort", async () => {
  await using ds = await tempDataset(
    // A 10-minute delay: the run returning at all shows the calls in flight were aborted.
    "targets:\n  - name: default\n    provider: mock\n    response: ok\n    delay_ms: 600000\n",
  );
  const controller = new AbortController();
  const out = join(ds.dir, "r.jsonl");
  const run = runEval({
    sets: [set(ds.dir, Array.from({ length: 10 }, (_, i) => evalCase(`c${i}`)))],
    env: {},
    cwd: ds.dir,
    workers: 3,
    out,
    signal: controller.signal,
    onEvent: (e) => {
      if (e.type === "case_started" && e.index === 2) controller.abort();
    },
  });
  const { rows, summary } = await run;
  assert.equal(rows.length, 3);
  for (const r of rows) {
    assert.equal(r.status, "error");
    assert.equal(r.error, "interrupted");
  }
  assert.equal(summary.interrupted, true);
  assert.equal(summary.not_started, 7);
  assert.equal((await readResults(out)).rows.length, 3);
});

Deno.test("runEval() with dryRun replaces targets and the judge by mocks: no network", async () => {
  await using server = chatServer(() => ({ text: "real" }));
  await using ds = await tempDataset(
    openaiTarget(server.url, "    judge_target: default\n    workers: 2\n"),
  );
  const judged = { ...evalCase("judged", { evaluators: [] }) };
  const { rows, summary } = await runEval({
    sets: [set(ds.dir, [evalCase("a", { evaluators: [contains("Mock dry-run")] }), judged])],
    env: {},
    cwd: ds.dir,
    dryRun: true,
  });
  assert.equal(server.requests, 0);
  assert.equal(summary.dry_run, true);
  for (const r of rows) {
    assert.equal(r.dry_run, true);
    assert.equal(r.target, "default");
  }
  assert.equal(rows.find((r) => r.eval_id === "a")!.score, 1);
  const j = rows.find((r) => r.eval_id === "judged")!;
  assert.equal(j.evaluator_results[0].type, "llm_judge");
});

Deno.test("runEval() dry run works without a targets file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { rows } = await runEval({
      sets: [set(dir, [evalCase("a", { evaluators: [contains("answer")] })])],
      env: {},
      cwd: dir,
      dryRun: true,
    });
    assert.equal(rows[0].status, "ok");
    assert.equal(rows[0].score, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runEval() makes a default llm_judge without a judge target an error naming the fix, before calling the target", async () => {
  await using ds = await tempDataset(
    "targets:\n  - name: default\n    provider: mock\n    response: ok\n",
  );
  const { rows, summary } = await runEval({
    sets: [set(ds.dir, [evalCase("a", { evaluators: [] }), evalCase("b")])],
    env: {},
    cwd: ds.dir,
  });
  const a = rows.find((r) => r.eval_id === "a")!;
  assert.equal(a.status, "error");
  assert.equal(a.attempts, 0, "the target is not called");
  assert.match(a.error!, /^No judge for target 'default': the case lists no evaluators/);
  assert.match(a.error!, /judge_target/);
  assert.match(a.error!, /--judge-target/);
  assert.equal(rows.find((r) => r.eval_id === "b")!.status, "ok");
  assert.equal(summary.errors.length, 1);
  // When it is the only case, nothing could run.
  await assert.rejects(
    () =>
      runEval({ sets: [set(ds.dir, [evalCase("a", { evaluators: [] })])], env: {}, cwd: ds.dir }),
    (e) => e instanceof RunConfigError && /^No judge for target 'default'/.test(e.message),
  );
});

Deno.test("runEval() runs only cases whose id matches the filter", async () => {
  await using ds = await tempDataset(
    "targets:\n  - name: default\n    provider: mock\n    response: ok\n",
  );
  const cases = ["refund-1", "refund-2", "weather-1"].map((id) => evalCase(id));
  const { rows } = await runEval({
    sets: [set(ds.dir, cases)],
    env: {},
    cwd: ds.dir,
    filter: "refund-*",
  });
  assert.deepEqual(rows.map((r) => r.eval_id).sort(), ["refund-1", "refund-2"]);
  await assert.rejects(
    () => runEval({ sets: [set(ds.dir, cases)], env: {}, cwd: ds.dir, filter: "nothing*" }),
    (e) => e instanceof RunConfigError && /nothing\*/.test(e.message),
  );
});

Deno.test("runEval() fails before running on an unknown target or a missing variable", async () => {
  await using ds = await tempDataset(
    "targets:\n  - name: default\n    provider: openai\n    model: m\n    api_key: ${{ MY_KEY }}\n  - name: other\n    provider: mock\n",
  );
  await assert.rejects(
    () =>
      runEval({ sets: [set(ds.dir, [evalCase("a", { target: "nope" })])], env: {}, cwd: ds.dir }),
    (e) =>
      e instanceof RunConfigError && /nope/.test(e.message) && /default, other/.test(e.hint ?? ""),
  );
  await assert.rejects(
    () => runEval({ sets: [set(ds.dir, [evalCase("a")])], env: {}, cwd: ds.dir }),
    (e) => e instanceof RunConfigError && /MY_KEY/.test(e.message) && /default/.test(e.message),
  );
  // An unused target with a missing variable is fine.
  const { rows } = await runEval({
    sets: [set(ds.dir, [evalCase("a", { target: "other" })])],
    env: {},
    cwd: ds.dir,
  });
  assert.equal(rows.length, 1);
});

Deno.test("runEval() lists cases the loader rejected as invalid", async () => {
  await using ds = await tempDataset(
    "targets:\n  - name: default\n    provider: mock\n    response: ok\n",
  );
  const { summary } = await runEval({
    sets: [set(ds.dir, [evalCase("a")], [
      { severity: "error", file: "x.yaml", line: 4, message: "weight must be >= 0" },
      {
        severity: "warning",
        file: "x.jsonl",
        line: 2,
        message: "Line 2: missing expected_outcome; case skipped",
      },
      { severity: "warning", file: "x.yaml", line: 9, message: "unknown key 'foo'" },
    ])],
    env: {},
    cwd: ds.dir,
  });
  assert.deepEqual(summary.invalid.map((d) => d.line), [4, 2]);
});

Deno.test("runEval() never writes a secret from ${{ }} into results, even in errors", async () => {
  const secret = "sk-test-SECRET-123";
  await using server = chatServer((_n, _b, headers) => ({
    status: 400,
    body: {
      error: { message: `bad request with header ${headers.get("authorization")} (${secret})` },
    },
  }));
  await using ds = await tempDataset(
    `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: \${{ OPENAI_API_KEY }}\n    model: m\n`,
  );
  const out = join(ds.dir, "r.jsonl");
  const { rows } = await runEval({
    sets: [set(ds.dir, [evalCase("a")])],
    env: { OPENAI_API_KEY: secret },
    cwd: ds.dir,
    // The targets file sends ${{ OPENAI_API_KEY }} to a loopback server: consent.
    allowRun: true,
    out,
  });
  assert.equal(rows[0].status, "error");
  assert.ok(!(await Deno.readTextFile(out)).includes(secret));
  assert.ok(!JSON.stringify(rows).includes(secret));
});

Deno.test("defaultResultsPath() names the file after the dataset and the UTC time", () => {
  assert.equal(
    defaultResultsPath("/repo", "my set/v2", Date.UTC(2026, 0, 21, 10, 22, 57, 123)),
    "/repo/.agentv/results/my_set_v2-2026-01-21T10-22-57-123Z.jsonl",
  );
});
