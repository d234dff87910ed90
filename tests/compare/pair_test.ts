/** Pairing two runs by dataset + id, and the summary of a comparison. */
import assert from "node:assert/strict";
import { pairRuns } from "../../lib/compare/pair.ts";
import { summarizeComparison } from "../../lib/compare/summary.ts";
import { row } from "./_rows.ts";

const close = (actual: number | null, expected: number) =>
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-12, `${actual} vs ${expected}`);

Deno.test("pairRuns: every trial counts; the case score is the mean over its trials", () => {
  const pairing = pairRuns(
    [
      row({ id: "a", score: 0.6, trial: 0, evaluators: { judge: 0.5, exact: 1 } }),
      row({ id: "a", score: 0.8, trial: 1, evaluators: { judge: 0.7, exact: null } }),
    ],
    [
      row({ id: "a", score: 1, trial: 0, evaluators: { judge: 1 } }),
      row({ id: "a", score: 0.7, trial: 1, evaluators: { judge: 0.9 } }),
      row({ id: "a", score: 0, status: "error", trial: 2 }),
    ],
  );
  assert.equal(pairing.pairs.length, 1);
  const [p] = pairing.pairs;
  assert.deepEqual([p.baseline.length, p.candidate.length], [2, 3]);
  close(p.baseline_score, (0.6 + 0.8) / 2);
  close(p.candidate_score, (1 + 0.7 + 0) / 3); // the error trial counts with its score 0
  close(p.delta, (1 + 0.7 + 0) / 3 - 0.7);
  assert.deepEqual([p.baseline_errors, p.candidate_errors], [0, 1]);
  // judge: baseline mean 0.6, candidate mean 0.95; exact scored once in the baseline only (the
  // errored trial does not count) and never in the candidate.
  const judge = p.evaluators.find((e) => e.name === "judge");
  close(judge?.baseline_score ?? null, 0.6);
  close(judge?.candidate_score ?? null, 0.95);
  close(judge?.delta ?? null, 0.35);
  assert.deepEqual(p.evaluators.find((e) => e.name === "exact"), {
    name: "exact",
    baseline_score: 1,
    candidate_score: null,
    delta: null,
  });
});

Deno.test("pairRuns: the same id in two datasets is two cases; one-side cases are listed apart", () => {
  const pairing = pairRuns(
    [
      row({ id: "x", dataset: "one", score: 1 }),
      row({ id: "x", dataset: "two", score: 1 }),
      row({ id: "gone", score: 0.5 }),
    ],
    [
      row({ id: "new", score: 0.9 }),
      row({ id: "x", dataset: "two", score: 0.2 }),
      row({ id: "x", dataset: "one", score: 0.95 }),
    ],
  );
  // Pairs follow the baseline's order.
  assert.deepEqual(pairing.pairs.map((p) => [p.dataset, p.eval_id, p.outcome]), [
    ["one", "x", "tie"],
    ["two", "x", "loss"],
  ]);
  assert.deepEqual(pairing.only_baseline.map((c) => [c.eval_id, c.score, c.verdict]), [
    ["gone", 0.5, "fail"],
  ]);
  assert.deepEqual(pairing.only_candidate.map((c) => [c.eval_id, c.score, c.verdict]), [
    ["new", 0.9, "pass"],
  ]);
  assert.notEqual(pairing.pairs[0].key, pairing.pairs[1].key);
});

Deno.test("pairRuns: |Δ| at or below the delta is a tie, even through floating-point noise", () => {
  const base = [
    row({ id: "up-0.1", score: 0.72 }), // 0.82 − 0.72 = 0.09999999999999998
    row({ id: "down-0.1", score: 0.4 }), // 0.3 − 0.4 = −0.10000000000000003
    row({ id: "up-0.11", score: 0.5 }),
    row({ id: "down-0.2", score: 0.9 }),
  ];
  const cand = [
    row({ id: "up-0.1", score: 0.82 }),
    row({ id: "down-0.1", score: 0.3 }),
    row({ id: "up-0.11", score: 0.61 }),
    row({ id: "down-0.2", score: 0.7 }),
  ];
  assert.deepEqual(pairRuns(base, cand).pairs.map((p) => p.outcome), [
    "tie",
    "tie",
    "win",
    "loss",
  ]);
  assert.deepEqual(pairRuns(base, cand, { delta: 0.05 }).pairs.map((p) => p.outcome), [
    "win",
    "loss",
    "win",
    "loss",
  ]);
  assert.deepEqual(pairRuns(base, cand, { delta: 0 }).pairs.map((p) => p.outcome), [
    "win",
    "loss",
    "win",
    "loss",
  ]);
  assert.throws(() => pairRuns(base, cand, { delta: -1 }), RangeError);
});

