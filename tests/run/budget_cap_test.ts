/**
 * The spend cap (`budgetUsd`, `--budget-usd`): a run against a priced model served on 127.0.0.1
 * stops within one call of the cap, reservations keep concurrent workers under it, cases not
 * started are skipped rows with the reason, and the summary says what was spent.
 *
 * Prices are $1 per token in and out, so every amount is a whole number of dollars computed by
 * hand: the worst case of a call is (input bound + max_tokens) dollars, where the input bound is
 * the UTF-8 bytes of each message's role and content plus 8 per message plus 32 per request.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readRunRecord } from "../../lib/results/run_record.ts";
import { runEval, type RunEvalOptions, type RunEvalResult } from "../../lib/run/run_eval.ts";
import { type RecordedRequest, startProviderServer } from "../_helpers/provider_servers.ts";
import { project, rowsOf } from "../_helpers/run_project.ts";
import { pricedTarget, type PricedTargetOptions } from "./_priced_target.ts";

/** Usage every reply reports: 5 tokens in, 2 out, so $7 a call. */
const USAGE = { input: 5, output: 2 };
const ACTUAL = 5 + 2;
const MAX_TOKENS = 10;

/** A targets file with one priced openai target at `url`. */
function targets(url: string, options: PricedTargetOptions = {}): string {
  return `targets:\n${pricedTarget("default", url, { maxTokens: MAX_TOKENS, ...options })}`;
}

/** `n` cases `c01`..`cNN`, each asking `q01`.. (same length, so the same worst case). */
function cases(n: number): string {
  const lines = ["evalcases:"];
  for (let i = 1; i <= n; i++) {
    const id = String(i).padStart(2, "0");
    lines.push(
      `  - id: c${id}`,
      `    expected_outcome: Says ok`,
      `    input: q${id}`,
      `    evaluators: [{name: has-ok, type: contains, value: ok}]`,
    );
  }
  return lines.join("\n") + "\n";
}

/** `runEval` of the project's `evals/ds.yaml`, with no environment and a 10 s timeout. */
function runIn(dir: string, options: Partial<RunEvalOptions> = {}): Promise<RunEvalResult> {
  return runEval({ files: ["evals/ds.yaml"], env: {}, cwd: dir, timeoutMs: 10_000, ...options });
}

/** The worst case of a request as the server received it, computed by hand (see the module doc). */
function worstOf(request: RecordedRequest): number {
  const messages = request.body.messages as { role: string; content: string }[];
  let tokens = 32;
  for (const m of messages) {
    tokens += new TextEncoder().encode(m.role).length +
      new TextEncoder().encode(m.content).length + 8;
  }
  return tokens + request.body.max_tokens;
}

