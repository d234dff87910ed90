/**
 * Statistics over the trials of each case (`--trials K`, `execution.trials`): pass rate, mean ±
 * sample standard deviation, the unbiased pass@k estimator and pass^k, and the case's verdict
 * under the trials gate (`--trials-gate mean|any|all|rate:X`).
 *
 * Definitions, for a case with `n` trials of which `c` passed:
 * - a trial is a row with status `ok` or `error` (`skipped` rows never ran and are not trials);
 *   it *passed* when its status is `ok` and its verdict `pass` (a `borderline` trial did not
 *   pass); an `error` trial failed and scores 0 in the mean;
 * - pass@k = 1 − C(n−c, k) / C(n, k) (Chen et al. 2021, "Evaluating Large Language Models
 *   Trained on Code"): the chance that at least one of k trials drawn without replacement passed;
 * - pass^k = C(c, k) / C(n, k): the chance that all k drawn trials passed;
 * - both are computed as products (never factorials), for every k from 1 to n;
 * - the gate: `mean` (default) gives the verdict of the mean score with the thresholds of a single
 *   row; `any` passes when some trial passed; `all` when every trial passed; `rate:X` when
 *   c / n ≥ X. Only `mean` can give `borderline`;
 * - a case is *flaky* when it passed some trials and failed others (0 < c < n).
 *
 * Memory is one small record per case, not per row.
 *
 * @module
 */
import type { ResultRow, Verdict } from "../schema/result.ts";
import { verdictOfScore } from "../schema/result.ts";
import type { TrialCaseStats, TrialsGate, TrialsSummary } from "../schema/trials.ts";

export type { TrialCaseStats, TrialsGate, TrialsSummary } from "../schema/trials.ts";
/** Parses a `--trials-gate` value (defined beside the gate's schema). */
export { parseTrialsGate } from "../schema/trials.ts";

/** The default trials gate. */
export const DEFAULT_TRIALS_GATE: TrialsGate = "mean";

/**
 * The unbiased pass@k estimator (Chen et al. 2021): 1 − C(n−c, k) / C(n, k), computed as
 * 1 − ∏_{i=n−c+1}^{n} (1 − k / i), which never forms a large binomial.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { passAtK } from "./trials.ts";
 * // n = 5, c = 2, k = 2: 1 − C(3,2)/C(5,2) = 1 − 3/10 = 0.7
 * assert.ok(Math.abs(passAtK(5, 2, 2) - 0.7) < 1e-12);
 * assert.equal(passAtK(5, 0, 3), 0);
 * assert.equal(passAtK(5, 3, 3), 1); // n − c < k: every draw of 3 holds a passed trial
 * ```
 */
export function passAtK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  if (c === 0) return 0;
  if (n - c < k) return 1;
  let allFailed = 1;
  for (let i = n - c + 1; i <= n; i++) allFailed *= 1 - k / i;
  return 1 - allFailed;
}

/**
 * pass^k: C(c, k) / C(n, k), the chance that k trials drawn without replacement all passed,
 * computed as ∏_{i=0}^{k−1} (c − i) / (n − i).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { passHatK } from "./trials.ts";
 * // n = 5, c = 2, k = 2: C(2,2)/C(5,2) = 1/10
 * assert.ok(Math.abs(passHatK(5, 2, 2) - 0.1) < 1e-12);
 * assert.equal(passHatK(5, 2, 3), 0);
 * ```
 */
export function passHatK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  if (c < k) return 0;
  let all = 1;
  for (let i = 0; i < k; i++) all *= (c - i) / (n - i);
  return all;
}

function checkCounts(n: number, c: number, k: number): void {
  if (
    !Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || n < 1 || c < 0 ||
    c > n || k < 1 || k > n
  ) {
    throw new RangeError(
      `pass@k needs whole numbers 0 <= c <= n and 1 <= k <= n (n=${n}, c=${c}, k=${k})`,
    );
  }
}

/**
 * Whether a row is a passed trial: status `ok` and verdict `pass`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trialPassed } from "./trials.ts";
 * assert.equal(trialPassed({ status: "ok", verdict: "pass" }), true);
 * assert.equal(trialPassed({ status: "error", verdict: "pass" }), false);
 * ```
 */
export function trialPassed(row: Pick<ResultRow, "status" | "verdict">): boolean {
  return row.status === "ok" && row.verdict === "pass";
}

/**
 * The verdict of a case under a gate, from its trial count, passed count and mean score.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gateVerdict } from "./trials.ts";
 * assert.equal(gateVerdict("mean", { n: 3, passed: 2, mean: 0.7 }), "borderline");
 * assert.equal(gateVerdict("any", { n: 3, passed: 1, mean: 0.3 }), "pass");
 * assert.equal(gateVerdict("all", { n: 3, passed: 2, mean: 0.9 }), "fail");
 * assert.equal(gateVerdict("rate:0.6", { n: 5, passed: 3, mean: 0.6 }), "pass");
 * ```
 */
export function gateVerdict(
  gate: TrialsGate,
  stats: { n: number; passed: number; mean: number },
): Verdict {
  if (gate === "mean") return verdictOfScore(stats.mean);
  if (gate === "any") return stats.passed > 0 ? "pass" : "fail";
  if (gate === "all") return stats.passed === stats.n ? "pass" : "fail";
  const rate = Number(gate.slice("rate:".length));
  return stats.n > 0 && stats.passed / stats.n >= rate ? "pass" : "fail";
}

