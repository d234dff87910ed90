/**
 * Trial statistics: pass@k and pass^k against hand-computed values and exact binomials, the
 * trials gates, mean ± stdev with error trials at 0, flaky cases, and the CI gate over trials.
 */
import assert from "node:assert/strict";
import { runPassed, summarizeResults } from "../../lib/results/summary.ts";
import {
  createTrialsAccumulator,
  gateVerdict,
  parseTrialsGate,
  passAtK,
  passHatK,
  trialLabel,
} from "../../lib/results/trials.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { row } from "./_rows.ts";

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} != ${expected}`);

/** C(n, k) exactly, with BigInt. */
function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = r * BigInt(n - k + i) / BigInt(i);
  return r;
}

/** An exact ratio of BigInts as a number (both fit easily for n <= 20). */
const ratio = (a: bigint, b: bigint) => Number(a) / Number(b);

Deno.test("passAtK() and passHatK() give the hand-computed values for n = 5, c = 2", () => {
  // C(5,1) = 5, C(5,2) = 10, C(5,3) = 10, C(5,4) = 5, C(5,5) = 1; C(3,1) = 3, C(3,2) = 3,
  // C(3,3) = 1, C(3,k > 3) = 0; C(2,1) = 2, C(2,2) = 1, C(2,k > 2) = 0.
  // pass@1 = 1 − 3/5 = 0.4; pass@2 = 1 − 3/10 = 0.7; pass@3 = 1 − 1/10 = 0.9;
  // pass@4 = 1 − 0/5 = 1; pass@5 = 1.
  const at = [0.4, 0.7, 0.9, 1, 1];
  // pass^1 = 2/5 = 0.4; pass^2 = 1/10 = 0.1; pass^3 = pass^4 = pass^5 = 0.
  const hat = [0.4, 0.1, 0, 0, 0];
  for (let k = 1; k <= 5; k++) {
    close(passAtK(5, 2, k), at[k - 1], `pass@${k}`);
    close(passHatK(5, 2, k), hat[k - 1], `pass^${k}`);
  }
});

Deno.test("passAtK() and passHatK() equal the binomial formulas for every n <= 12, c and k", () => {
  for (let n = 1; n <= 12; n++) {
    for (let c = 0; c <= n; c++) {
      for (let k = 1; k <= n; k++) {
        const cnk = binomial(n, k);
        close(passAtK(n, c, k), 1 - ratio(binomial(n - c, k), cnk), `pass@${k} n=${n} c=${c}`);
        close(passHatK(n, c, k), ratio(binomial(c, k), cnk), `pass^${k} n=${n} c=${c}`);
      }
    }
  }
});

Deno.test("passAtK() and passHatK() stay finite and exact where factorials would overflow", () => {
  // n = 1000, c = 1: C(999, k) / C(1000, k) = (1000 − k) / 1000, so pass@k = k / 1000.
  close(passAtK(1000, 1, 500), 0.5, "pass@500");
  // pass^k with c = n is 1 for every k; with c = n − 1 it is (n − k) / n.
  close(passHatK(1000, 1000, 1000), 1, "pass^1000");
  assert.ok(Math.abs(passHatK(1000, 999, 250) - 0.75) < 1e-9);
  assert.throws(() => passAtK(3, 4, 1), RangeError);
  assert.throws(() => passHatK(3, 1, 4), RangeError);
});

Deno.test("gateVerdict() follows each gate", () => {
  const flaky = { n: 4, passed: 3, mean: 0.75 };
  // mean: 0.75 is borderline (>= 0.6, < 0.8), as a single row's score would be.
  assert.equal(gateVerdict("mean", flaky), "borderline");
  assert.equal(gateVerdict("mean", { n: 2, passed: 2, mean: 0.8 }), "pass");
  assert.equal(gateVerdict("mean", { n: 2, passed: 0, mean: 0.5 }), "fail");
  assert.equal(gateVerdict("any", flaky), "pass");
  assert.equal(gateVerdict("any", { n: 4, passed: 0, mean: 0.7 }), "fail");
  assert.equal(gateVerdict("all", flaky), "fail");
  assert.equal(gateVerdict("all", { n: 4, passed: 4, mean: 0.9 }), "pass");
  // 3/4 = 0.75: passes rate:0.75, fails rate:0.8.
  assert.equal(gateVerdict("rate:0.75", flaky), "pass");
  assert.equal(gateVerdict("rate:0.8", flaky), "fail");
  assert.equal(gateVerdict("rate:0", { n: 1, passed: 0, mean: 0 }), "pass");
});

Deno.test("parseTrialsGate() accepts mean, any, all and rate:X with X in [0, 1] only", () => {
  for (const gate of ["mean", "any", "all", "rate:0", "rate:1", "rate:0.8"]) {
    assert.deepEqual(parseTrialsGate(gate), { ok: true, gate });
  }
  assert.deepEqual(parseTrialsGate("rate:.5"), { ok: true, gate: "rate:0.5" });
  for (const bad of ["", "median", "rate:", "rate:1.5", "rate:-0.1", "rate:x", "ALL"]) {
    assert.equal(parseTrialsGate(bad).ok, false, bad);
  }
});

/** Trials of case `id`: one row per score, `"e"` for an error row. */
function trials(id: string, scores: (number | "e" | "s")[]): ResultRow[] {
  return scores.map((s, trial) =>
    s === "e"
      ? row(id, 0, { trial, status: "error", error: "boom" })
      : s === "s"
      ? row(id, 0, { trial, status: "skipped", error: "budget" })
      : row(id, s, { trial })
  );
}

Deno.test("the accumulator counts passed trials, errors as failed score-0 trials, and flaky cases", () => {
  const acc = createTrialsAccumulator();
  // "f": scores 1, 0.9 pass; 0.7 borderline (not passed); an error (score 0); a skipped row.
  for (const r of [...trials("f", [1, 0.7, "e", 0.9, "s"]), ...trials("p", [1, 1])]) acc.add(r);
  assert.equal(acc.repeated, true);
  const { cases, flaky, gate } = acc.finish();
  assert.equal(gate, "mean");
  const f = cases.find((c) => c.eval_id === "f")!;
  assert.deepEqual([f.n, f.passed, f.errors, f.pass_rate], [4, 2, 1, 0.5]);
  // mean = (1 + 0.7 + 0 + 0.9) / 4 = 0.65; deviations 0.35, 0.05, −0.65, 0.25;
  // squares 0.1225 + 0.0025 + 0.4225 + 0.0625 = 0.61; variance 0.61 / 3; stdev ≈ 0.450925.
  close(f.mean, 0.65, "mean");
  close(f.stdev!, Math.sqrt(0.61 / 3), "stdev");
  assert.equal(f.verdict, "borderline");
  // n = 4, c = 2: pass@2 = 1 − C(2,2)/C(4,2) = 1 − 1/6; pass^2 = C(2,2)/C(4,2) = 1/6.
  close(f.pass_at_k["2"], 5 / 6, "pass@2");
  close(f.pass_hat_k["2"], 1 / 6, "pass^2");
  assert.deepEqual(Object.keys(f.pass_at_k), ["1", "2", "3", "4"]);
  const p = cases.find((c) => c.eval_id === "p")!;
  assert.deepEqual([p.n, p.passed, p.mean, p.stdev, p.verdict], [2, 2, 1, 0, "pass"]);
  assert.deepEqual(flaky, [{ eval_id: "f", dataset: "ds", target: "default", passed: 2, n: 4 }]);
  assert.equal(acc.finish("all").cases.find((c) => c.eval_id === "f")!.verdict, "fail");
});

Deno.test("summarizeResults() has a trials section only when a case ran more than once", () => {
  assert.equal(summarizeResults([row("a", 1), row("b", 0)]).trials, undefined);
  const summary = summarizeResults([...trials("a", [1, 0]), row("b", 1)], { trialsGate: "any" });
  assert.equal(summary.trials?.gate, "any");
  assert.deepEqual(summary.trials?.cases.map((c) => [c.eval_id, c.n, c.verdict]), [
    ["a", 2, "pass"],
    ["b", 1, "pass"],
  ]);
});

Deno.test("runPassed() judges cases by their trials gate, error trials included", () => {
  // "a" passes 2 of 3 (one error), "b" passes 1 of 2.
  const rows = [...trials("a", [1, "e", 1]), ...trials("b", [0.2, 1])];
  const gate = (trialsGate: "mean" | "any" | "all" | `rate:${number}`, threshold?: number) =>
    runPassed(
      summarizeResults(rows, { trialsGate }),
      threshold === undefined ? {} : { threshold },
    );
  // any: both cases passed a trial, so the error row does not fail the run.
  assert.equal(gate("any"), true);
  assert.equal(gate("all"), false);
  // rate: a 2/3 ≈ 0.667, b 1/2 = 0.5.
  assert.equal(gate("rate:0.5"), true);
  assert.equal(gate("rate:0.6"), false);
  // mean: a (1 + 0 + 1)/3 ≈ 0.667 borderline, b (0.2 + 1)/2 = 0.6 borderline: neither fails.
  assert.equal(gate("mean"), true);
  // threshold: mean of case means = (2/3 + 0.6) / 2 ≈ 0.633.
  assert.equal(gate("mean", 0.63), true);
  assert.equal(gate("mean", 0.64), false);
  // Without trials an error row fails the run, as before.
  assert.equal(runPassed(summarizeResults([row("a", 1), row("b", 0, { status: "error" })])), false);
});

Deno.test("trialLabel() names trial i > 0 `id #i`", () => {
  assert.deepEqual(trials("x", [1, 1, 1]).map(trialLabel), ["x", "x #1", "x #2"]);
});
