/**
 * The N-way comparison on a small example computed by hand: the leaderboard (mean score with its
 * bootstrap interval, pass rate with its Wilson interval, pass@k / pass^k, cost, tokens, latency
 * p50 / p95), every pair's exact Wilcoxon and sign tests with Holm's correction for three pairs,
 * the Pareto fronts and the gates.
 */
import assert from "node:assert/strict";
import { armsOf } from "../../lib/compare/arms.ts";
import {
  compareArms,
  failOnReasons,
  pairOf,
  requireBestReasons,
} from "../../lib/compare/matrix.ts";
import { row, type RowSpec } from "./_rows.ts";

const near = (actual: number | null | undefined, expected: number, what: string, eps = 1e-4) =>
  assert.ok(
    actual !== null && actual !== undefined && Math.abs(actual - expected) < eps,
    `${what}: ${actual} is not ${expected}`,
  );

// Seven cases, three targets (one trial each):
//
//   case   A     B     C      B−A    C−A    C−B
//   c1    0.4   0.9   0.5    +0.5   +0.1   −0.4
//   c2    0.5   0.9   0.6    +0.4   +0.1   −0.3
//   c3    0.6   0.9   0.5    +0.3   −0.1   −0.4
//   c4    0.5   0.9   0.7    +0.4   +0.2   −0.2
//   c5    0.4   0.9   0.3    +0.5   −0.1   −0.6
//   c6    0.6   0.9   0.8    +0.3   +0.2   −0.1
//   c7    0.5   0.9   0.5    +0.4    0     −0.4
const SCORES: Record<string, number[]> = {
  A: [0.4, 0.5, 0.6, 0.5, 0.4, 0.6, 0.5],
  B: [0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9],
  C: [0.5, 0.6, 0.5, 0.7, 0.3, 0.8, 0.5],
};
// Cost per row and duration (ms): A 0.03 and 100–160, B 0.05 and 100–700, C 0.02 and 50 each.
const COST: Record<string, number> = { A: 0.03, B: 0.05, C: 0.02 };
const MS: Record<string, (i: number) => number> = {
  A: (i) => 100 + 10 * i,
  B: (i) => 100 * (i + 1),
  C: () => 50,
};

function rows(): ReturnType<typeof row>[] {
  const specs: RowSpec[] = [];
  for (let i = 0; i < 7; i++) {
    for (const target of ["A", "B", "C"]) {
      specs.push({
        id: `c${i + 1}`,
        target,
        score: SCORES[target][i],
        cost: COST[target],
        ms: MS[target](i),
        tokens: { input: 10, output: 5 },
      });
    }
  }
  return specs.map(row);
}