Deno.test("the budget stops a run within one call of the cap; later cases are skipped rows with the reason", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: "ok", usage: USAGE },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(server.url),
    "evals/ds.yaml": cases(10),
  });
  const out = join(p.dir, "r.jsonl");
  const { summary } = await runIn(p.dir, {
    out,
    workers: 1,
    budgetUsd: 100,
  });
  // Every case asks the same-sized question: one worst case for all.
  const worst = worstOf(server.requests[0]);
  assert.equal(server.requests[0].body.max_tokens, MAX_TOKENS);
  // Calls start while what is spent plus one worst case stays within $100.
  let spent = 0;
  let calls = 0;
  while (spent + worst <= 100) {
    spent += ACTUAL;
    calls++;
  }
  assert.ok(calls > 0 && calls < 10, `the example must stop mid-run (${calls} calls)`);
  assert.equal(server.requests.length, calls);
  for (const request of server.requests) assert.equal(worstOf(request), worst);

  const rows = (await rowsOf(out)).sort((a, b) => a.eval_id.localeCompare(b.eval_id));
  assert.equal(rows.length, 10, "every case has a row");
  const reason = `budget of $100.00 reached: $${spent}.00 spent`;
  for (const row of rows.slice(0, calls)) assert.equal(row.status, "ok", row.error ?? "");
  // The case whose call was refused, then the cases never started.
  const refused = rows[calls];
  assert.equal(refused.status, "skipped");
  assert.equal(refused.attempts, 0);
  assert.equal(
    refused.error,
    `${reason}; the next call to 'default' could cost up to $${worst}.00`,
  );
  for (const row of rows.slice(calls + 1)) {
    assert.equal(row.status, "skipped");
    assert.equal(row.error, reason);
    assert.equal(row.attempts, 0);
    assert.deepEqual(row.misses, []);
  }

  assert.deepEqual(summary.budget, {
    cap_usd: 100,
    spent_usd: spent,
    exhausted: true,
    reason,
    skipped: 10 - calls,
    refused_calls: 1,
    unpriced_calls: 0,
    unpriced_targets: [],
    unbounded_calls: 0,
    unbounded_targets: [],
  });
  // Within one call of the cap: nothing past it, and one more call could have crossed it.
  assert.ok(summary.budget.spent_usd <= 100 && summary.budget.spent_usd + worst > 100);
  assert.equal(summary.errors.length, 0, "skipped cases are not errors");
  assert.equal(summary.scored, calls);
  // The run record keeps the cap and the budget section.
  const record = await readRunRecord(`${out}.run.json`);
  assert.equal(record.options.budget_usd, 100);
  assert.deepEqual(record.summary?.budget, summary.budget);
});

Deno.test("concurrent workers reserve their worst case: calls in flight together never pass the cap", async () => {
  // Replies are held until two requests have arrived: both calls are in flight at once.
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: "ok", usage: USAGE },
    barrier: 2,
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(server.url),
    "evals/ds.yaml": cases(4),
  });
  // Probe the worst case of one call with a generous cap first (same question size).
  const probe = await runIn(p.dir, {
    workers: 4,
    filter: "c0[12]",
    budgetUsd: 1000,
  });
  assert.equal(probe.summary.budget?.spent_usd, 2 * ACTUAL);
  const worst = worstOf(server.requests[0]);
  server.requests.length = 0;
  // Room for two worst cases in flight; a third never fits, even once one call has settled.
  const cap = 2 * worst + ACTUAL - 1;
  assert.ok(ACTUAL + 2 * worst > cap && 2 * worst <= cap);
  const { rows, summary } = await runIn(p.dir, {
    workers: 4,
    budgetUsd: cap,
  });
  // Without reservations all four would have started (nothing was spent when they did).
  assert.equal(server.requests.length, 2);
  assert.equal(rows.filter((r) => r.status === "ok").length, 2);
  assert.equal(rows.filter((r) => r.status === "skipped").length, 2);
  assert.equal(summary.budget?.spent_usd, 2 * ACTUAL);
  assert.ok(summary.budget!.spent_usd <= cap);
  assert.equal(summary.budget?.exhausted, true);
  assert.equal(summary.budget?.skipped, 2);
});

Deno.test("a call that reports no usage counts as its worst case; a failed call releases its reservation", async () => {
  await using server = startProviderServer("openai", {
    steps: [
      { type: "status", status: 400, message: "bad request" },
      { type: "raw", body: { choices: [{ message: { role: "assistant", content: "ok" } }] } },
    ],
    fallback: { type: "reply", text: "ok", usage: USAGE },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(server.url),
    "evals/ds.yaml": cases(2),
  });
  const { rows, summary } = await runIn(p.dir, {
    workers: 1,
    budgetUsd: 1000,
  });
  assert.equal(server.requests.length, 2);
  const [failed, unreported] = rows.sort((a, b) => a.eval_id.localeCompare(b.eval_id));
  assert.equal(failed.status, "error");
  assert.equal(unreported.status, "ok");
  // The failed call cost nothing; the one without usage counts at its worst case.
  assert.equal(summary.budget?.spent_usd, worstOf(server.requests[1]));
  assert.equal(summary.budget?.exhausted, false);
});

