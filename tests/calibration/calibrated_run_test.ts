/**
 * A saved calibration used by `run` and `compare`: `agentv calibrate --save` writes the judge's
 * figures, model and prompt hashes; a later run reports its pass rate corrected for the judge's
 * error beside the raw one (summary, run record, console, Markdown report, --json), warns when the
 * judge's model or prompt changed since, or when the calibration is too weak to correct; compare
 * shows both sides corrected.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { roganGladen } from "../../lib/calibration/mod.ts";
import { runEval } from "../../lib/run/run_eval.ts";
import type { CalibrationFile } from "../../lib/schema/calibration.ts";
import { cli } from "../_helpers/run_project.ts";
import { type ScriptedProject, scriptedProject } from "./_scripted_judge.ts";

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);

/** Runs, labels and saves a calibration of the project's judge; returns the file. */
async function calibrate(p: ScriptedProject): Promise<CalibrationFile> {
  const { out, rows } = await p.run("labelled");
  await p.writeLabels(join(p.dir, ".agentv/labels.jsonl"), rows);
  const saved = await cli(["calibrate", out, "--save"], p.dir, { now: NOW });
  assert.equal(saved.code, 0, saved.err);
  assert.match(saved.out, /Saved the calibration to \.agentv\/calibration\/judge\.json/);
  return JSON.parse(await Deno.readTextFile(join(p.dir, ".agentv/calibration/judge.json")));
}

Deno.test("calibrate --save writes the judge, its model, its prompt hashes and its figures", async () => {
  await using p = await scriptedProject(60, { se: 0.9, sp: 0.8, seed: 31 });
  const file = await calibrate(p);
  assert.equal(file.schema_version, 1);
  assert.equal(file.judge_target, "judge");
  assert.equal(file.model, "judge-model");
  assert.equal(file.calibrated_at, new Date(NOW).toISOString());
  // One judge prompt: the free-form llm_judge's system prompt and default template.
  assert.equal(file.prompt!.texts.length, 1);
  assert.match(file.prompt!.sha256, /^[0-9a-f]{64}$/);
  const overall = file.overall!;
  const { tp, fp, fn, tn } = overall.confusion;
  assert.equal(tp + fp + fn + tn, 60);
  assert.equal(overall.n, 60);
  assert.equal(overall.sensitivity, tp / (tp + fn));
  assert.equal(overall.specificity, tn / (tn + fp));
  assert.equal(file.evaluators.length, 0, "only case verdicts were labelled");
  assert.equal(file.runs.length, 1);
});

Deno.test("a later run reports its pass rate corrected with the saved calibration", async () => {
  await using p = await scriptedProject(80, { se: 0.85, sp: 0.75, seed: 32 });
  const file = await calibrate(p);
  const { tp, fp, fn, tn } = file.overall!.confusion;
  const out = join(p.dir, "later.jsonl");
  const { summary } = await runEval({ files: ["evals/qa.yaml"], env: {}, cwd: p.dir, out });
  const section = summary.calibration!;
  assert.equal(section.judge_target, "judge");
  assert.equal(section.file, join(p.dir, ".agentv/calibration/judge.json"));
  const raw = summary.verdicts.pass / summary.scored;
  assert.equal(section.pass_rate, raw);
  // Rogan–Gladen with the saved Se and Sp: (p + Sp − 1) / (Se + Sp − 1).
  const se = tp / (tp + fn), sp = tn / (tn + fp);
  assert.ok(Math.abs(section.corrected_pass_rate! - roganGladen(raw, se, sp)!) < 1e-12);
  // The judge decides each case as it did on the labelled run, so the correction gives back
  // exactly the people's pass rate: p = (tp + fp)/n and π(Se + Sp − 1) = tp/n − fp·(tp + fn)/(n·(tn + fp)).
  const truePass = p.truth.filter(Boolean).length / p.truth.length;
  assert.ok(Math.abs(section.corrected_pass_rate! - truePass) < 1e-12);
  assert.ok(section.ci!.low <= truePass && truePass <= section.ci!.high);
  assert.equal(section.ci!.confidence, 0.95);
  assert.deepEqual(section.warnings, []);
  // The run record keeps it.
  const record = JSON.parse(await Deno.readTextFile(`${out}.run.json`));
  assert.deepEqual(record.summary.calibration, section);
});

