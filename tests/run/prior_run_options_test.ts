/**
 * `--resume R`, `--rerun-failed R` and `--retry-errors R` take every option from R's run record:
 * with no other option they run as R ran (its target, workers, timeout, filter, trials, gate,
 * ...). An option given again that does not change results replaces the recorded one; one that
 * changes results is refused with what differs (old → new, the flag), before anything runs.
 */
import assert from "node:assert/strict";
import { readRunRecord, runRecordPath } from "../../lib/results/run_record.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { cli, containsSuite, project, rowsOf } from "../_helpers/run_project.ts";

const TARGETS = "targets:\n" +
  "  - name: default\n    provider: mock\n    response: ok from default\n" +
  "  - name: alt\n    provider: mock\n    response: ok from alt\n";

/** `target/id/trial` of every row, sorted. */
const runsOf = (rows: readonly ResultRow[]) =>
  rows.map((r) => `${r.target}/${r.eval_id}/${r.trial}`).sort();

/** The options of the parent run: none is a default, so each must come from the record. */
const PARENT = [
  "--target",
  "alt",
  "--workers",
  "1",
  "--timeout",
  "30",
  "--filter",
  "c*",
  "--trials",
  "2",
  "--trials-gate",
  "any",
  "--threshold",
  "0.4",
  "--budget-usd",
  "7",
];

/**
 * A finished parent run into `o.jsonl`: c1 passes, c2 fails, d1 is filtered out; the run passes
 * its gate (mean 0.5 >= 0.4), which it would not without `--threshold` (c2 fails).
 */
async function parentRun() {
  const p = await project({
    ".agentv/targets.yaml": TARGETS,
    "evals/a.yaml": containsSuite("a", [["c1", "ok"], ["c2", "nope"], ["d1", "ok"]]),
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl", ...PARENT], p.dir);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(runsOf(await rowsOf(p.path("o.jsonl"))), [
    "alt/c1/0",
    "alt/c1/1",
    "alt/c2/0",
    "alt/c2/1",
  ]);
  return p;
}

/** The recorded options of a results file. */
async function optionsOf(path: string) {
  return (await readRunRecord(runRecordPath(path))).options;
}

Deno.test("agentv run --resume R with no other option resumes with R's options", async () => {
  await using p = await parentRun();
  const out = p.path("o.jsonl");
  const before = await optionsOf(out);
  const lines = (await Deno.readTextFile(out)).split("\n").filter(Boolean);
  await Deno.writeTextFile(out, lines[0] + "\n");

  const r = await cli(["run", "--resume", "o.jsonl"], p.dir);
  assert.equal(r.code, 0, "the recorded --threshold is the gate: " + r.err);
  assert.match(r.out, /Resuming o\.jsonl/);
  // The recorded target, filter and trials: d1 is not run, every trial runs against alt.
  assert.deepEqual(runsOf(await rowsOf(out)), ["alt/c1/0", "alt/c1/1", "alt/c2/0", "alt/c2/1"]);
  assert.deepEqual(await optionsOf(out), before);
  assert.equal(before.workers, 1);
  assert.equal(before.timeout_ms, 30_000);
  assert.equal(before.budget_usd, 7);
});

