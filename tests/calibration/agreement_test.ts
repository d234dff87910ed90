/**
 * Agreement figures checked against small examples worked out by hand: the confusion matrix,
 * accuracy, sensitivity, specificity, Cohen's κ, Krippendorff's α (nominal and interval, several
 * raters, missing ratings), Spearman's ρ and the mean absolute difference.
 */
import assert from "node:assert/strict";
import {
  accuracy,
  cohensKappa,
  confusionMatrix,
  krippendorffAlpha,
  meanAbsoluteDifference,
  ranks,
  sensitivity,
  spearman,
  specificity,
} from "../../lib/calibration/mod.ts";

const close = (actual: number | null, expected: number, tolerance = 1e-12) =>
  assert.ok(
    actual !== null && Math.abs(actual - expected) < tolerance,
    `${actual} is not ${expected}`,
  );

/** `count` pairs with the given judge and human verdicts. */
function pairs(count: number, judge: boolean, human: boolean) {
  return Array.from({ length: count }, () => ({ judge, human }));
}

Deno.test("confusionMatrix() counts judge against people, pass being the positive class", () => {
  const m = confusionMatrix([
    ...pairs(20, true, true), // tp
    ...pairs(5, true, false), // fp: the judge passes what people fail
    ...pairs(10, false, true), // fn: the judge fails what people pass
    ...pairs(15, false, false), // tn
  ]);
  assert.deepEqual(m, { tp: 20, fp: 5, fn: 10, tn: 15 });
});

Deno.test("accuracy, sensitivity, specificity and κ of a 50-item matrix match the hand arithmetic", () => {
  const m = { tp: 20, fp: 5, fn: 10, tn: 15 };
  // accuracy = (tp + tn) / n = (20 + 15) / 50 = 0.7
  close(accuracy(m), 0.7);
  // sensitivity = tp / (tp + fn) = 20 / 30
  close(sensitivity(m), 2 / 3);
  // specificity = tn / (tn + fp) = 15 / 20
  close(specificity(m), 0.75);
  // pₒ = 0.7; the judge passes (20 + 5) / 50 = 0.5, people (20 + 10) / 50 = 0.6;
  // pₑ = 0.5 · 0.6 + 0.5 · 0.4 = 0.5; κ = (0.7 − 0.5) / (1 − 0.5) = 0.4
  close(cohensKappa(m), 0.4);
});

Deno.test("κ of a second matrix: pₑ from unequal margins", () => {
  // n = 10: tp 6, fp 1, fn 1, tn 2. pₒ = 8/10. Judge passes 7/10, people 7/10.
  // pₑ = 0.7 · 0.7 + 0.3 · 0.3 = 0.58; κ = (0.8 − 0.58) / 0.42 = 0.22 / 0.42 = 11/21
  close(cohensKappa({ tp: 6, fp: 1, fn: 1, tn: 2 }), 11 / 21);
});

Deno.test("figures that the counts leave undefined are null, not NaN", () => {
  const none = { tp: 0, fp: 0, fn: 0, tn: 0 };
  assert.equal(accuracy(none), null);
  assert.equal(cohensKappa(none), null);
  // People passed nothing: no sensitivity. People failed nothing: no specificity.
  assert.equal(sensitivity({ tp: 0, fp: 3, fn: 0, tn: 2 }), null);
  assert.equal(specificity({ tp: 3, fp: 0, fn: 2, tn: 0 }), null);
  // Both sides passed everything: pₑ = 1, agreement beyond chance is undefined.
  assert.equal(cohensKappa({ tp: 9, fp: 0, fn: 0, tn: 0 }), null);
  // Perfect disagreement on a balanced set: pₒ = 0, pₑ = 0.5, κ = −1.
  close(cohensKappa({ tp: 0, fp: 5, fn: 5, tn: 0 }), -1);
});

