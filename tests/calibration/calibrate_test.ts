/**
 * calibrateJudge(): labels matched to rows (latest label per reviewer, run ids, evaluators, error
 * rows), the figures per evaluator and for the overall verdict, the reviewers' majority, α with
 * several reviewers, scores, disagreements with the judge's reasoning and the reviewers' notes,
 * seeded intervals, and the gate.
 */
import assert from "node:assert/strict";
import {
  bootstrapIntervals,
  calibrateJudge,
  DEFAULT_BOOTSTRAP,
  gateFailures,
  matchLabels,
} from "../../lib/calibration/mod.ts";
import type { Label } from "../../lib/schema/label.ts";
import type { EvaluatorResult, ResultRow } from "../../lib/schema/result.ts";

/** A judged evaluator result. */
function judged(
  name: string,
  verdict: "pass" | "fail" | "borderline",
  score: number,
): EvaluatorResult {
  return {
    name,
    type: "llm_judge",
    status: "ok",
    score,
    weight: 1,
    verdict,
    hits: [],
    misses: verdict === "pass" ? [] : [`${name} missed it`],
    reasoning: `${name} thinks ${verdict}`,
    evaluator_provider_request: {
      target: "judge",
      model: "judge-1",
      system_prompt: "",
      user_prompt: "",
    },
  };
}

/** A row of run `r1` whose overall verdict and `quality` evaluator both say `verdict`. */
function row(
  id: string,
  verdict: "pass" | "fail" | "borderline",
  extra: Partial<ResultRow> = {},
): ResultRow {
  const score = verdict === "pass" ? 0.9 : verdict === "borderline" ? 0.7 : 0.2;
  return {
    run_id: "r1",
    trial: 0,
    timestamp: "2026-11-27T10:00:00.000Z",
    eval_id: id,
    dataset: "qa",
    conversation_id: null,
    target: "default",
    status: "ok",
    score,
    verdict,
    hits: [],
    misses: [],
    reasoning: `overall ${verdict}`,
    candidate_answer: "answer",
    evaluator_results: [judged("quality", verdict, score)],
    trace_summary: null,
    output_messages: [],
    token_usage: null,
    duration_ms: 1,
    attempts: 1,
    error: null,
    ...extra,
  };
}

/** A label of case `id` of run `r1`. */
function label(id: string, value: "pass" | "fail" | null, extra: Partial<Label> = {}): Label {
  return {
    run_id: "r1",
    dataset: "qa",
    eval_id: id,
    target: "default",
    trial: 0,
    evaluator: null,
    label: value,
    score: null,
    reviewer: "ana",
    note: "",
    labelled_at: "2026-11-27T11:00:00.000Z",
    ...extra,
  };
}

Deno.test("calibrateJudge() counts the matrix of the overall verdict; borderline is not a pass", () => {
  const rows = [
    row("a", "pass"),
    row("b", "pass"),
    row("c", "borderline"),
    row("d", "fail"),
    row("e", "fail"),
  ];
  // judge:  a P  b P  c (borderline = not pass)  d F  e F
  // people: a P  b F  c P                       d F  e F
  // tp = 1 (a), fp = 1 (b), fn = 1 (c), tn = 2 (d, e)
  const labels = [
    label("a", "pass"),
    label("b", "fail"),
    label("c", "pass"),
    label("d", "fail"),
    label("e", "fail"),
  ];
  const [unit] = calibrateJudge(rows, labels).units;
  assert.equal(unit.evaluator, null);
  assert.deepEqual(unit.confusion, { tp: 1, fp: 1, fn: 1, tn: 2 });
  // accuracy 3/5; sensitivity 1/2; specificity 2/3
  // pₒ = 0.6; judge passes 2/5, people 2/5: pₑ = 0.4·0.4 + 0.6·0.6 = 0.52; κ = 0.08/0.48 = 1/6
  assert.equal(unit.accuracy.value, 0.6);
  assert.deepEqual([unit.sensitivity.value, unit.sensitivity.n], [0.5, 2]);
  assert.deepEqual([unit.specificity.value, unit.specificity.n], [2 / 3, 3]);
  assert.ok(Math.abs(unit.kappa.value! - 1 / 6) < 1e-12);
  assert.equal(unit.n, 5);
  assert.deepEqual(unit.judge_targets, ["judge"]);
  assert.deepEqual(unit.models, ["judge-1"]);
  assert.deepEqual(unit.disagreements.map((d) => [d.eval_id, d.judge_verdict, d.human_verdict]), [
    ["b", "pass", "fail"],
    ["c", "borderline", "pass"],
  ]);
  assert.equal(unit.disagreements[0].reasoning, "overall pass");
});

