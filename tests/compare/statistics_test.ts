/** Paired statistics of `agentv compare`, checked against small examples worked out by hand. */
import assert from "node:assert/strict";
import {
  binomialTwoSidedP,
  bootstrapMeanInterval,
  createRng,
  mean,
  median,
  signTest,
  wilcoxonSignedRank,
} from "../../lib/compare/statistics.ts";

Deno.test("signTest: 7 up and 1 down gives the exact two-sided binomial p", () => {
  // Under no change, #up ~ Binomial(8, 1/2). P(X <= 1) = (C(8,0) + C(8,1)) / 2^8 = 9/256,
  // two-sided p = 2 * 9/256 = 18/256 = 0.0703125. The zero Δ is dropped, not counted.
  const result = signTest([0.2, 0.1, 0.3, 0.05, 0.4, 0.2, 0.1, -0.3, 0]);
  assert.deepEqual(result, { positive: 7, negative: 1, zero: 1, p_value: 0.0703125 });
});

Deno.test("signTest: no change, or a balanced change, gives p = 1", () => {
  assert.equal(signTest([]).p_value, 1);
  assert.equal(signTest([0, 0, 0]).p_value, 1);
  // 2 up, 2 down: P(X <= 2) = (1 + 4 + 6) / 16 = 11/16; 2 * 11/16 > 1, capped at 1.
  assert.equal(signTest([0.1, -0.1, 0.2, -0.2]).p_value, 1);
  // 5 up, 0 down: 2 * C(5,0) / 2^5 = 2/32.
  assert.equal(signTest([0.1, 0.1, 0.1, 0.1, 0.1]).p_value, 2 / 32);
});

Deno.test("binomialTwoSidedP: is symmetric in k and n − k", () => {
  for (const [k, n] of [[3, 10], [0, 7], [12, 30]]) {
    assert.equal(binomialTwoSidedP(k, n), binomialTwoSidedP(n - k, n));
  }
});

Deno.test("binomialTwoSidedP: the log-space sum for n > 1000 matches exact integer arithmetic", () => {
  // Independent exact value: 2 * sum_{i <= k} C(n, i) / 2^n with BigInt, scaled to 1e-15.
  const n = 1200, k = 560;
  let term = 1n, sum = 1n;
  for (let i = 0; i < k; i++) {
    term = term * BigInt(n - i) / BigInt(i + 1);
    sum += term;
  }
  const scale = 10n ** 15n;
  const exact = Number((2n * sum * scale) / 2n ** BigInt(n)) / 1e15;
  const p = binomialTwoSidedP(k, n);
  assert.ok(Math.abs(p - exact) / exact < 1e-9, `${p} vs ${exact}`);
});

Deno.test("wilcoxonSignedRank: exact p on ranks 1..5 with one negative", () => {
  // |Δ| ranks 1..5; only rank 2 is negative, so W− = 2, W+ = 13. Subsets of {1..5} with sum
  // <= 2: {}, {1}, {2} → P(W− <= 2) = 3/32; two-sided p = 6/32 = 0.1875.
  const r = wilcoxonSignedRank([0.1, -0.2, 0.3, 0.4, 0.5]);
  assert.deepEqual(r, { n: 5, w_plus: 13, w_minus: 2, p_value: 0.1875, method: "exact" });
});

Deno.test("wilcoxonSignedRank: tied |Δ| share their average rank in the exact test", () => {
  // Δ = 1, 1, −1, 2: the three |Δ| = 1 take ranks 1..3 → 2 each; |Δ| = 2 has rank 4.
  // W− = 2, W+ = 8. Sign assignments of ranks {2, 2, 2, 4} (16 in all) with W− <= 2:
  // {} and each single 2 → 4/16; two-sided p = 8/16 = 0.5. The zero Δ is dropped.
  const r = wilcoxonSignedRank([1, 1, -1, 2, 0]);
  assert.deepEqual(r, { n: 4, w_plus: 8, w_minus: 2, p_value: 0.5, method: "exact" });
});

Deno.test("wilcoxonSignedRank: exact p equals a brute-force count over every sign assignment", () => {
  const rng = createRng(3);
  for (let trial = 0; trial < 20; trial++) {
    const n = 3 + Math.floor(rng() * 8);
    // Values on a coarse grid, so ties happen.
    const deltas = Array.from({ length: n }, () => (Math.floor(rng() * 9) - 4) / 10);
    const r = wilcoxonSignedRank(deltas);
    const nonZero = deltas.filter((d) => d !== 0).map(Math.abs);
    // Average ranks computed the slow way: 1 + (#smaller) + (#equal − 1) / 2.
    const ranks = nonZero.map((a) =>
      1 + nonZero.filter((b) => b < a - 1e-12).length +
      (nonZero.filter((b) => Math.abs(b - a) < 1e-12).length - 1) / 2
    );
    const w = deltas.filter((d) => d !== 0).reduce((s, d, i) => s + (d > 0 ? ranks[i] : 0), 0);
    let low = 0, high = 0;
    const all = 2 ** ranks.length;
    for (let mask = 0; mask < all; mask++) {
      let s = 0;
      for (let i = 0; i < ranks.length; i++) if (mask & (1 << i)) s += ranks[i];
      if (s <= w + 1e-9) low++;
      if (s >= w - 1e-9) high++;
    }
    const expected = ranks.length === 0 ? 1 : Math.min(1, (2 * Math.min(low, high)) / all);
    assert.equal(r.w_plus, w);
    assert.ok(Math.abs(r.p_value - expected) < 1e-12, `${deltas}: ${r.p_value} vs ${expected}`);
  }
});