/** Per-case statistics of a case's trials, built row by row; see {@link createTrialsAccumulator}. */
export interface TrialsAccumulator {
  /** Adds one row (a `skipped` row is ignored). */
  add(row: ResultRow): void;
  /** Whether some case has more than one trial so far. */
  readonly repeated: boolean;
  /** The statistics of every case under `gate`. */
  finish(gate?: TrialsGate): TrialsSummary;
}

/** A case's running statistics: the counts and mean of its stats, and Welford's sum of squares. */
type CaseAcc =
  & Pick<TrialCaseStats, "eval_id" | "dataset" | "target" | "n" | "passed" | "errors" | "mean">
  & { m2: number };

/**
 * Creates a trials accumulator: one small record per case (dataset, id and target), updated with
 * Welford's method, so memory does not grow with the number of trials.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createTrialsAccumulator } from "./trials.ts";
 * const acc = createTrialsAccumulator();
 * const row = { eval_id: "a", dataset: "d", target: "t", status: "ok", score: 1, verdict: "pass" };
 * acc.add(row as never);
 * acc.add({ ...row, score: 0, verdict: "fail" } as never);
 * const { cases, flaky } = acc.finish("any");
 * assert.deepEqual([cases[0].pass_rate, cases[0].verdict, flaky.length], [0.5, "pass", 1]);
 * ```
 */
export function createTrialsAccumulator(): TrialsAccumulator {
  const cases = new Map<string, CaseAcc>();
  let repeated = false;
  return {
    add(row) {
      if (row.status !== "ok" && row.status !== "error") return;
      const key = `${row.dataset}\0${row.eval_id}\0${row.target}`;
      let acc = cases.get(key);
      if (acc === undefined) {
        acc = {
          eval_id: row.eval_id,
          dataset: row.dataset,
          target: row.target,
          n: 0,
          passed: 0,
          errors: 0,
          mean: 0,
          m2: 0,
        };
        cases.set(key, acc);
      }
      const score = row.status === "ok" ? row.score : 0;
      acc.n++;
      if (acc.n > 1) repeated = true;
      if (trialPassed(row)) acc.passed++;
      if (row.status === "error") acc.errors++;
      const delta = score - acc.mean;
      acc.mean += delta / acc.n;
      acc.m2 += delta * (score - acc.mean);
    },
    get repeated() {
      return repeated;
    },
    finish(gate = DEFAULT_TRIALS_GATE) {
      const out: TrialCaseStats[] = [];
      const flaky: TrialsSummary["flaky"] = [];
      for (const a of cases.values()) {
        const passAt: Record<string, number> = {};
        const passHat: Record<string, number> = {};
        for (let k = 1; k <= a.n; k++) {
          passAt[k] = passAtK(a.n, a.passed, k);
          passHat[k] = passHatK(a.n, a.passed, k);
        }
        const { eval_id, dataset, target, n, passed, errors, mean } = a;
        out.push({
          eval_id,
          dataset,
          target,
          n,
          passed,
          errors,
          pass_rate: passed / n,
          mean,
          stdev: n < 2 ? null : Math.sqrt(Math.max(0, a.m2) / (n - 1)),
          pass_at_k: passAt,
          pass_hat_k: passHat,
          verdict: gateVerdict(gate, a),
        });
        if (passed > 0 && passed < n) flaky.push({ eval_id, dataset, target, passed, n });
      }
      return { gate, cases: out, flaky };
    },
  };
}

/**
 * Whether every case passes its trials gate (a `borderline` mean passes, as a single row's
 * `borderline` does); with a threshold, whether the mean of the cases' mean scores reaches it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trialsPassed } from "./trials.ts";
 * const ok = { verdict: "pass" as const, mean: 0.9 };
 * assert.equal(trialsPassed({ cases: [ok, { verdict: "fail" as const, mean: 0.5 }] }), false);
 * assert.equal(trialsPassed({ cases: [ok, { verdict: "fail" as const, mean: 0.5 }] }, 0.7), true);
 * ```
 */
export function trialsPassed(
  trials: { cases: readonly Pick<TrialCaseStats, "verdict" | "mean">[] },
  threshold?: number,
): boolean {
  if (trials.cases.length === 0) return false;
  if (threshold !== undefined) {
    const mean = trials.cases.reduce((s, c) => s + c.mean, 0) / trials.cases.length;
    return mean >= threshold;
  }
  return trials.cases.every((c) => c.verdict !== "fail");
}

/**
 * A row's name in reports that list rows: the case id, with ` #i` for trial i > 0 (the first
 * trial keeps the bare id, so a run without trials reads as before).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trialLabel } from "./trials.ts";
 * assert.equal(trialLabel({ eval_id: "refund", trial: 2 }), "refund #2");
 * assert.equal(trialLabel({ eval_id: "refund", trial: 0 }), "refund");
 * ```
 */
export function trialLabel(row: { eval_id: string; trial?: number }): string {
  return typeof row.trial === "number" && row.trial > 0
    ? `${row.eval_id} #${row.trial}`
    : row.eval_id;
}
