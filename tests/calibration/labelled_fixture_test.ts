/**
 * `agentv calibrate` on the labelled fixture (`tests/calibration/fixtures/`: ten judged answers, two
 * reviewers) prints the figures worked out by hand below, and names the disagreements.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { cli } from "../_helpers/run_project.ts";

const DIR = fileURLToPath(new URL("./fixtures/", import.meta.url));
const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} is not ${expected}`);

// The fixture. Judge (its `quality` llm_judge decides the case verdict):
//   pass: c1 .90, c2 .95, c3 .85, c4 .80, c5 .90      fail: c6 .10, c7 .30, c8 .50, c9 .20, c10 0
// ana labels all ten: P P P F P | F P F F F; bo labels six: c1 P, c2 P, c3 F, c4 F, c6 F, c7 P.
// ana also scores c1 1.0, c6 0.0, c7 0.8.

Deno.test("calibrate on the labelled fixture matches the hand-computed figures", async () => {
  const { code, out, err } = await cli(
    ["calibrate", `${DIR}results.jsonl`, "--labels", `${DIR}labels.jsonl`, "--json"],
    DIR,
  );
  assert.equal(code, 0, err);
  const json = JSON.parse(out);
  assert.deepEqual(json.labels.unmatched, []);
  assert.equal(json.labels.matched, 16);
  const [unit] = json.evaluators;
  // Majority of the reviewers: c3 is split (ana P, bo F) and left out; nine items remain.
  //   c1 P/P tp, c2 P/P tp, c4 P/F fp, c5 P/P tp, c6 F/F tn, c7 F/P fn, c8 c9 c10 F/F tn.
  assert.deepEqual([unit.n, unit.ties], [9, 1]);
  assert.deepEqual(unit.confusion, { tp: 3, fp: 1, fn: 1, tn: 4 });
  // accuracy (3 + 4)/9; sensitivity 3/(3 + 1); specificity 4/(4 + 1)
  close(unit.accuracy.value, 7 / 9);
  assert.deepEqual([unit.sensitivity.value, unit.sensitivity.n], [0.75, 4]);
  assert.deepEqual([unit.specificity.value, unit.specificity.n], [0.8, 5]);
  // κ: pₒ = 7/9; both sides pass 4/9; pₑ = (4/9)² + (5/9)² = 41/81;
  //    κ = (63/81 − 41/81) / (40/81) = 22/40 = 0.55
  close(unit.kappa.value, 0.55);
  // α among reviewers: pairable units c1 PP, c2 PP, c3 PF, c4 FF, c6 FF, c7 PP: n = 12, n_P = 7,
  //   n_F = 5. Dₒ = ((4 − 2)/1)/12 = 2/12 (c3 alone); Dₑ = (144 − 49 − 25)/(12·11) = 70/132;
  //   α = 1 − (2/12)/(70/132) = 1 − 264/840 = 24/35
  close(unit.alpha.reviewers.value, 24 / 35);
  assert.equal(unit.alpha.reviewers.n, 6);
  // α with the judge as a third rater: c1 PPP, c2 PPP, c3 PFP, c4 FFP, c5 PP, c6 FFF, c7 PPF,
  //   c8–c10 FF: n = 26, n_P = n_F = 13. Dₒ = (2 + 2 + 2)/26 (c3, c4, c7: (9 − 5)/2 each);
  //   Dₑ = (676 − 169 − 169)/(26·25) = 338/650; α = 1 − (6/26)/(338/650) = 1 − 75/169 = 94/169
  close(unit.alpha.with_judge.value, 94 / 169);
  // Scores (ana's, on c1, c6, c7): judge .9 .1 .3, people 1 0 .8. Same order: ρ = 1;
  //   |Δ| = .1, .1, .5: mean 0.7/3
  assert.equal(unit.scores.n, 3);
  assert.equal(unit.scores.spearman.value, 1);
  close(unit.scores.mad.value, 0.7 / 3);
  // Every estimate carries its interval.
  for (const e of [unit.accuracy, unit.sensitivity, unit.specificity, unit.kappa]) {
    assert.ok(e.ci.low <= e.value && e.value <= e.ci.high);
  }
  assert.deepEqual(
    unit.disagreements.map((
      d: { eval_id: string; human_verdict: string },
    ) => [d.eval_id, d.human_verdict]),
    [["c3", "split"], ["c4", "fail"], ["c7", "pass"]],
  );
});

Deno.test("calibrate's text names each disagreement with the judge's reasoning and the notes", async () => {
  const { code, out } = await cli(
    ["calibrate", `${DIR}results.jsonl`, "--labels", `${DIR}labels.jsonl`, "--fail-below", "0.5"],
    DIR,
  );
  assert.equal(code, 0);
  for (
    const line of [
      "    judge pass            3            1",
      "    judge fail            1            4",
      "  kappa        0.55  [",
      "  alpha        reviewers 0.69  [",
      "    support/c4 (target default): judge pass (0.80), people fail",
      "      judge: quality: The answer to c4 meets the expected outcome",
      "      bo: fail — promises a refund it cannot give",
      "Gate passed",
    ]
  ) {
    assert.ok(out.includes(line), `missing: ${line}\n${out}`);
  }
  const gate = await cli(
    ["calibrate", `${DIR}results.jsonl`, "--labels", `${DIR}labels.jsonl`, "--fail-below", "0.6"],
    DIR,
  );
  assert.equal(gate.code, 1);
  assert.match(gate.err, /the case verdict: κ 0\.55 is below --fail-below 0\.6/);
});