Deno.test("--resume: options that do not change results may be given again; the others are refused with a diff", async () => {
  await using p = await parentRun();
  const out = p.path("o.jsonl");
  const lines = (await Deno.readTextFile(out)).split("\n").filter(Boolean);
  await Deno.writeTextFile(out, lines[0] + "\n");
  const text = await Deno.readTextFile(out);
  const recordText = await Deno.readTextFile(runRecordPath(out));

  const refused = await cli(
    ["run", "--resume", "o.jsonl", "--target", "default", "--trials", "3"],
    p.dir,
  );
  assert.equal(refused.code, 2, refused.err);
  assert.match(refused.err, /o\.jsonl\.run\.json: error: --target: "alt" → "default"/);
  assert.match(refused.err, /o\.jsonl\.run\.json: error: --trials: 2 → 3/);
  assert.match(refused.err, /options that change results differ from the run's/);
  assert.match(refused.err, /hint: leave --target, --trials out to keep the options of run /);
  assert.equal(await Deno.readTextFile(out), text, "nothing ran");
  assert.equal(await Deno.readTextFile(runRecordPath(out)), recordText);

  const r = await cli(["run", "--resume", "o.jsonl", "--workers", "3", "--timeout", "9"], p.dir);
  assert.equal(r.code, 0, r.err);
  const options = await optionsOf(out);
  assert.equal(options.workers, 3);
  assert.equal(options.timeout_ms, 9_000);
  assert.equal(options.target, "alt");
  assert.equal(options.trials_gate, "any");
});

Deno.test("--rerun-failed R takes R's options; a given --filter may narrow it, a given --trials is refused", async () => {
  await using p = await parentRun();
  const parent = await optionsOf(p.path("o.jsonl"));

  const refused = await cli(
    ["run", "--rerun-failed", "o.jsonl", "--out", "x.jsonl", "--trials", "3"],
    p.dir,
  );
  assert.equal(refused.code, 2, refused.err);
  assert.match(refused.err, /--trials: 2 → 3/);
  await assert.rejects(Deno.stat(p.path("x.jsonl")), Deno.errors.NotFound);

  const r = await cli(["run", "--rerun-failed", "o.jsonl", "--out", "r.jsonl"], p.dir);
  assert.equal(r.code, 1, "c2 still fails (mean 0 < 0.4): " + r.err);
  assert.deepEqual(runsOf(await rowsOf(p.path("r.jsonl"))), ["alt/c2/0", "alt/c2/1"]);
  assert.deepEqual(await optionsOf(p.path("r.jsonl")), parent);

  const narrowed = await cli(
    ["run", "--rerun-failed", "o.jsonl", "--out", "n.jsonl", "--filter", "c2", "--workers", "2"],
    p.dir,
  );
  assert.equal(narrowed.code, 1, narrowed.err);
  const options = await optionsOf(p.path("n.jsonl"));
  assert.equal(options.filter, "c2");
  assert.equal(options.workers, 2);
  assert.equal(options.target, "alt");
});

Deno.test("--retry-errors R takes R's options (judge target, trials, workers, timeout) and refuses another judge", async () => {
  await using p = await project({
    ".agentv/targets.yaml": TARGETS +
      "  - name: broken\n    provider: openai\n    api_key: ${{ NOT_SET_ANYWHERE }}\n    model: m\n",
    "evals/a.yaml": containsSuite("a", [["c1", "ok"]]) +
      "  - id: e1\n    expected_outcome: Says ok\n    input: Say ok\n" +
      "    execution: {target: broken}\n    evaluators: [{type: contains, value: ok}]\n",
  });
  const first = await cli(
    [
      "run",
      "evals",
      "--out",
      "o.jsonl",
      "--judge-target",
      "alt",
      "--trials",
      "2",
      "--workers",
      "1",
    ],
    p.dir,
  );
  assert.equal(first.code, 1, first.err);
  const parent = await optionsOf(p.path("o.jsonl"));
  // The broken target is fixed (the targets file is not part of the dataset's hash).
  await Deno.writeTextFile(
    p.path(".agentv/targets.yaml"),
    TARGETS + "  - name: broken\n    provider: mock\n    response: ok now\n",
  );

  const refused = await cli(
    ["run", "--retry-errors", "o.jsonl", "--out", "x.jsonl", "--judge-target", "default"],
    p.dir,
  );
  assert.equal(refused.code, 2, refused.err);
  assert.match(refused.err, /--judge-target: "alt" → "default"/);

  const r = await cli(["run", "--retry-errors", "o.jsonl", "--out", "r.jsonl"], p.dir);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(runsOf(await rowsOf(p.path("r.jsonl"))), ["broken/e1/0", "broken/e1/1"]);
  const options = await optionsOf(p.path("r.jsonl"));
  assert.deepEqual(options, parent);
  assert.equal(options.judge_target, "alt");
  assert.equal(options.workers, 1);
});
