/**
 * The drift gate's statistics: the one-sided Wilcoxon p, the paired Δ against the window mean per
 * case, the minimum number of cases, and the intervals a trend draws.
 */
import assert from "node:assert/strict";
import { caseScores, detectDrift } from "../../lib/compare/drift.ts";
import { meanInterval, wilsonInterval } from "../../lib/compare/intervals.ts";
import { wilcoxonSignedRank } from "../../lib/compare/statistics.ts";

const run = (scores: number[]) => new Map(scores.map((s, i) => [`case-${i}`, s]));

Deno.test("wilcoxonSignedRank() one-sided p counts only the tail asked for", () => {
  // Ranks 1..5, only rank 2 positive: W+ = 2. Subsets of {1..5} with sum ≤ 2: {}, {1}, {2} → 3/32.
  const deltas = [-0.1, 0.2, -0.3, -0.4, -0.5];
  assert.equal(wilcoxonSignedRank(deltas, { alternative: "less" }).p_value, 3 / 32);
  // Sum ≥ 2: all 32 subsets but {} and {1} → 30/32.
  assert.equal(wilcoxonSignedRank(deltas, { alternative: "greater" }).p_value, 30 / 32);
  assert.equal(wilcoxonSignedRank(deltas).p_value, 6 / 32);
});

Deno.test("wilcoxonSignedRank() one-sided normal approximation leans the right way", () => {
  const down = Array.from({ length: 80 }, (_, i) => (i % 8 === 0 ? 0.05 : -0.1 - i / 1000));
  const less = wilcoxonSignedRank(down, { alternative: "less" });
  const greater = wilcoxonSignedRank(down, { alternative: "greater" });
  assert.equal(less.method, "normal");
  assert.ok(less.p_value < 1e-6, String(less.p_value));
  assert.ok(greater.p_value > 0.999, String(greater.p_value));
});

Deno.test("caseScores() averages a case's trials, an error row counting its 0", () => {
  const scores = caseScores([
    { dataset: "d", eval_id: "a", score: 1 },
    { dataset: "d", eval_id: "a", score: 0 },
    { dataset: "d", eval_id: "a", score: 0.5 },
    { dataset: "e", eval_id: "a", score: 0.9 },
  ]);
  assert.deepEqual([...scores.values()], [0.5, 0.9]);
});

Deno.test("detectDrift() finds a flat series not degrading", () => {
  const flat = run([0.9, 0.7, 1, 0.8, 0.6, 0.9, 0.75]);
  const result = detectDrift(flat, [flat, flat, flat]);
  assert.equal(result.verdict, "no significant decline");
  assert.equal(result.mean_delta, 0);
  assert.equal(result.wilcoxon.p_value, 1);
  assert.equal(result.degrading, false);
});

Deno.test("detectDrift() pairs each case with its mean over the window and finds a decline", () => {
  const window = [run([1, 0.8, 0.9, 0.7, 1, 0.9]), run([0.8, 0.8, 0.9, 0.9, 1, 0.7])];
  // Window means: 0.9, 0.8, 0.9, 0.8, 1, 0.8 (mean 5.2 / 6). Every case 0.3 lower → 6 negative Δ, exact p = 1/64.
  const latest = run([0.6, 0.5, 0.6, 0.5, 0.7, 0.5]);
  const result = detectDrift(latest, window);
  assert.equal(result.paired, 6);
  assert.ok(Math.abs(result.window_mean! - 5.2 / 6) < 1e-12);
  assert.ok(Math.abs(result.mean_delta! + 0.3) < 1e-12);
  assert.equal(result.wilcoxon.p_value, 1 / 64);
  assert.ok(result.interval!.high < 0);
  assert.equal(result.verdict, "degrading");
  assert.match(result.line, /^degrading: latest vs the 2 runs before it: mean Δ -0\.300 over 6/);
});

Deno.test("detectDrift() does not decide on fewer cases than the minimum, nor without a window", () => {
  const latest = run([0.1, 0.1, 0.1, 0.1]);
  assert.equal(detectDrift(latest, [run([1, 1, 1, 1])]).verdict, "too few cases");
  assert.equal(detectDrift(latest, []).verdict, "no window");
  // New cases are counted, not tested.
  const result = detectDrift(run([0.1, 0.1, 0.1, 0.1, 0.1, 0.1]), [run([1, 1])]);
  assert.deepEqual([result.paired, result.new_cases, result.verdict], [2, 4, "too few cases"]);
});

Deno.test("detectDrift() needs the mean Δ, the test and the bound to agree", () => {
  // One large drop among small gains: the mean Δ is negative but the signed ranks are not.
  const window = [run([0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5])];
  const latest = run([0.55, 0.55, 0.55, 0.55, 0.55, 0.55, 0.55, 0]);
  const result = detectDrift(latest, window);
  assert.ok(result.mean_delta! < 0);
  assert.equal(result.verdict, "no significant decline");
});

Deno.test("wilsonInterval() and meanInterval() stay inside [0, 1]", () => {
  const all = wilsonInterval(10, 10)!;
  assert.ok(all.high > 1 - 1e-12 && all.high <= 1);
  assert.ok(all.low > 0.69 && all.low < 0.73, String(all.low)); // 0.7225
  assert.equal(wilsonInterval(3, 0), null);
  assert.deepEqual(meanInterval(0.99, 0.2, 4), { low: 0.99 - 1.959963984540054 * 0.1, high: 1 });
  assert.equal(meanInterval(0.5, null, 1), null);
});