Deno.test("calls to a target without pricing run, are counted as unpriced, and their reported cost is spent", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: "ok", usage: USAGE },
  });
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: openai
    base_url: ${server.url}
    api_key: sk-test
    model: m
    max_retries: 0
  - name: reported
    provider: mock
    response: ok
    cost_usd: 0.25
`,
    "evals/ds.yaml": cases(4),
  });
  const unpriced = await runIn(p.dir, { budgetUsd: 1 });
  assert.equal(server.requests.length, 4);
  assert.ok(unpriced.rows.every((r) => r.status === "ok"));
  assert.equal(unpriced.summary.budget?.unpriced_calls, 4);
  assert.deepEqual(unpriced.summary.budget?.unpriced_targets, ["default"]);
  assert.equal(unpriced.summary.budget?.spent_usd, 0);
  assert.equal(unpriced.summary.budget?.exhausted, false);

  // A mock reporting $0.25 a call, its cost unknown until it answers.
  const reported = await runIn(p.dir, {
    budgetUsd: 0.6,
    target: "reported",
    workers: 1,
  });
  const statuses = reported.rows.map((r) => r.status);
  // $0.25 + $0.25 = $0.50 < $0.60, so the third call starts; then $0.75 >= $0.60 stops the run.
  assert.deepEqual(statuses, ["ok", "ok", "ok", "skipped"]);
  assert.equal(reported.summary.budget?.spent_usd, 0.75);
  assert.equal(reported.summary.budget?.exhausted, true);
  assert.equal(reported.summary.budget?.reason, "budget of $0.60 reached: $0.75 spent");
  assert.equal(reported.summary.budget?.unpriced_calls, 3);
});

Deno.test("without a budget no target is wrapped and the summary has no budget section", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: "ok", usage: USAGE },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(server.url),
    "evals/ds.yaml": cases(1),
  });
  const { summary } = await runIn(p.dir, {
    out: join(p.dir, "r.jsonl"),
  });
  assert.equal(summary.budget, undefined);
  const record = await readRunRecord(join(p.dir, "r.jsonl.run.json"));
  assert.equal(record.options.budget_usd, null);
});

Deno.test("calls to a priced target without max_tokens run and are counted as unbounded calls", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: "ok", usage: USAGE },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(server.url, { maxTokens: null }),
    "evals/ds.yaml": cases(2),
  });
  const { rows, summary } = await runIn(p.dir, {
    workers: 1,
    budgetUsd: 1000,
  });
  assert.equal(server.requests[0].body.max_tokens, undefined);
  assert.ok(rows.every((r) => r.status === "ok"));
  assert.equal(summary.budget?.unbounded_calls, 2);
  assert.deepEqual(summary.budget?.unbounded_targets, ["default"]);
  assert.equal(summary.budget?.spent_usd, 2 * ACTUAL);
});

Deno.test("cache hits cost nothing: a cached run fits in a budget smaller than one call", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: "ok", usage: USAGE },
  });
  await using p = await project({
    ".agentv/targets.yaml": targets(server.url),
    "evals/ds.yaml": cases(2),
  });
  const env = { AGENTV_CACHE_KEY: "budget-test-cache-secret-0123456789abcdef" };
  const first = await runIn(p.dir, { cache: "readwrite", budgetUsd: 1000, env });
  assert.equal(first.summary.budget?.spent_usd, 2 * ACTUAL);
  assert.equal(server.requests.length, 2);
  // $1 is less than one call's worst case: only answers from the cache can run.
  const cached = await runIn(p.dir, { cache: "read", budgetUsd: 1, env });
  assert.equal(server.requests.length, 2, "no call reached the server");
  assert.deepEqual(cached.rows.map((r) => r.status), ["ok", "ok"]);
  assert.equal(cached.summary.budget?.spent_usd, 0);
  assert.equal(cached.summary.budget?.exhausted, false);
  // Without the cache the same budget refuses the first call.
  const uncached = await runIn(p.dir, { budgetUsd: 1 });
  assert.deepEqual(uncached.rows.map((r) => r.status), ["skipped", "skipped"]);
  assert.equal(server.requests.length, 2);
});
