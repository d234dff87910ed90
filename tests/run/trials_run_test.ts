/**
 * `agentv run --trials K` and `execution.trials` end to end (in-process CLI, a local
 * OpenAI-compatible server whose answers vary from call to call in a fixed pattern): one row per
 * trial with `trial: i`, the summary's trials section, the gates' exit codes, the run record.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { RunSummary } from "../../lib/results/summary.ts";
import { cli, project, rowsOf } from "../_helpers/run_project.ts";

/**
 * A chat server that answers each question by how often it was asked before: `steady` always
 * gets "Paris"; `flaky` gets "Rome" on its 2nd, 5th, 8th… call (call index % 3 == 1), "Paris"
 * otherwise. Per question, so concurrency does not change how many right answers a case gets.
 */
function variedServer() {
  const calls = new Map<string, number>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const body = await req.json() as { messages: { content: string }[] };
    const question = body.messages.at(-1)!.content;
    const n = calls.get(question) ?? 0;
    calls.set(question, n + 1);
    const text = question.includes("flaky") && n % 3 === 1 ? "Rome" : "Paris";
    return Response.json({
      choices: [{ index: 0, message: { role: "assistant", content: text } }],
      usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
    });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    calls,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

const targets = (url: string) =>
  `targets:\n  - name: default\n    provider: openai\n    base_url: ${url}\n    api_key: sk-x\n    model: m\n`;

/** Two cases expecting "Paris"; `flakyExecution` is the flaky case's `execution:` block. */
const suite = (flakyExecution = "") =>
  `dataset: trips
evalcases:
  - id: steady
    expected_outcome: Mentions Paris
    input: Say steady
    evaluators: [{type: contains, value: Paris}]
  - id: flaky
    expected_outcome: Mentions Paris
    input: Say flaky
    evaluators: [{type: contains, value: Paris}]
${flakyExecution}`;

Deno.test("run --trials 3 writes one row per trial, the per-case statistics and flaky cases", async () => {
  await using server = variedServer();
  await using p = await project({
    ".agentv/targets.yaml": targets(server.url),
    "evals/a.yaml": suite(),
  });
  const r = await cli(["run", "evals", "--trials", "3", "--out", "o.jsonl", "--json"], p.dir);
  // flaky: 2 of 3 trials pass, mean 2/3 ≈ 0.667 is borderline under the default gate: exit 0.
  assert.equal(r.code, 0, r.err);
  const rows = await rowsOf(join(p.dir, "o.jsonl"));
  const pairs = rows.map((x) => `${x.eval_id}#${x.trial}`).sort();
  assert.deepEqual(pairs, ["flaky#0", "flaky#1", "flaky#2", "steady#0", "steady#1", "steady#2"]);
  assert.deepEqual([...server.calls.values()], [3, 3]);
  // Progress lines (on stderr with --json) name trial i > 0 `id #i`.
  assert.match(r.err, /1\.000 {2}steady #2 /);
  const summary = JSON.parse(r.out) as RunSummary;
  const trials = summary.trials!;
  assert.equal(trials.gate, "mean");
  const flaky = trials.cases.find((c) => c.eval_id === "flaky")!;
  assert.deepEqual([flaky.n, flaky.passed, flaky.errors, flaky.verdict], [3, 2, 0, "borderline"]);
  // Scores 1, 0, 1: mean 2/3; deviations 1/3, −2/3, 1/3; squares sum 6/9; variance 1/3.
  assert.ok(Math.abs(flaky.mean - 2 / 3) < 1e-12);
  assert.ok(Math.abs(flaky.stdev! - Math.sqrt(1 / 3)) < 1e-12);
  // n = 3, c = 2: pass@1 = 2/3; pass@2 = 1 − C(1,2)/C(3,2) = 1; pass^2 = C(2,2)/C(3,2) = 1/3.
  assert.ok(Math.abs(flaky.pass_at_k["1"] - 2 / 3) < 1e-12);
  assert.equal(flaky.pass_at_k["2"], 1);
  assert.ok(Math.abs(flaky.pass_hat_k["2"] - 1 / 3) < 1e-12);
  assert.equal(flaky.pass_hat_k["3"], 0);
  const steady = trials.cases.find((c) => c.eval_id === "steady")!;
  assert.deepEqual([steady.n, steady.passed, steady.pass_rate, steady.verdict], [3, 3, 1, "pass"]);
  assert.deepEqual(trials.flaky.map((c) => [c.eval_id, c.passed, c.n]), [["flaky", 2, 3]]);
  const record = JSON.parse(await Deno.readTextFile(join(p.dir, "o.jsonl.run.json")));
  assert.equal(record.options.trials, 3);
  assert.equal(record.options.trials_gate, "mean");
  assert.deepEqual(record.summary.trials, trials);
});

Deno.test("run --trials-gate decides the exit code from each case's trials", async () => {
  await using server = variedServer();
  await using p = await project({
    ".agentv/targets.yaml": targets(server.url),
    "evals/a.yaml": suite(),
  });
  // flaky passes 2 of 3 trials (rate 0.667); steady 3 of 3.
  const expected: [string, number][] = [
    ["any", 0],
    ["all", 1],
    ["rate:0.6", 0],
    ["rate:0.7", 1],
    ["mean", 0],
  ];
  for (const [gate, code] of expected) {
    const r = await cli(["run", "evals", "--trials", "3", "--trials-gate", gate, "-q"], p.dir);
    assert.equal(r.code, code, `${gate}: ${r.out}${r.err}`);
    assert.match(
      r.out,
      new RegExp(`Trials: +2 cases, gate ${gate}: ${2 - code} pass, ${code} fail, 1 flaky`),
    );
  }
});

Deno.test("run prints per-case pass rates and pass@k, lists flaky cases, and reports with its gate", async () => {
  await using server = variedServer();
  await using p = await project({
    ".agentv/targets.yaml": targets(server.url),
    "evals/a.yaml": suite(),
  });
  const r = await cli(
    [
      "run",
      "evals",
      "--trials",
      "3",
      "--trials-gate",
      "all",
      "--report",
      "json:r.json",
      "--out",
      "o.jsonl",
    ],
    p.dir,
  );
  assert.equal(r.code, 1, r.err);
  // The JSON report's summary judges cases by the run's gate too.
  const report = JSON.parse(await Deno.readTextFile(join(p.dir, "r.json")));
  assert.equal(report.summary.trials.gate, "all");
  assert.deepEqual(report.summary.trials.flaky.map((c: { eval_id: string }) => c.eval_id), [
    "flaky",
  ]);
  // `agentv report` later reads the gate from the run record.
  const later = await cli(["report", "o.jsonl", "--format", "json"], p.dir);
  assert.equal(later.code, 0, later.err);
  assert.deepEqual(JSON.parse(later.out).summary.trials, report.summary.trials);
  assert.match(r.out, /Trials \(gate all\)/);
  // The failing case first: 2/3 passed, mean 0.667 ± 0.577, pass@1 0.667, pass@3 1, pass^3 0.
  assert.match(
    r.out,
    /✗ flaky +2\/3 passed {2}mean 0\.667 ± 0\.577 {2}pass@1 0\.667 {2}pass@3 1\.000 {2}pass\^3 0\.000/,
  );
  assert.match(r.out, /✓ steady +3\/3 passed {2}mean 1\.000 ± 0\.000/);
  assert.match(r.out, /Flaky \(1\): flaky \(2\/3\)/);
});

Deno.test("execution.trials on one case runs only that case 10 times; --trials overrides it", async () => {
  await using server = variedServer();
  await using p = await project({
    ".agentv/targets.yaml": targets(server.url),
    "evals/a.yaml": suite("    execution:\n      trials: 10\n"),
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl", "--json"], p.dir);
  assert.equal(r.code, 0, r.err);
  const rows = await rowsOf(join(p.dir, "o.jsonl"));
  assert.deepEqual(
    rows.filter((x) => x.eval_id === "flaky").map((x) => x.trial).sort((a, b) => a - b),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
  assert.deepEqual(rows.filter((x) => x.eval_id === "steady").map((x) => x.trial), [0]);
  const summary = JSON.parse(r.out) as RunSummary;
  // Calls 0..9 of flaky: "Rome" on 1, 4 and 7, so 7 of 10 pass; mean 0.7 is borderline.
  const flaky = summary.trials!.cases.find((c) => c.eval_id === "flaky")!;
  assert.deepEqual([flaky.n, flaky.passed, flaky.verdict], [10, 7, "borderline"]);
  // pass@1 = c/n = 0.7; pass^10 = C(7,10)/C(10,10) = 0.
  assert.ok(Math.abs(flaky.pass_at_k["1"] - 0.7) < 1e-12);
  assert.equal(flaky.pass_hat_k["10"], 0);
  const record = JSON.parse(await Deno.readTextFile(join(p.dir, "o.jsonl.run.json")));
  assert.equal(record.options.trials, null);
  const over = await cli(["run", "evals", "--trials", "2", "--out", "t.jsonl", "-q"], p.dir);
  // flaky's calls 10 and 11: 10 % 3 == 1 is "Rome", 11 is "Paris": 1 of 2, mean 0.5 fails.
  assert.equal(over.code, 1, over.err);
  assert.equal((await rowsOf(join(p.dir, "t.jsonl"))).length, 4);
});

Deno.test("run without trials has no trials section and gates on rows as before", async () => {
  await using server = variedServer();
  await using p = await project({
    ".agentv/targets.yaml": targets(server.url),
    "evals/a.yaml": suite(),
  });
  const r = await cli(["run", "evals", "--json"], p.dir);
  assert.equal(r.code, 0, r.err);
  assert.equal((JSON.parse(r.out) as RunSummary).trials, undefined);
});

Deno.test("bad --trials and --trials-gate values are usage errors (exit 2) that say why", async () => {
  await using p = await project({
    ".agentv/targets.yaml": targets("http://127.0.0.1:9/v1"),
    "evals/a.yaml": suite(),
  });
  const cases: [string[], RegExp][] = [
    [["--trials", "0"], /--trials must be a whole number from 1 to 1000, got '0'/],
    [["--trials", "2.5"], /--trials must be a whole number from 1 to 1000, got '2\.5'/],
    [["--trials", "1001"], /--trials must be a whole number from 1 to 1000, got '1001'/],
    [
      ["--trials-gate", "rate:1.5"],
      /--trials-gate: the rate in 'rate:1\.5' must be a number from 0 to 1/,
    ],
    [
      ["--trials-gate", "most"],
      /--trials-gate: 'most' is not a trials gate; expected mean, any, all or rate:X/,
    ],
  ];
  for (const [args, message] of cases) {
    const r = await cli(["run", "evals", ...args], p.dir);
    assert.equal(r.code, 2, args.join(" "));
    assert.match(r.err, message);
  }
});
