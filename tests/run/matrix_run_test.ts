/**
 * Several targets in one run (`--target a,b,c`, `execution.targets`): one row per (case, target,
 * trial), the targets of a case interleaved in plan order, the run record listing every target
 * with its resolved and redacted settings, a per-target summary, and a target's own `workers`
 * capping its share without holding the other targets back.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval, type RunEvent } from "../../mod.ts";
import { readRunRecord, runRecordPath } from "../../lib/results/run_record.ts";
import { cli, containsSuite, project, rowsOf } from "../_helpers/run_project.ts";
import { grid, runsOf, THREE_TARGETS } from "./_matrix.ts";

Deno.test("--target a,b,c runs every case against each target: cases × targets × trials rows, interleaved", async () => {
  await using p = await project({
    ".agentv/targets.yaml": THREE_TARGETS,
    "evals/a.yaml": containsSuite("d", [["c1", "ok"], ["c2", "ok"], ["c3", "ok"], ["c4", "ok"]]),
  });
  const starts: string[] = [];
  const out = join(p.dir, "o.jsonl");
  const { rows, summary } = await runEval({
    files: [join(p.dir, "evals/a.yaml")],
    env: {},
    cwd: p.dir,
    out,
    workers: 1,
    trials: 2,
    target: ["a", "b", "c"],
    onEvent: (e: RunEvent) => {
      if (e.type === "case_started") starts.push(`${e.eval_id}/${e.target}`);
    },
  });
  assert.deepEqual(runsOf(rows), grid(["c1", "c2", "c3", "c4"], ["a", "b", "c"], 2));
  // Plan order: the targets of a case are interleaved, trial by trial.
  assert.deepEqual(starts.slice(0, 7), [
    "c1/a",
    "c1/b",
    "c1/c",
    "c1/a",
    "c1/b",
    "c1/c",
    "c2/a",
  ]);
  assert.deepEqual(summary.targets?.map((t) => [t.target, t.total, t.verdicts.pass]), [
    ["a", 8, 8],
    ["b", 8, 0],
    ["c", 8, 8],
  ]);
  assert.ok(Math.abs((summary.targets?.[0].cost_usd ?? 0) - 0.016) < 1e-12);
  const record = await readRunRecord(runRecordPath(out));
  assert.deepEqual(record.options.target, ["a", "b", "c"]);
  assert.deepEqual(record.targets.map((t) => [t.name, t.settings?.response]), [
    ["a", "ok from a"],
    ["b", "nope from b"],
    ["c", "ok from c"],
  ]);
  // The rows of one file can be read back: one row per (dataset, case, target, trial).
  assert.equal((await rowsOf(out)).length, 24);
});

Deno.test("execution.targets in the file runs each case against its targets; --target one name keeps today's meaning", async () => {
  await using p = await project({
    ".agentv/targets.yaml": THREE_TARGETS,
    "evals/a.yaml": containsSuite(
      "d",
      [["c1", "ok"], ["c2", "ok"]],
      "execution:\n  targets: [a, c]\n",
    ),
  });
  const files = [join(p.dir, "evals/a.yaml")];
  const listed = await runEval({ files, env: {}, cwd: p.dir });
  assert.deepEqual(runsOf(listed.rows), grid(["c1", "c2"], ["a", "c"], 1));
  const one = await runEval({ files, env: {}, cwd: p.dir, target: "b" });
  assert.deepEqual(runsOf(one.rows), grid(["c1", "c2"], ["b"], 1));
  assert.equal(one.summary.targets, undefined, "one target: no per-target section");
  // The CLI reads --target a,b,c the same way.
  const r = await cli(["run", "evals", "--target", "a, b", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 1, r.err); // b fails its cases
  assert.match(r.out, /^ {2}Targets: {3}2 \(agentv compare <results> ranks them\)$/m);
  assert.match(r.out, /^ {4}a {2}mean 1\.000 {2}pass 2\/2/m);
  assert.deepEqual(runsOf(await rowsOf(join(p.dir, "o.jsonl"))), grid(["c1", "c2"], ["a", "b"], 1));
  const bad = await cli(["run", "evals", "--target", "a,,b"], p.dir);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--target 'a,,b': a name between commas is empty/);
  const twice = await cli(["run", "evals", "--target", "a,b,a"], p.dir);
  assert.equal(twice.code, 2);
  assert.match(twice.err, /--target 'a,b,a' names 'a' twice/);
});

Deno.test("an unknown target in the list blocks only its own rows, with did-you-mean", async () => {
  await using p = await project({
    ".agentv/targets.yaml": THREE_TARGETS,
    "evals/a.yaml": containsSuite("d", [["c1", "ok"]]),
  });
  const { rows } = await runEval({
    files: [join(p.dir, "evals/a.yaml")],
    env: {},
    cwd: p.dir,
    target: ["a", "cc"],
  });
  const byTarget = Object.fromEntries(rows.map((r) => [r.target, r]));
  assert.equal(byTarget.a.status, "ok");
  assert.equal(byTarget.cc.status, "error");
  assert.match(byTarget.cc.error ?? "", /Unknown target 'cc'.*did you mean 'c'\?/);
});

/** An OpenAI chat completion saying `text`. */
function completion(text: string): Response {
  return Response.json({
    choices: [{ message: { role: "assistant", content: text } }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

Deno.test("a target's workers caps its share; the other targets go on while it is full", async () => {
  // `slow` (workers: 1) answers only once every case of `fast` has finished: a scheduler that
  // waited for slow's cap in plan order would never get there (the run is then stopped, and the
  // assertions fail instead of the test hanging).
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: slow
    provider: openai
    base_url: http://127.0.0.1:9/v1
    api_key: sk-local
    model: m
    workers: 1
  - name: fast
    provider: mock
    response: ok
`,
    "evals/a.yaml": containsSuite("d", [["c1", "ok"], ["c2", "ok"], ["c3", "ok"], ["c4", "ok"]]),
  });
  const fastDone = Promise.withResolvers<void>();
  const controller = new AbortController();
  const failsafe = setTimeout(() => controller.abort(), 30_000);
  let fastRows = 0;
  let slowInFlight = 0;
  let slowMax = 0;
  const fetchSlow = async (): Promise<Response> => {
    slowMax = Math.max(slowMax, ++slowInFlight);
    await fastDone.promise;
    slowInFlight--;
    return completion("ok");
  };
  try {
    const { rows } = await runEval({
      files: [join(p.dir, "evals/a.yaml")],
      env: {},
      cwd: p.dir,
      workers: 3,
      target: ["slow", "fast"],
      signal: controller.signal,
      fetch: fetchSlow as typeof fetch,
      onEvent: (e) => {
        if (e.type === "case_finished" && e.row.target === "fast" && ++fastRows === 4) {
          fastDone.resolve();
        }
      },
    });
    assert.equal(fastRows, 4, "every fast case finished while slow held its one slot");
    assert.equal(slowMax, 1, "slow never ran two cases at once");
    assert.equal(rows.length, 8);
    assert.ok(rows.every((r) => r.status === "ok"), JSON.stringify(rows.map((r) => r.error)));
  } finally {
    clearTimeout(failsafe);
    fastDone.resolve();
  }
});

Deno.test("the reports of a multi-target run name the target: JUnit, Markdown step summary, annotations", async () => {
  await using p = await project({
    ".agentv/targets.yaml": THREE_TARGETS,
    "evals/a.yaml": containsSuite("d", [["c1", "ok"], ["c2", "ok"]]),
  });
  const summaryFile = join(p.dir, "step_summary.md");
  await Deno.writeTextFile(summaryFile, "");
  const r = await cli(
    ["run", "evals", "--target", "a,b", "--out", "o.jsonl", "--report", "junit"],
    p.dir,
    { env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summaryFile, GITHUB_WORKSPACE: p.dir } },
  );
  assert.equal(r.code, 1, r.err);
  const junit = await Deno.readTextFile(join(p.dir, "o.jsonl.junit.xml"));
  const names = [...junit.matchAll(/<testcase name="([^"]+)"/g)].map((m) => m[1]).sort();
  assert.deepEqual(names, ["c1 [a]", "c1 [b]", "c2 [a]", "c2 [b]"]);
  const summary = await Deno.readTextFile(summaryFile);
  assert.match(summary, /^\| target a \| 2 \| 2 \| 0 \| 0 \|/m);
  assert.match(summary, /^\| target b \| 2 \| 0 \| 0 \| 2 \|/m);
  assert.match(summary, /^\| d \| c1 \[b\] \| 0\.00 \|/m);
  const annotations = r.out.split("\n").filter((l) => l.startsWith("::error"));
  assert.deepEqual(annotations.map((a) => /title=([^:]+)::/.exec(a)?.[1]).sort(), [
    "d/c1 (b)",
    "d/c2 (b)",
  ]);
});