Deno.test("Krippendorff's α, nominal, three raters with missing ratings, matches the coincidence matrix", () => {
  // Units (raters 1, 2, 3; null = not rated):
  //   u1 P P P    u2 P F P    u3 F F –    u4 F P –
  // Coincidences o(c,k) = Σᵤ (ordered pairs c,k in u) / (mᵤ − 1):
  //   u1: 6 PP / 2 → PP 3.    u2: PP 2, PF 2, FP 2, each / 2 → PP 1, PF 1, FP 1.
  //   u3: FF 2 / 1 → FF 2.    u4: PF 1, FP 1 / 1 → PF 1, FP 1.
  //   o(P,P) = 4, o(P,F) = o(F,P) = 2, o(F,F) = 2; n = 10, n_P = 6, n_F = 4.
  // Dₒ = (o(P,F) + o(F,P)) / n = 4/10; Dₑ = (n_P·n_F + n_F·n_P) / (n(n − 1)) = 48/90.
  // α = 1 − 0.4 / (48/90) = 1 − 0.75 = 0.25
  const units = [
    ["pass", "pass", "pass"],
    ["pass", "fail", "pass"],
    ["fail", "fail", null],
    ["fail", "pass", null],
  ];
  close(krippendorffAlpha(units, "nominal"), 0.25);
  // A unit with one rating cannot be paired: adding it changes nothing.
  close(krippendorffAlpha([...units, ["pass", null, null]], "nominal"), 0.25);
});

Deno.test("Krippendorff's α, interval, on scores matches the pairwise squared differences", () => {
  // u1 = {0.2, 0.4}, u2 = {0.8, 1.0, 0.9}; n = 5.
  // Within units, Σ over ordered pairs of (a − b)² / (mᵤ − 1):
  //   u1: 2 · 0.04 / 1 = 0.08;  u2: 2 · (0.04 + 0.01 + 0.01) / 2 = 0.06.  Dₒ = 0.14 / 5 = 0.028.
  // All 5 values, unordered pairs: .04 .36 .64 .49 .16 .36 .25 .04 .01 .01 = 2.36;
  //   ordered 4.72; Dₑ = 4.72 / (5 · 4) = 0.236.
  // α = 1 − 0.028 / 0.236 = 52/59
  close(krippendorffAlpha([[0.2, 0.4], [0.8, 1.0, 0.9]], "interval"), 52 / 59, 1e-12);
});

Deno.test("Krippendorff's α is 1 for perfect agreement and null when nothing varies or pairs", () => {
  close(krippendorffAlpha([["pass", "pass"], ["fail", "fail"]], "nominal"), 1);
  assert.equal(krippendorffAlpha([["pass", "pass"], ["pass", "pass"]], "nominal"), null);
  assert.equal(krippendorffAlpha([["pass", null], [null, "fail"]], "nominal"), null);
});

Deno.test("Spearman's ρ and the mean absolute difference of four scored answers", () => {
  const scored = [
    { judge: 0.9, human: 1.0 },
    { judge: 0.5, human: 0.4 },
    { judge: 0.7, human: 0.4 },
    { judge: 0.2, human: 0.0 },
  ];
  // Judge ranks [4, 2, 3, 1]; people's [4, 2.5, 2.5, 1] (the tied 0.4s share ranks 2 and 3).
  assert.deepEqual(ranks(scored.map((s) => s.human)), [4, 2.5, 2.5, 1]);
  // Deviations from the mean rank 2.5: dx = [1.5, −0.5, 0.5, −1.5], dy = [1.5, 0, 0, −1.5].
  // Σ dx·dy = 4.5, Σ dx² = 5, Σ dy² = 4.5; ρ = 4.5 / √(5 · 4.5) = √0.9
  close(spearman(scored), Math.sqrt(0.9));
  // |Δ| = 0.1, 0.1, 0.3, 0.2; mean = 0.7 / 4 = 0.175
  close(meanAbsoluteDifference(scored), 0.175);
  assert.equal(spearman(scored.slice(0, 1)), null);
  assert.equal(spearman([{ judge: 1, human: 0 }, { judge: 1, human: 1 }]), null);
});