Deno.test("matchLabels() keeps each reviewer's latest label and says why a label matches nothing", () => {
  const rows = [
    row("a", "pass"),
    row("err", "fail", { status: "error", error: "target timed out" }),
    row("b", "fail", {
      evaluator_results: [{
        ...judged("quality", "fail", 0),
        status: "error",
        error: "judge down",
      }],
    }),
  ];
  const { items, unmatched, latest } = matchLabels(rows, [
    label("a", "fail"),
    label("a", "pass"), // ana changed her mind: this one counts
    label("a", "pass", { run_id: "r9" }),
    label("zz", "pass"),
    label("err", "pass"),
    label("a", "pass", { evaluator: "qualty" }),
    label("b", "pass", { evaluator: "quality" }),
  ]);
  assert.equal(latest, 6);
  assert.equal(items.length, 1);
  assert.deepEqual(items[0].labels.map((l) => l.label), ["pass"]);
  assert.deepEqual(unmatched.map((u) => u.reason), [
    "no results file given holds run 'r9'",
    "run 'r1' has no row for case 'zz' (dataset 'qa', target 'default', trial 0)",
    "its row is an error row (target timed out): there is no verdict",
    "its row has no evaluator 'qualty'; did you mean 'quality'? (it has 'quality')",
    "evaluator 'quality' did not score on its row (error: judge down)",
  ]);
});

Deno.test("several reviewers: the majority is the reference, ties are left out, α is measured", () => {
  const rows = [row("a", "pass"), row("b", "pass"), row("c", "fail"), row("d", "fail")];
  const by = (reviewer: string, id: string, value: "pass" | "fail") =>
    label(id, value, { reviewer, evaluator: "quality", note: `${reviewer} on ${id}` });
  const labels = [
    by("ana", "a", "pass"),
    by("bo", "a", "pass"),
    by("cy", "a", "pass"),
    by("ana", "b", "pass"),
    by("bo", "b", "fail"),
    by("cy", "b", "pass"),
    by("ana", "c", "fail"),
    by("bo", "c", "fail"),
    by("ana", "d", "fail"),
    by("bo", "d", "pass"),
  ];
  const [unit] = calibrateJudge(rows, labels).units;
  assert.equal(unit.evaluator, "quality");
  assert.equal(unit.type, "llm_judge");
  // d is split 1–1: left out of the matrix. a, b pass by majority; c fails.
  assert.equal(unit.ties, 1);
  assert.equal(unit.n, 3);
  assert.deepEqual(unit.confusion, { tp: 2, fp: 0, fn: 0, tn: 1 });
  assert.deepEqual(unit.reviewers, ["ana", "bo", "cy"]);
  // Among reviewers: the α example worked out in agreement_test.ts (u1 PPP, u2 PFP, u3 FF, u4 FP).
  assert.ok(Math.abs(unit.alpha!.reviewers.value! - 0.25) < 1e-12);
  assert.equal(unit.alpha!.reviewers.n, 4);
  // With the judge as a fourth rater: u1 PPPP, u2 PFPP, u3 FFF, u4 FPF; n = 14, n_P = 8, n_F = 6.
  // Dₒ = (0 + (16 − 10)/3 + 0 + (9 − 5)/2) / 14 = 4/14; Dₑ = (196 − 64 − 36) / 182 = 96/182.
  // α = 1 − (4/14) / (96/182) = 1 − 728/1344 = 11/24
  assert.ok(Math.abs(unit.alpha!.with_judge.value! - 11 / 24) < 1e-12);
  // b (bo disagrees with the judge) and d (split) are listed, with every note.
  assert.deepEqual(unit.disagreements.map((d) => [d.eval_id, d.human_verdict]), [["b", "pass"], [
    "d",
    "split",
  ]]);
  assert.deepEqual(unit.disagreements[1].reviewers.map((r) => r.note), ["ana on d", "bo on d"]);
  assert.equal(unit.disagreements[0].reasoning, "quality thinks pass");
});

