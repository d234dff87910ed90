/**
 * What the HTML report shows besides its rows: cases with trials grouped per (dataset, case,
 * target) with their pass rate, pass@k, flaky flag and the gate's verdict; the run from its record
 * (else from the rows); the figures the charts draw; and rows of odd shapes that never break it.
 */
import assert from "node:assert/strict";
import { reportData } from "../../lib/render/html/report_data.ts";
import { reportPageData } from "../../lib/render/html/render_html_report.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import type { RunRecord } from "../../lib/schema/run_record.ts";
import { trialRows } from "./_trial_rows.ts";

Deno.test("5 cases × 6 trials are 5 groups, each with its trials, pass rate, pass@k, flaky flag and the gate's verdict", () => {
  const rows = trialRows();
  assert.equal(rows.length, 30);
  const { trials } = reportData(rows);
  assert.ok(trials);
  assert.equal(trials.gate, "mean");
  const byId = Object.fromEntries(trials.cases.map((c) => [c.eval_id, c]));
  assert.deepEqual(Object.keys(byId), ["steady", "broken", "coin", "mostly", "never-ran"]);
  // Each group lists its six rows in trial order, whatever order the file had them in.
  for (const c of trials.cases) {
    assert.deepEqual(c.rows.map((i) => rows[i].trial), [0, 1, 2, 3, 4, 5]);
    assert.ok(c.rows.every((i) => rows[i].eval_id === c.eval_id));
  }
  assert.deepEqual(
    trials.cases.map((c) => [c.eval_id, c.verdict, c.n, c.passed, c.flaky]),
    [
      ["steady", "pass", 6, 6, false],
      ["broken", "fail", 6, 0, false],
      // Three of six passed: a mean of 0.5 fails under the mean gate.
      ["coin", "fail", 6, 3, true],
      // Five passed, one errored (a failed trial scoring 0): mean 5/6 passes.
      ["mostly", "pass", 6, 5, true],
      // Every row skipped: no trial ran, the case is listed, not dropped.
      ["never-ran", "skipped", 0, 0, false],
    ],
  );
  // pass@k of 3 passed in 6: 1 - C(3,k)/C(6,k); pass^k: C(3,k)/C(6,k).
  assert.equal(byId.coin.pass_rate, 0.5);
  assert.ok(Math.abs(byId.coin.pass_at_k[2] - (1 - 3 / 15)) < 1e-12);
  assert.ok(Math.abs(byId.coin.pass_hat_k[2] - 3 / 15) < 1e-12);
  assert.equal(byId.coin.pass_at_k[4], 1);
  assert.equal(byId.mostly.errors, 1);
});

Deno.test("the gate the run recorded judges the groups, and a given gate wins over it", () => {
  const rows = trialRows();
  const record = { options: { trials_gate: "any" } } as unknown as RunRecord;
  const verdicts = (data: ReturnType<typeof reportData>) =>
    Object.fromEntries(data.trials!.cases.map((c) => [c.eval_id, c.verdict]));
  assert.equal(verdicts(reportData(rows, { record })).coin, "pass");
  assert.equal(reportData(rows, { record }).trials!.gate, "any");
  assert.equal(verdicts(reportData(rows, { record, gate: "all" })).mostly, "fail");
});

Deno.test("rows that each ran once are not grouped", () => {
  const once = trialRows().filter((r) => r.trial === 0);
  assert.equal(reportData(once).trials, null);
  assert.equal(reportPageData(once).trial_groups, null);
  assert.equal(reportPageData(once).trials, false);
});

Deno.test("the run comes from its record: when, targets with provider and model, version, set options", () => {
  const rows = trialRows();
  const record = {
    run_id: "run-7",
    status: "finished",
    started_at: "2026-02-01T09:00:00.000Z",
    ended_at: "2026-02-01T09:05:00.000Z",
    agentv_version: "9.9.9",
    options: { workers: 4, trials: 6, trials_gate: "mean", filter: null, budget_usd: null },
    targets: [{
      name: "default",
      provider: "openai",
      model: "gpt-test",
      endpoint: null,
      judge_target: null,
      targets_file: null,
    }],
  } as unknown as RunRecord;
  const { run } = reportData(rows, { record });
  assert.deepEqual(run, {
    run_id: "run-7",
    status: "finished",
    started_at: "2026-02-01T09:00:00.000Z",
    ended_at: "2026-02-01T09:05:00.000Z",
    agentv_version: "9.9.9",
    targets: [{ name: "default", provider: "openai", model: "gpt-test" }],
    options: { workers: 4, trials: 6, trials_gate: "mean" },
    datasets: ["shop"],
    merged_from: null,
  });
  // Without a record: the rows' own run id, times and target names.
  const bare = reportData(rows).run;
  assert.equal(bare.run_id, "r1");
  assert.equal(bare.started_at, "2026-01-01T00:00:00.000Z");
  assert.equal(bare.ended_at, "2026-01-01T00:00:29.000Z");
  assert.deepEqual(bare.targets, [{ name: "default", provider: null, model: null }]);
  assert.equal(bare.agentv_version, null);
});

Deno.test("the figures are the summary's: histogram, evaluator means, totals of tokens and cost", () => {
  const rows = trialRows();
  const { figures } = reportData(rows);
  // 23 ok rows scored (steady 6, broken 6, coin 6, mostly 5), 1 error, 6 skipped.
  assert.equal(figures.scored, 23);
  assert.equal(figures.skipped, 6);
  assert.deepEqual(figures.histogram.map((b) => b.count), [9, 0, 0, 0, 14]);
  assert.deepEqual(figures.evaluators.map((e) => [e.name, e.count]), [["says-thanks", 23]]);
  assert.deepEqual(figures.token_usage, { input: 230, output: 115 });
  assert.ok(Math.abs(figures.cost_usd! - 23 * 0.001) < 1e-12);
});

Deno.test("rows of odd shapes (a foreign file's) give figures instead of breaking the page", () => {
  const odd = [{
    ...trialRows()[0],
    score: "high",
    misses: "none",
    evaluator_results: [null, { name: 3, score: "x" }],
    token_usage: "many",
  }] as unknown as ResultRow[];
  const data = reportPageData(odd);
  assert.equal(data.figures.total, 1);
  assert.equal(data.figures.scores.mean, 0);
});

Deno.test("with several targets, each (case, target) is a group of its own", () => {
  const rows = [
    ...trialRows(),
    ...trialRows().map((r) => ({ ...r, target: "other", score: 1, verdict: "pass" as const })),
  ];
  const { trials, run } = reportData(rows);
  assert.equal(trials!.cases.length, 10);
  const coin = trials!.cases.filter((c) => c.eval_id === "coin");
  assert.deepEqual(coin.map((c) => [c.target, c.verdict, c.passed]), [
    ["default", "fail", 3],
    ["other", "pass", 6],
  ]);
  assert.ok(coin[1].rows.every((i) => rows[i].target === "other"));
  assert.deepEqual(run.targets.map((t) => t.name), ["default", "other"]);
});
