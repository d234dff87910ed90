/**
 * The CI gate of `agentv calibrate`: `--fail-below KAPPA` fails when a judge agrees with people
 * less than that (Cohen's κ, or κ undefined), `--min-labels N` when its figures rest on fewer than
 * N labelled items. Every evaluator measured (and the overall verdict) is held to both.
 *
 * @module
 */
import type { CalibrationReport } from "./calibrate.ts";

/** The thresholds of the gate (each off when absent). */
export interface CalibrationGate {
  /** Fail when a κ is below this (or undefined). */
  failBelow?: number;
  /** Fail when a figure rests on fewer labelled items than this. */
  minLabels?: number;
}

/**
 * Why the report fails the gate: one line per evaluator and threshold; empty when it passes. A
 * report that measured nothing fails any gate that is set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gateFailures } from "./gate.ts";
 * const unit = { evaluator: "quality", n: 12, kappa: { value: 0.35, ci: null, n: 12 } };
 * const report = { units: [unit] } as never;
 * assert.deepEqual(gateFailures(report, { failBelow: 0.6, minLabels: 10 }), [
 *   "evaluator 'quality': κ 0.35 is below --fail-below 0.6",
 * ]);
 * ```
 */
export function gateFailures(report: CalibrationReport, gate: CalibrationGate): string[] {
  if (gate.failBelow === undefined && gate.minLabels === undefined) return [];
  if (report.units.length === 0) return ["no labelled verdict was measured"];
  const failures: string[] = [];
  for (const unit of report.units) {
    const name = unit.evaluator === null ? "the case verdict" : `evaluator '${unit.evaluator}'`;
    if (gate.failBelow !== undefined) {
      const kappa = unit.kappa.value;
      if (kappa === null) {
        failures.push(
          `${name}: κ is undefined (every labelled item got one verdict from both judge and people)`,
        );
      } else if (kappa < gate.failBelow) {
        failures.push(`${name}: κ ${kappa.toFixed(2)} is below --fail-below ${gate.failBelow}`);
      }
    }
    if (gate.minLabels !== undefined && unit.n < gate.minLabels) {
      failures.push(
        `${name}: rests on ${unit.n} labelled item(s), fewer than --min-labels ${gate.minLabels}`,
      );
    }
  }
  return failures;
}