Deno.test("wilcoxonSignedRank: normal approximation above 50 pairs", () => {
  // Δ = ±1..±60 with ranks 1..36 negative: W− = 666; μ = 60·61/4 = 915,
  // σ² = 60·61·121/24 = 18452.5; z = (915 − 666 − 0.5)/√18452.5 = 1.82936;
  // p = 2·(1 − Φ(1.82936)) = 0.067346 (Φ by tables: Φ(1.82) = 0.96562, Φ(1.83) = 0.96638).
  const deltas = Array.from({ length: 60 }, (_, i) => (i < 36 ? -(i + 1) : i + 1));
  const r = wilcoxonSignedRank(deltas);
  assert.equal(r.method, "normal");
  assert.equal(r.w_minus, 666);
  assert.ok(Math.abs(r.p_value - 0.067346) < 2e-4, String(r.p_value));
});

Deno.test("wilcoxonSignedRank: the normal approximation corrects the variance for ties", () => {
  // 60 Δ of |1| (40 up, 20 down): every rank is 30.5, W− = 610, μ = 915.
  // σ² = 18452.5 − (60³ − 60)/48 = 13953.75; z = 304.5/118.126 = 2.5778 → p = 0.00994.
  // Without the tie correction z = 304.5/135.84 = 2.2416 → p = 0.0250, which must not come out.
  const deltas = Array.from({ length: 60 }, (_, i) => (i < 20 ? -1 : 1));
  const r = wilcoxonSignedRank(deltas);
  assert.equal(r.w_minus, 610);
  assert.ok(Math.abs(r.p_value - 0.00994) < 2e-4, String(r.p_value));
});

Deno.test("bootstrapMeanInterval: contains the mean Δ and is reproducible with the same seed", () => {
  const deltas = [0.3, -0.1, 0.2, 0.05, 0.4, -0.2, 0.1, 0.15, 0, 0.25];
  const a = bootstrapMeanInterval(deltas, { seed: 11 });
  const b = bootstrapMeanInterval(deltas, { seed: 11 });
  const c = bootstrapMeanInterval(deltas, { seed: 12 });
  assert.ok(a !== null && b !== null && c !== null);
  assert.deepEqual(a, b);
  assert.notDeepEqual([a.low, a.high], [c.low, c.high]);
  assert.equal(a.resamples, 10_000);
  assert.equal(a.confidence, 0.95);
  const m = mean(deltas);
  assert.ok(a.low < m && m < a.high, `${a.low} < ${m} < ${a.high}`);
  // Resample means lie between the smallest and largest Δ.
  assert.ok(a.low >= Math.min(...deltas) && a.high <= Math.max(...deltas));
});

Deno.test("bootstrapMeanInterval: is the percentile interval of resample means drawn by createRng", () => {
  // A plain re-implementation: draw each resample's indices with createRng(seed), sort the means,
  // interpolate the 2.5% and 97.5% quantiles (R type 7).
  const deltas = [0.3, -0.1, 0.2, 0.05, 0.4, -0.2, 0.1];
  const resamples = 500, seed = 99;
  const rng = createRng(seed);
  const means: number[] = [];
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let i = 0; i < deltas.length; i++) sum += deltas[Math.floor(rng() * deltas.length)];
    means.push(sum / deltas.length);
  }
  means.sort((x, y) => x - y);
  const q = (p: number) => {
    const h = (means.length - 1) * p, lo = Math.floor(h);
    return means[lo] + (h - lo) * (means[Math.min(lo + 1, means.length - 1)] - means[lo]);
  };
  const ci = bootstrapMeanInterval(deltas, { resamples, seed });
  assert.deepEqual([ci?.low, ci?.high], [q(0.025), q(0.975)]);
});

Deno.test("bootstrapMeanInterval: spans 0 for symmetric noise, excludes 0 for a consistent shift", () => {
  const noise = [0.1, -0.1, 0.2, -0.2, 0.05, -0.05, 0.3, -0.3, 0.15, -0.15, 0.25, -0.25];
  const spans = bootstrapMeanInterval(noise);
  assert.ok(spans !== null && spans.low < 0 && spans.high > 0, JSON.stringify(spans));
  const shifted = noise.map((d) => d / 4 - 0.2);
  const below = bootstrapMeanInterval(shifted);
  assert.ok(below !== null && below.high < 0, JSON.stringify(below));
  const above = bootstrapMeanInterval(noise.map((d) => d / 4 + 0.2));
  assert.ok(above !== null && above.low > 0, JSON.stringify(above));
});

Deno.test("bootstrapMeanInterval: a constant Δ gives a zero-width interval; no Δ gives null", () => {
  const ci = bootstrapMeanInterval([0.25, 0.25, 0.25], { resamples: 100 });
  assert.deepEqual([ci?.low, ci?.high, ci?.resamples], [0.25, 0.25, 100]);
  assert.equal(bootstrapMeanInterval([]), null);
});

Deno.test("median: middle value, or the mean of the two middle values", () => {
  assert.equal(median([0.16, -0.03, 0.07, 0.02, 0.05]), 0.05);
  assert.equal(median([1, 4, 2, 3]), 2.5);
  assert.ok(Number.isNaN(median([])));
});