Deno.test("labelled scores get Spearman's ρ and the mean absolute difference; a score alone sets the verdict", () => {
  const rows = [row("a", "pass"), row("b", "fail"), row("c", "borderline")];
  // Judge scores 0.9, 0.2, 0.7; people's 1.0, 0.0, 0.4 (score-only labels: ≥ 0.8 passes).
  const labels = [
    label("a", null, { score: 1 }),
    label("b", null, { score: 0 }),
    label("c", null, { score: 0.4 }),
  ];
  const [unit] = calibrateJudge(rows, labels).units;
  assert.deepEqual(unit.confusion, { tp: 1, fp: 0, fn: 0, tn: 2 });
  assert.equal(unit.scores!.n, 3);
  // ranks agree exactly: ρ = 1; |Δ| = 0.1, 0.2, 0.3: mean 0.2
  assert.equal(unit.scores!.spearman.value, 1);
  assert.ok(Math.abs(unit.scores!.mad.value! - 0.2) < 1e-12);
  assert.equal(unit.scores!.alpha, null);
});

Deno.test("intervals are seeded: the same labels give the same intervals, another seed others", () => {
  const rows = Array.from({ length: 30 }, (_, i) => row(`c${i}`, i % 3 === 0 ? "fail" : "pass"));
  const labels = rows.map((r, i) => label(r.eval_id, i % 5 === 0 ? "fail" : "pass"));
  const a = calibrateJudge(rows, labels).units[0];
  const b = calibrateJudge(rows, labels).units[0];
  const c = calibrateJudge(rows, labels, { bootstrap: { seed: 7 } }).units[0];
  assert.deepEqual(a.kappa, b.kappa);
  assert.notDeepEqual(a.kappa.ci, c.kappa.ci);
  for (const figure of [a.accuracy, a.sensitivity, a.specificity, a.kappa]) {
    assert.ok(
      figure.ci !== null && figure.ci.low <= figure.value! && figure.value! <= figure.ci.high,
    );
  }
});

Deno.test("bootstrapIntervals() leaves out a figure undefined on most resamples", () => {
  const units = [1, 0];
  const intervals = bootstrapIntervals(units, {
    defined: (s) => s.length,
    // Defined only when the resample holds no 0: 1/4 of resamples of two units.
    rare: (s) => (s.includes(0) ? null : 1),
  }, DEFAULT_BOOTSTRAP);
  assert.deepEqual(intervals.defined, { low: 2, high: 2 });
  assert.equal(intervals.rare, null);
});

Deno.test("gateFailures(): --fail-below and --min-labels fail per evaluator, with the numbers", () => {
  const rows = [row("a", "pass"), row("b", "pass"), row("c", "fail"), row("d", "fail")];
  const labels = [label("a", "pass"), label("b", "fail"), label("c", "fail"), label("d", "pass")];
  const report = calibrateJudge(rows, labels);
  // κ: pₒ = 0.5, pₑ = 0.5 → 0
  assert.deepEqual(gateFailures(report, { failBelow: 0.4, minLabels: 5 }), [
    "the case verdict: κ 0.00 is below --fail-below 0.4",
    "the case verdict: rests on 4 labelled item(s), fewer than --min-labels 5",
  ]);
  assert.deepEqual(gateFailures(report, { failBelow: -0.1, minLabels: 4 }), []);
  assert.deepEqual(gateFailures(calibrateJudge(rows, []), { minLabels: 1 }), [
    "no labelled verdict was measured",
  ]);
});
