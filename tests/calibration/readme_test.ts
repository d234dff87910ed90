/**
 * The page of `agentv calibrate` (docs/commands/calibrate.md) stays true: its label line is a valid label, and its
 * console line is what `run` prints for the worked example (60 of 100 answers passed; the judge
 * calibrated on 100 labels with tp 45, fn 5, tn 40, fp 10).
 */
import assert from "node:assert/strict";
import { correctPassRate } from "../../lib/calibration/mod.ts";
import { calibrationSummaryLines } from "../../lib/render/calibration_summary.ts";
import { painter } from "../../lib/render/console_text.ts";
import { LabelSchema } from "../../lib/schema/label.ts";

const section = await Deno.readTextFile(
  new URL("../../docs/commands/calibrate.md", import.meta.url),
);

Deno.test("the calibrate page's label line is a valid label", () => {
  const block = /```jsonl\n(.+)\n```/.exec(section)?.[1];
  assert.ok(block, "the section shows a label line");
  const parsed = LabelSchema.safeParse(JSON.parse(block));
  assert.equal(parsed.success, true, JSON.stringify(parsed.error?.issues));
});

Deno.test("the calibrate page's corrected pass rate line is what run prints for its worked example", () => {
  const m = { tp: 45, fn: 5, tn: 40, fp: 10 };
  const rate = correctPassRate({ passed: 60, scored: 100 }, m);
  // κ: pₒ = 85/100; the judge passes 55/100, people 50/100: pₑ = 0.5; κ = 0.35/0.5 = 0.7.
  const [line] = calibrationSummaryLines({
    judge_target: "judge",
    file: ".agentv/calibration/judge.json",
    calibrated_at: "2026-11-28T09:00:00.000Z",
    n: 100,
    kappa: 0.7,
    sensitivity: 0.9,
    specificity: 0.8,
    pass_rate: rate.raw,
    corrected_pass_rate: rate.corrected,
    ci: { ...rate.ci!, confidence: 0.95 },
    warnings: [],
  }, painter(false));
  const shown = /```text\n(.+)\n```/.exec(section)?.[1];
  assert.equal(shown, line.trimStart());
});