Deno.test("run prints the corrected pass rate in the console, --json and the Markdown report", async () => {
  await using p = await scriptedProject(30, { se: 0.9, sp: 0.9, seed: 33 });
  await calibrate(p);
  const text = await cli(
    ["run", "evals/qa.yaml", "--out", "a.jsonl", "--report", "markdown:a.md"],
    p.dir,
  );
  assert.equal(text.code === 0 || text.code === 1, true, text.err);
  assert.match(
    text.out,
    / {2}Judge: {5}Pass rate \d+\.\d%, corrected for judge 'judge' \d+\.\d% \(95% CI \d+\.\d%–\d+\.\d%; calibrated 2026-11-27 on 30 labels: sensitivity \d\.\d\d, specificity \d\.\d\d, κ -?\d\.\d\d\)/,
  );
  const md = await Deno.readTextFile(join(p.dir, "a.md"));
  assert.match(md, /> Pass rate \d+\.\d%, corrected for judge 'judge'/);
  const json = await cli(["run", "evals/qa.yaml", "--out", "b.jsonl", "--json"], p.dir);
  const summary = JSON.parse(json.out);
  assert.equal(summary.calibration.judge_target, "judge");
  assert.equal(typeof summary.calibration.corrected_pass_rate, "number");
});

Deno.test("run warns when the judge's model or prompt changed since it was calibrated", async () => {
  await using p = await scriptedProject(20, { se: 0.9, sp: 0.9, seed: 34 });
  await calibrate(p);
  const targets = join(p.dir, ".agentv/targets.yaml");
  await Deno.writeTextFile(
    targets,
    (await Deno.readTextFile(targets)).replace("model: judge-model", "model: judge-model-2"),
  );
  const model = await runEval({ files: ["evals/qa.yaml"], env: {}, cwd: p.dir });
  assert.deepEqual(model.summary.calibration!.warnings, [
    "judge 'judge' now uses model 'judge-model-2'; it was calibrated (2026-11-27) with " +
    "'judge-model': calibrate it again",
  ]);
  const evals = join(p.dir, "evals/qa.yaml");
  await Deno.writeTextFile(
    evals,
    (await Deno.readTextFile(evals)).replaceAll(
      "{name: quality, type: llm_judge}",
      "{name: quality, type: llm_judge, prompt: 'Grade {{ candidate_answer }} for {{ question }}'}",
    ),
  );
  const prompt = await runEval({ files: ["evals/qa.yaml"], env: {}, cwd: p.dir });
  assert.match(
    prompt.summary.calibration!.warnings.at(-1)!,
    /^judge 'judge' is asked 1 of 1 prompt\(s\) or rubric text\(s\) that differ from those it was calibrated with \(2026-11-27\): calibrate it again$/,
  );
  // The correction is still shown, beside the warnings.
  assert.equal(typeof prompt.summary.calibration!.corrected_pass_rate, "number");
});

Deno.test("a calibration too weak to correct, or unreadable, warns and corrects nothing", async () => {
  await using p = await scriptedProject(10, { se: 0.9, sp: 0.9, seed: 35 });
  const file = await calibrate(p);
  const path = join(p.dir, ".agentv/calibration/judge.json");
  // Se = 3/10, Sp = 6/10: Se + Sp = 0.9 ≤ 1, no better than chance.
  const weak = {
    ...file,
    overall: {
      ...file.overall!,
      confusion: { tp: 3, fn: 7, tn: 6, fp: 4 },
      sensitivity: 0.3,
      specificity: 0.6,
    },
  };
  await Deno.writeTextFile(path, JSON.stringify(weak));
  const a = await runEval({ files: ["evals/qa.yaml"], env: {}, cwd: p.dir });
  assert.equal(a.summary.calibration!.corrected_pass_rate, null);
  assert.equal(a.summary.calibration!.ci, null);
  assert.match(
    a.summary.calibration!.warnings[0],
    /too weak to correct: sensitivity \+ specificity = 0\.90 ≤ 1/,
  );
  await Deno.writeTextFile(path, "{not json");
  const b = await runEval({ files: ["evals/qa.yaml"], env: {}, cwd: p.dir });
  assert.equal(b.summary.calibration!.corrected_pass_rate, null);
  assert.match(
    b.summary.calibration!.warnings[0],
    /^the calibration file cannot be used \(not JSON/,
  );
});

Deno.test("compare shows each side's pass rate corrected with its judge's calibration", async () => {
  await using p = await scriptedProject(40, { se: 0.9, sp: 0.8, seed: 36 });
  await calibrate(p);
  const a = await p.run("a");
  const b = await p.run("b");
  const json = await cli(["compare", a.out, b.out, "--json"], p.dir);
  assert.equal(json.code, 0, json.err);
  const { calibration } = JSON.parse(json.out);
  for (const side of ["baseline", "candidate"]) {
    assert.equal(calibration[side].judge_target, "judge");
    assert.deepEqual(calibration[side].warnings, []);
  }
  const text = await cli(["compare", a.out, b.out], p.dir);
  assert.match(
    text.out,
    /Judge calibration:\n {2}baseline \(.*a\.jsonl\): pass rate \d+\.\d%, corrected for judge 'judge'/,
  );
  const md = await cli(["compare", a.out, b.out, "--format", "markdown"], p.dir);
  assert.match(md.out, /### Judge calibration\n\n- \*\*baseline\*\*/);
});
