/**
 * Agreement of a judge with people on pass/fail verdicts: the confusion matrix (pass is the
 * positive class, people are the reference), accuracy, sensitivity, specificity and Cohen's κ.
 * Pure functions over counts; a figure that is undefined for the counts (no positives for the
 * sensitivity, chance agreement of 1 for κ) is `null`, never NaN.
 *
 * @module
 */

/**
 * The judge's verdicts against people's, pass being the positive class: `tp` both pass, `fp` the
 * judge passes what people fail, `fn` the judge fails what people pass, `tn` both fail.
 */
export interface ConfusionMatrix {
  /** Judge pass, people pass. */
  tp: number;
  /** Judge pass, people fail. */
  fp: number;
  /** Judge fail, people pass. */
  fn: number;
  /** Judge fail, people fail. */
  tn: number;
}

/** One labelled verdict: the judge's and the people's (`true` = pass). */
export interface VerdictPair {
  /** Whether the judge passed it. */
  judge: boolean;
  /** Whether people passed it. */
  human: boolean;
}

/**
 * Counts verdict pairs into a confusion matrix.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { confusionMatrix } from "./agreement.ts";
 * const m = confusionMatrix([
 *   { judge: true, human: true }, { judge: true, human: false }, { judge: false, human: false },
 * ]);
 * assert.deepEqual(m, { tp: 1, fp: 1, fn: 0, tn: 1 });
 * ```
 */
export function confusionMatrix(pairs: Iterable<VerdictPair>): ConfusionMatrix {
  const m: ConfusionMatrix = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const { judge, human } of pairs) {
    if (judge) human ? m.tp++ : m.fp++;
    else human ? m.fn++ : m.tn++;
  }
  return m;
}

/** The number of pairs a matrix counts. */
export function matrixTotal(m: ConfusionMatrix): number {
  return m.tp + m.fp + m.fn + m.tn;
}

/** Share of the pairs where judge and people agree, (tp + tn) / n; `null` for no pairs. */
export function accuracy(m: ConfusionMatrix): number | null {
  const n = matrixTotal(m);
  return n === 0 ? null : (m.tp + m.tn) / n;
}

/** Share of the people's passes the judge passes, tp / (tp + fn); `null` when people passed none. */
export function sensitivity(m: ConfusionMatrix): number | null {
  const positives = m.tp + m.fn;
  return positives === 0 ? null : m.tp / positives;
}

/** Share of the people's fails the judge fails, tn / (tn + fp); `null` when people failed none. */
export function specificity(m: ConfusionMatrix): number | null {
  const negatives = m.tn + m.fp;
  return negatives === 0 ? null : m.tn / negatives;
}

/**
 * Cohen's κ of the judge and people: (pₒ − pₑ) / (1 − pₑ), pₒ the observed agreement and pₑ the
 * agreement expected by chance from each side's own pass rate. `null` for no pairs, or when
 * pₑ = 1 (both sides gave one and the same verdict to everything: agreement beyond chance is
 * undefined).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cohensKappa } from "./agreement.ts";
 * // n = 50, pₒ = 35/50 = 0.7; judge passes 25/50, people 30/50:
 * // pₑ = 0.5·0.6 + 0.5·0.4 = 0.5; κ = (0.7 − 0.5) / (1 − 0.5) = 0.4
 * const kappa = cohensKappa({ tp: 20, fp: 5, fn: 10, tn: 15 })!;
 * assert.ok(Math.abs(kappa - 0.4) < 1e-12);
 * ```
 */
export function cohensKappa(m: ConfusionMatrix): number | null {
  const n = matrixTotal(m);
  if (n === 0) return null;
  const observed = (m.tp + m.tn) / n;
  const judgePass = (m.tp + m.fp) / n;
  const humanPass = (m.tp + m.fn) / n;
  const chance = judgePass * humanPass + (1 - judgePass) * (1 - humanPass);
  if (chance >= 1 - 1e-12) return null;
  return (observed - chance) / (1 - chance);
}