Deno.test("the leaderboard of three targets equals the figures computed by hand", () => {
  const m = compareArms(armsOf([{ source: "run.jsonl", rows: rows() }]));
  // Means: A = 3.5/7 = 0.5; B = 0.9; C = (0.5+0.6+0.5+0.7+0.3+0.8+0.5)/7 = 3.9/7 = 0.557143.
  assert.deepEqual(m.leaderboard.map((s) => s.label), ["B", "C", "A"]);
  const [b, c, a] = m.leaderboard;
  near(a.mean, 0.5, "A mean");
  near(b.mean, 0.9, "B mean");
  near(c.mean, 3.9 / 7, "C mean");
  // Every bootstrap mean of B resamples seven 0.9s: the interval is [0.9, 0.9]. A resample's mean
  // lies between the smallest and largest case score: A's interval is inside [0.4, 0.6].
  near(b.mean_ci?.low, 0.9, "B CI low", 1e-9);
  near(b.mean_ci?.high, 0.9, "B CI high", 1e-9);
  assert.ok(a.mean_ci && a.mean_ci.low >= 0.4 && a.mean_ci.low < 0.5 && a.mean_ci.high > 0.5);
  assert.ok(a.mean_ci.high <= 0.6);
  assert.deepEqual([a.mean_ci.confidence, a.mean_ci.resamples], [0.95, 10_000]);
  // Pass rates (verdict pass: score ≥ 0.8): A 0/7, B 7/7, C 1/7 (c6 = 0.8).
  assert.deepEqual([a.passed, b.passed, c.passed], [0, 7, 1]);
  // Wilson, z = 1.959964, z² = 3.841459:
  //   k = n = 7: low = n / (n + z²) = 7 / 10.841459 = 0.645670, high = 1;
  //   k = 0:     low = 0, high = z² / (n + z²) = 3.841459 / 10.841459 = 0.354330;
  //   k = 1:     p̂ = 1/7, 1 + z²/7 = 1.548780; centre = (1/7 + z²/14) / 1.548780 = 0.417247 /
  //              1.548780 = 0.269402; half = (z / 1.548780) · √(p̂(1−p̂)/7 + z²/196) = 1.265490 ·
  //              √(0.017493 + 0.019599) = 1.265490 · 0.192593 = 0.243723 → [0.025679, 0.513125].
  near(b.pass_rate_ci?.low, 0.645670, "B Wilson low");
  near(b.pass_rate_ci?.high, 1, "B Wilson high");
  near(a.pass_rate_ci?.low, 0, "A Wilson low");
  near(a.pass_rate_ci?.high, 0.354330, "A Wilson high");
  near(c.pass_rate_ci?.low, 0.025679, "C Wilson low");
  near(c.pass_rate_ci?.high, 0.513125, "C Wilson high");
  // One trial each: no pass@k. Cost 7 × 0.05 = 0.35 for B, 0.05 per case; tokens 7 × 15 = 105.
  assert.equal(b.k, null);
  near(b.cost_usd, 0.35, "B cost");
  near(b.cost_per_case, 0.05, "B cost per case");
  assert.deepEqual(b.tokens, { input: 70, output: 35 });
  near(b.tokens_per_case, 15, "B tokens per case");
  // Latency of B: 100, 200, ..., 700 ms. p50: h = 6 · 0.5 = 3 → 400. p95: h = 6 · 0.95 = 5.7 →
  // 600 + 0.7 · (700 − 600) = 670.
  near(b.latency_p50_ms, 400, "B p50");
  near(b.latency_p95_ms, 670, "B p95");
  // Fronts: score vs cost per case — B (0.9, 0.05), C (0.557, 0.02); A (0.5, 0.03) is beaten by C
  // on both. Score vs p50 — B (0.9, 400), C (0.557, 50); A (0.5, 130) is beaten by C.
  assert.deepEqual(m.pareto, { cost: ["B", "C"], latency: ["B", "C"] });
});

