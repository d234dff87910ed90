/**
 * A pass rate corrected for the judge's measured error. A judge with sensitivity Se and
 * specificity Sp that passes a share p of the answers reports p = π·Se + (1 − π)(1 − Sp) when the
 * true pass rate is π; solving for π gives the Rogan–Gladen estimator
 * π̂ = (p + Sp − 1) / (Se + Sp − 1), clamped to [0, 1].
 *
 * Its interval carries both uncertainties, the run's (p from n answers) and the calibration's (Se
 * from n₁ labelled passes, Sp from n₀ labelled fails), by the adjusted Wald interval of Lang and
 * Reiczigel (2014): each proportion gets pseudo-counts first (p̃ = (x + z²/2) / (n + z²),
 * S̃e = (tp + 1) / (n₁ + 2), S̃p = (tn + 1) / (n₀ + 2), Agresti–Coull style), then
 * π̃ = (p̃ + S̃p − 1) / (S̃e + S̃p − 1),
 * SE = √(p̃(1 − p̃)/ñ + π̃²·S̃e(1 − S̃e)/ñ₁ + (1 − π̃)²·S̃p(1 − S̃p)/ñ₀) / |S̃e + S̃p − 1|
 * (the delta method), the centre is shifted by the second-order bias
 * Δ = 2z²(π̃·S̃e(1 − S̃e)/ñ₁ − (1 − π̃)·S̃p(1 − S̃p)/ñ₀), and the interval is π̃ + Δ ± z·SE, clamped to
 * [0, 1]. It assumes the run's answers and the labelled ones are independent samples, and that the
 * judge errs on the run as it erred on the labels (the same Se and Sp).
 *
 * When Se + Sp ≤ 1 the judge is no better than chance and nothing can be corrected.
 *
 * @module
 */
import type { ConfusionMatrix } from "./agreement.ts";
import type { Interval } from "../compare/intervals.ts";
import { normalUpperTail } from "../compare/statistics.ts";

/**
 * The Rogan–Gladen estimate (p + Sp − 1) / (Se + Sp − 1), clamped to [0, 1]; `null` when
 * Se + Sp ≤ 1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { roganGladen } from "./corrected_rate.ts";
 * // (0.6 + 0.8 − 1) / (0.9 + 0.8 − 1) = 0.4 / 0.7
 * assert.ok(Math.abs(roganGladen(0.6, 0.9, 0.8)! - 0.4 / 0.7) < 1e-12);
 * assert.equal(roganGladen(0.1, 0.9, 0.8), 0); // below the judge's false-pass rate: clamped
 * assert.equal(roganGladen(0.5, 0.5, 0.5), null);
 * ```
 */
export function roganGladen(p: number, se: number, sp: number): number | null {
  const youden = se + sp - 1;
  if (youden <= 1e-12) return null;
  return clamp((p + sp - 1) / youden);
}

/** The z of a two-sided interval of coverage `confidence` (1.959964 for 0.95), by bisection. */
export function normalQuantile(confidence: number): number {
  const tail = (1 - confidence) / 2;
  let low = 0, high = 40;
  for (let i = 0; i < 100; i++) {
    const mid = (low + high) / 2;
    if (normalUpperTail(mid) > tail) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/** The run's verdict counts: answers that passed among those scored. */
export interface PassCounts {
  /** Answers the judge passed. */
  passed: number;
  /** Answers scored. */
  scored: number;
}

/** A pass rate and its correction. */
export interface CorrectedRate {
  /** The raw pass rate, passed / scored; `null` when nothing was scored. */
  raw: number | null;
  /** The Rogan–Gladen estimate; `null` when nothing was scored or Se + Sp ≤ 1. */
  corrected: number | null;
  /** Its adjusted Wald interval (both uncertainties); `null` when there is no estimate. */
  ci: Interval | null;
  /** Why there is no estimate, when there is none. */
  reason?: "nothing scored" | "too weak" | "no labelled passes or fails";
}

/**
 * The pass rate of a run corrected for the judge's error measured on labels (see the module
 * doc), with the interval that carries both the run's and the calibration's uncertainty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { correctPassRate } from "./corrected_rate.ts";
 * const r = correctPassRate({ passed: 60, scored: 100 }, { tp: 45, fn: 5, tn: 40, fp: 10 });
 * assert.equal(r.raw, 0.6);
 * assert.ok(Math.abs(r.corrected! - 0.4 / 0.7) < 1e-12); // Se 0.9, Sp 0.8
 * assert.ok(r.ci!.low < r.corrected! && r.corrected! < r.ci!.high);
 * ```
 */
export function correctPassRate(
  run: PassCounts,
  calibration: ConfusionMatrix,
  options: { confidence?: number } = {},
): CorrectedRate {
  if (run.scored === 0) return { raw: null, corrected: null, ci: null, reason: "nothing scored" };
  const raw = run.passed / run.scored;
  const n1 = calibration.tp + calibration.fn;
  const n0 = calibration.tn + calibration.fp;
  if (n1 === 0 || n0 === 0) {
    return { raw, corrected: null, ci: null, reason: "no labelled passes or fails" };
  }
  const corrected = roganGladen(raw, calibration.tp / n1, calibration.tn / n0);
  if (corrected === null) return { raw, corrected: null, ci: null, reason: "too weak" };
  const z = normalQuantile(options.confidence ?? 0.95);
  const ci = adjustedInterval(run, calibration, z);
  return { raw, corrected, ci };
}

/** Lang and Reiczigel's adjusted Wald interval (see the module doc); `null` when S̃e + S̃p ≤ 1. */
function adjustedInterval(run: PassCounts, m: ConfusionMatrix, z: number): Interval | null {
  const z2 = z * z;
  const n = run.scored + z2;
  const p = (run.passed + z2 / 2) / n;
  const n1 = m.tp + m.fn + 2;
  const se = (m.tp + 1) / n1;
  const n0 = m.tn + m.fp + 2;
  const sp = (m.tn + 1) / n0;
  const youden = se + sp - 1;
  if (youden <= 1e-12) return null;
  const pi = (p + sp - 1) / youden;
  const varSe = (se * (1 - se)) / n1;
  const varSp = (sp * (1 - sp)) / n0;
  const spread = Math.sqrt((p * (1 - p)) / n + pi * pi * varSe + (1 - pi) * (1 - pi) * varSp) /
    Math.abs(youden);
  const shift = 2 * z2 * (pi * varSe - (1 - pi) * varSp);
  return { low: clamp(pi + shift - z * spread), high: clamp(pi + shift + z * spread) };
}

function clamp(x: number): number {
  return Math.min(1, Math.max(0, x));
}