Deno.test("pairRuns: verdict flips use the rows' verdicts, the majority over trials", () => {
  const pairing = pairRuns(
    [
      row({ id: "a", score: 0.9 }),
      // A forced fail (a required rubric) at a high score stays a fail.
      row({ id: "b", score: 0.9, verdict: "fail" }),
      row({ id: "c", score: 0.9 }),
      row({ id: "c", score: 0.9 }),
      row({ id: "c", score: 0.2 }),
    ],
    [
      row({ id: "a", score: 0.3 }),
      row({ id: "b", score: 0.9 }),
      row({ id: "c", score: 0.2 }),
      row({ id: "c", score: 0.9 }),
    ],
  );
  assert.deepEqual(pairing.pairs.map((p) => [p.eval_id, p.baseline_verdict, p.flip]), [
    ["a", "pass", "pass→fail"],
    ["b", "fail", "fail→pass"],
    // Baseline pass, pass, fail → pass; candidate fail, pass → a tie, the worse one: fail.
    ["c", "pass", "pass→fail"],
  ]);
});

Deno.test("summarizeComparison: counts, flips with pass→fail first, Δ statistics per evaluator", () => {
  const pairing = pairRuns(
    [
      row({ id: "1", score: 0.5, evaluators: { judge: 0.5 } }),
      row({ id: "2", score: 0.7, evaluators: { judge: 0.7, exact: 1 } }),
      row({ id: "3", score: 0.9, evaluators: { judge: 0.9, exact: 1 } }),
      row({ id: "4", score: 0.65, evaluators: { judge: 0.65 } }),
      row({ id: "5", score: 0.2 }),
      row({ id: "only-old", score: 1 }),
    ],
    [
      row({ id: "1", score: 0.9, evaluators: { judge: 0.9 } }), // +0.4 win, fail→pass
      row({ id: "2", score: 0.75, evaluators: { judge: 0.75, exact: 0 } }), // +0.05 tie
      row({ id: "3", score: 0.4, evaluators: { judge: 0.4, exact: 0 } }), // −0.5 loss, pass→fail
      row({ id: "4", score: 0.5, evaluators: { judge: 0.5 } }), // −0.15 loss, borderline→fail
      row({ id: "5", score: 0.2 }), // 0 tie
      row({ id: "only-new", score: 1 }),
      row({ id: "only-new-2", score: 1 }),
    ],
  );
  const s = summarizeComparison(pairing);
  assert.deepEqual([s.pairs, s.wins, s.losses, s.ties], [5, 1, 2, 2]);
  assert.deepEqual([s.only_baseline, s.only_candidate], [1, 2]);
  assert.deepEqual([s.baseline_rows, s.candidate_rows], [6, 7]);
  assert.deepEqual(s.flips.map((f) => [f.eval_id, f.flip]), [
    ["3", "pass→fail"],
    ["4", "borderline→fail"],
    ["1", "fail→pass"],
  ]);
  assert.equal(s.pass_to_fail, 1);
  // Δ = +0.4, +0.05, −0.5, −0.15, 0: mean −0.2/5 = −0.04, median 0.
  close(s.mean_delta, -0.04);
  close(s.median_delta, 0);
  close(s.baseline_mean, (0.5 + 0.7 + 0.9 + 0.65 + 0.2) / 5);
  // judge on all 4 of its cases: (0.4 + 0.05 − 0.5 − 0.15)/4 = −0.05; exact on 2: (−1 − 1)/2.
  assert.deepEqual(s.evaluators.map((e) => [e.name, e.pairs]), [["judge", 4], ["exact", 2]]);
  close(s.evaluators[0].mean_delta, -0.05);
  close(s.evaluators[1].mean_delta, -1);
  // Sign test: 2 up, 2 down (the zero Δ dropped) → p = 1.
  assert.deepEqual([s.sign_test.positive, s.sign_test.negative, s.sign_test.zero], [2, 2, 1]);
  assert.equal(s.sign_test.p_value, 1);
  assert.equal(s.verdict, "no significant change");
  assert.equal(s.significant, false);
  assert.match(s.verdict_line, /^no significant change: mean Δ -0\.040, 95% CI .* spans 0/);
});

Deno.test("summarizeComparison: a consistent drop over many cases is a significant regression", () => {
  const ids = Array.from({ length: 20 }, (_, i) => `c${i}`);
  const pairing = pairRuns(
    ids.map((id, i) => row({ id, score: 0.5 + (i % 5) / 20 })),
    ids.map((id, i) => row({ id, score: 0.3 + (i % 5) / 20 - (i % 3) / 100 })),
  );
  const s = summarizeComparison(pairing);
  // 20 down, 0 up: sign test p = 2/2^20; every resample mean is negative.
  assert.equal(s.sign_test.p_value, 2 / 2 ** 20);
  assert.ok(s.interval !== null && s.interval.high < 0);
  assert.ok(s.wilcoxon.p_value < 0.05);
  assert.equal(s.verdict, "regressed");
  assert.match(
    s.verdict_line,
    /^regressed: mean Δ -0\.2\d\d, 95% CI -0\.\d+ to -0\.\d+ excludes 0/,
  );
});

Deno.test("summarizeComparison: no shared case gives 'no paired cases'", () => {
  const s = summarizeComparison(
    pairRuns([row({ id: "a", score: 1 })], [row({ id: "b", score: 1 })]),
  );
  assert.deepEqual([s.pairs, s.mean_delta, s.interval, s.verdict], [
    0,
    null,
    null,
    "no paired cases",
  ]);
});