Deno.test("the pairwise table: exact Wilcoxon and sign tests, Holm-corrected for three pairs", () => {
  const m = compareArms(armsOf([{ source: "run.jsonl", rows: rows() }]));
  assert.deepEqual(m.pairs.map((p) => [p.baseline, p.candidate]), [
    ["A", "B"],
    ["A", "C"],
    ["B", "C"],
  ]);
  const ab = pairOf(m, "A", "B")!;
  const ac = pairOf(m, "A", "C")!;
  const bc = pairOf(m, "B", "C")!;
  // B−A: seven positive Δ. Wilcoxon: W− = 0; only the empty set of ranks sums to ≤ 0, so
  // P(W− ≤ 0) = 1/2⁷ and p = 2/128 = 0.015625. Sign test: 7 up, 0 down, p = 2 · 1/128 = 0.015625.
  assert.equal(ab.summary.wilcoxon.p_value, 0.015625);
  assert.equal(ab.summary.sign_test.p_value, 0.015625);
  near(ab.summary.mean_delta, 2.8 / 7, "mean B−A"); // (0.5+0.4+0.3+0.4+0.5+0.3+0.4)/7 = 0.4
  // C−A: c7's Δ = 0 is dropped, n = 6. |Δ| = 0.1 four times (ranks 1–4, average 2.5), 0.2 twice
  // (ranks 5–6, average 5.5). W+ = 2.5 + 2.5 + 5.5 + 5.5 = 16, W− = 2.5 + 2.5 = 5. Doubled ranks
  // {5, 5, 5, 5, 11, 11}: the subsets summing to ≤ 10 (= 2 · W−) are {}, four {5} and six {5, 5}:
  // 11 of 64, so p = 2 · 11/64 = 0.34375. Sign test: 4 up, 2 down: p = 2 · (1 + 6 + 15)/64 = 0.6875.
  assert.deepEqual([ac.summary.wilcoxon.w_plus, ac.summary.wilcoxon.w_minus], [16, 5]);
  assert.equal(ac.summary.wilcoxon.p_value, 0.34375);
  assert.equal(ac.summary.sign_test.p_value, 0.6875);
  // C−B: seven negative Δ: p = 0.015625 for both tests.
  assert.equal(bc.summary.wilcoxon.p_value, 0.015625);
  // Holm, m = 3, p sorted 0.015625 (A–B), 0.015625 (B–C), 0.34375 (A–C):
  //   3 · 0.015625 = 0.046875; max(0.046875, 2 · 0.015625 = 0.03125) = 0.046875;
  //   max(0.046875, 1 · 0.34375) = 0.34375.
  assert.deepEqual([ab.p_holm, bc.p_holm, ac.p_holm], [0.046875, 0.046875, 0.34375]);
  // 0.046875 < 0.05 and the intervals exclude 0 (every Δ of B−A lies in [0.3, 0.5], of C−B in
  // [−0.6, −0.1]): B beats A and C; A–C is no significant difference.
  assert.ok(ab.summary.interval!.low >= 0.3 && ab.summary.interval!.high <= 0.5);
  assert.deepEqual(
    [ab.better, bc.better, ac.better, ac.significant],
    ["B", "B", null, false],
  );
});

Deno.test("the gates: --fail-on regression against the baseline, --require-best NAME", () => {
  const m = compareArms(armsOf([{ source: "run.jsonl", rows: rows() }]), { baseline: 1 });
  assert.equal(m.baseline, "B");
  assert.deepEqual(m.arms.map((a) => a.label), ["B", "A", "C"]);
  // With B as the baseline the pairs are oriented from it: Δ of A and C are negative.
  assert.ok(pairOf(m, "B", "A")!.summary.mean_delta! < 0);
  assert.deepEqual(failOnReasons(m, "regression"), [
    "A is significantly worse than the baseline B (Holm-corrected p = 0.04688)",
    "C is significantly worse than the baseline B (Holm-corrected p = 0.04688)",
  ]);
  assert.deepEqual(requireBestReasons(m, "B"), []);
  assert.deepEqual(requireBestReasons(m, "C"), [
    "C is significantly beaten by B (Holm-corrected p = 0.04688)",
  ]);
  // A as the baseline: nothing is significantly worse than it.
  assert.deepEqual(failOnReasons(compareArms(m.arms, { baseline: 1 }), "regression"), []);
});

Deno.test("pass@k and pass^k with trials: k is the fewest trials of a case", () => {
  // Case x: 3 trials, 2 pass; case y: 3 trials, all pass. k = 3.
  //   pass@3: x: n − c = 1 < 3 → 1; y: 1 → mean 1.
  //   pass^3: x: C(2,3)/C(3,3) = 0; y: C(3,3)/C(3,3) = 1 → mean 0.5.
  const specs: RowSpec[] = [
    { id: "x", score: 1, trial: 0 },
    { id: "x", score: 0.9, trial: 1 },
    { id: "x", score: 0.2, trial: 2 },
    { id: "y", score: 1, trial: 0 },
    { id: "y", score: 1, trial: 1 },
    { id: "y", score: 0.8, trial: 2 },
  ];
  const [stats] = compareArms(armsOf([{ source: "r.jsonl", rows: specs.map(row) }])).leaderboard;
  assert.deepEqual([stats.cases, stats.rows, stats.k], [2, 6, 3]);
  assert.equal(stats.pass_at_k, 1);
  assert.equal(stats.pass_hat_k, 0.5);
  assert.equal(stats.cost_usd, null);
});
