/**
 * `agentv calibrate` in-process against a loopback judge whose verdicts follow a scripted
 * confusion matrix: it recovers the judge's sensitivity and specificity within their intervals,
 * lists the disagreements, gates with --fail-below (which flips when the script's error rate is
 * raised) and --min-labels, prints Markdown and HTML, and says what is wrong with its inputs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli } from "../_helpers/run_project.ts";
import { scriptedProject } from "./_scripted_judge.ts";

Deno.test("calibrate recovers a scripted judge's sensitivity and specificity within their intervals", async () => {
  await using p = await scriptedProject(200, { se: 0.85, sp: 0.7, seed: 3 });
  const { out, rows } = await p.run("run");
  const labels = join(p.dir, ".agentv/labels.jsonl");
  await p.writeLabels(labels, rows);
  const { code, out: stdout, err } = await cli(["calibrate", out, "--json"], p.dir);
  assert.equal(code, 0, err);
  const json = JSON.parse(stdout);
  const [overall] = json.evaluators;
  assert.equal(overall.evaluator, null);
  assert.equal(overall.n, 200);
  // The matrix counts what the script decided, case by case.
  const m = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const row of rows) {
    const human = p.truth[Number(row.eval_id.slice(1))];
    const judge = row.verdict === "pass";
    if (judge) human ? m.tp++ : m.fp++;
    else human ? m.fn++ : m.tn++;
  }
  assert.deepEqual(overall.confusion, m);
  assert.equal(overall.sensitivity.value, m.tp / (m.tp + m.fn));
  assert.equal(overall.sensitivity.n, m.tp + m.fn);
  // The scripted Se and Sp lie inside the 95 % intervals of the estimates.
  assert.ok(overall.sensitivity.ci.low <= 0.85 && 0.85 <= overall.sensitivity.ci.high);
  assert.ok(overall.specificity.ci.low <= 0.7 && 0.7 <= overall.specificity.ci.high);
  for (const key of ["accuracy", "sensitivity", "specificity", "kappa"]) {
    assert.deepEqual(Object.keys(overall[key]).sort(), ["ci", "n", "value"], key);
  }
  assert.equal(overall.alpha, null, "one reviewer: no α");
  assert.deepEqual(overall.judge_targets, ["judge"]);
  assert.deepEqual(overall.models, ["judge-model"]);
  // Every disagreement is listed with the judge's reasoning and the reviewer's note.
  assert.equal(overall.disagreements.length, m.fp + m.fn);
  const d = overall.disagreements[0];
  assert.match(d.reasoning, new RegExp(`\\bcase ${d.eval_id.slice(1)}: (good|bad) answer`));
  assert.equal(d.reviewers[0].note, `ana on ${d.eval_id}`);
});

Deno.test("--fail-below passes a judge that errs rarely and fails it once its error rate is raised", async () => {
  await using p = await scriptedProject(120, { se: 0.95, sp: 0.95, seed: 5 });
  const labels = join(p.dir, "labels.jsonl");
  const good = await p.run("good");
  await p.writeLabels(labels, good.rows);
  const passed = await cli(
    ["calibrate", good.out, "--labels", labels, "--fail-below", "0.6"],
    p.dir,
  );
  assert.equal(passed.code, 0, passed.out + passed.err);
  assert.match(passed.out, /Gate passed/);

  p.script = { se: 0.7, sp: 0.6, seed: 5 };
  const bad = await p.run("bad");
  await p.writeLabels(labels, bad.rows);
  const failed = await cli(
    ["calibrate", bad.out, "--labels", labels, "--fail-below", "0.6"],
    p.dir,
  );
  assert.equal(failed.code, 1, failed.out + failed.err);
  assert.match(
    failed.err,
    /agentv calibrate: the case verdict: κ 0\.\d\d is below --fail-below 0\.6/,
  );
  assert.match(failed.out, /Gate failed/);
  // The labels of the other run match nothing here, and say so.
  assert.match(failed.out, /120 label\(s\) matched nothing:/);
  assert.match(failed.out, /no results file given holds run/);
});

Deno.test("--min-labels fails figures that rest on too few labels; --evaluator picks an evaluator", async () => {
  await using p = await scriptedProject(12, { se: 0.9, sp: 0.9, seed: 7 });
  const { out, rows } = await p.run("run");
  const labels = join(p.dir, "labels.jsonl");
  await p.writeLabels(labels, rows, "quality");
  const few = await cli(["calibrate", out, "--labels", labels, "--min-labels", "20"], p.dir);
  assert.equal(few.code, 1);
  assert.match(
    few.err,
    /evaluator 'quality': rests on 12 labelled item\(s\), fewer than --min-labels 20/,
  );
  const enough = await cli(
    [
      "calibrate",
      out,
      "--labels",
      labels,
      "--min-labels",
      "12",
      "--evaluator",
      "quality",
      "--json",
    ],
    p.dir,
  );
  assert.equal(enough.code, 0, enough.err);
  const json = JSON.parse(enough.out);
  assert.deepEqual(json.evaluators.map((e: { evaluator: string }) => e.evaluator), ["quality"]);
  assert.equal(json.evaluators[0].type, "llm_judge");
  assert.deepEqual(json.gate, { fail_below: null, min_labels: 12, failures: [] });
});

Deno.test("calibrate prints Markdown with inert text and a self-contained HTML page", async () => {
  await using p = await scriptedProject(20, { se: 0.8, sp: 0.8, seed: 9 });
  const { out, rows } = await p.run("run");
  const labels = join(p.dir, "labels.jsonl");
  await p.writeLabels(labels, rows);
  // A reviewer's note with markup must stay text.
  await Deno.writeTextFile(
    labels,
    JSON.stringify({
      run_id: rows[0].run_id,
      dataset: rows[0].dataset,
      eval_id: rows[0].eval_id,
      target: "default",
      trial: 0,
      evaluator: null,
      label: rows[0].verdict === "pass" ? "fail" : "pass",
      score: null,
      reviewer: "bo",
      note: "<img src=x onerror=alert(1)> ![t](https://evil.test/t.png)",
      labelled_at: "2026-11-27T10:00:00.000Z",
    }) + "\n",
    { append: true },
  );
  const md = await cli(["calibrate", out, "--labels", labels, "--format", "markdown"], p.dir);
  assert.equal(md.code, 0, md.err);
  assert.match(md.out, /^## Judge calibration/);
  assert.match(md.out, /\| \*\*judge pass\*\* \| \d+ \| \d+ \|/);
  assert.match(
    md.out,
    /&lt;img src=x onerror=alert\(1\)&gt; !\\\[t\\\]\(https:&#8203;\/\/evil\.test/,
  );
  assert.doesNotMatch(md.out, /<img/);
  const html = await cli(["calibrate", out, "--labels", labels, "--format", "html"], p.dir);
  assert.equal(html.code, 0, html.err);
  assert.match(html.out, /^<!DOCTYPE html>/);
  assert.doesNotMatch(html.out, /<img/);
  assert.match(html.out, /Content-Security-Policy/);
});

Deno.test("calibrate says what is wrong with its inputs (exit 2)", async () => {
  await using p = await scriptedProject(3, { se: 1, sp: 1, seed: 1 });
  const { out, rows } = await p.run("run");
  const none = await cli(["calibrate", out], p.dir);
  assert.equal(none.code, 2);
  assert.match(none.err, /No labels file at '\.agentv\/labels\.jsonl'/);
  const missing = await cli(["calibrate", out, "--labels", "nope.jsonl"], p.dir);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /The labels file 'nope\.jsonl' does not exist/);
  const labels = join(p.dir, "labels.jsonl");
  await p.writeLabels(labels, rows.map((r) => ({ ...r, run_id: "someone-else" })));
  const unmatched = await cli(["calibrate", out, "--labels", labels], p.dir);
  assert.equal(unmatched.code, 2);
  assert.match(
    unmatched.err,
    /None of the 3 label\(s\) .* matches a judged verdict .*no results file given holds run 'someone-else'/,
  );
  await Deno.writeTextFile(labels, "{not json}\n", { append: true });
  const broken = await cli(["calibrate", out, "--labels", labels], p.dir);
  assert.equal(broken.code, 2);
  // At the column within the line where the JSON goes wrong (after the `{`).
  assert.match(broken.err, /labels\.jsonl:4:2: error: Line 4: Invalid JSON/);
  const flags = await cli(["calibrate", out, "--fail-below", "2"], p.dir);
  assert.equal(flags.code, 2);
  assert.match(flags.err, /--fail-below must be a κ from -1 to 1, got '2'/);
});
