/**
 * Everything `agentv calibrate` shows, in one value every view renders (text, Markdown, HTML) and
 * `--json` prints: the agreement figures per evaluator (keys `evaluator`, `n`, `confusion`,
 * `accuracy`, `sensitivity`, `specificity`, `kappa`, `alpha`, each estimate with its `ci`), the
 * disagreements, the labels that matched nothing, self-consistency and order sensitivity, the
 * saved calibration and the gate.
 *
 * @module
 */
import type { BootstrapSettings } from "./bootstrap.ts";
import type { CalibrationReport, UnitCalibration } from "./calibrate.ts";
import type { ConsistencyReport, RejudgeSkip } from "./consistency.ts";
import type { UnmatchedLabel } from "./match_labels.ts";

/** The gate as set and what failed it. */
export interface GateOutcome {
  /** `--fail-below`, or `null`. */
  fail_below: number | null;
  /** `--min-labels`, or `null`. */
  min_labels: number | null;
  /** Why it failed; empty when it passed. */
  failures: string[];
}

/** What `agentv calibrate` found (see the module doc). */
export interface CalibrationOutput {
  /** The results files, as named. */
  results: string[];
  /** The labels file read, or `null` when none was. */
  labels_file: string | null;
  /** The agreement with people, or `null` when no labels were read. */
  report: CalibrationReport | null;
  /** Self-consistency (`--repeat K`), or `null`. */
  repeat: ConsistencyReport | null;
  /** Order sensitivity (`--orders K`), or `null`. */
  orders: ConsistencyReport | null;
  /** Evaluators not asked again, and why. */
  skipped: RejudgeSkip[];
  /** The calibration file written (`--save`), or `null`. */
  saved: string | null;
  /** The gate, when one was set. */
  gate: GateOutcome | null;
}

/** The `--json` document of `agentv calibrate`. */
export interface CalibrationJson {
  /** The results files. */
  results: string[];
  /** The labels file, or `null`. */
  labels_file: string | null;
  /** How the intervals were computed. */
  bootstrap: BootstrapSettings | null;
  /** Labels read, kept, matched; those that matched nothing, with why. */
  labels: { read: number; latest: number; matched: number; unmatched: UnmatchedLabel[] } | null;
  /** The overall verdict (`evaluator: null`) and each labelled evaluator. */
  evaluators: UnitCalibration[];
  /** Self-consistency and order sensitivity. */
  consistency: {
    repeat: ConsistencyReport | null;
    orders: ConsistencyReport | null;
    skipped: RejudgeSkip[];
  };
  /** The calibration file written, or `null`. */
  saved: string | null;
  /** The gate, or `null`. */
  gate: GateOutcome | null;
}

/**
 * The `--json` document of an output.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { calibrationJson } from "./output.ts";
 * const json = calibrationJson({ results: ["r.jsonl"], labels_file: null, report: null,
 *   repeat: null, orders: null, skipped: [], saved: null, gate: null });
 * assert.deepEqual(json.evaluators, []);
 * ```
 */
export function calibrationJson(output: CalibrationOutput): CalibrationJson {
  const report = output.report;
  return {
    results: output.results,
    labels_file: output.labels_file,
    bootstrap: report?.bootstrap ?? null,
    labels: report?.labels ?? null,
    evaluators: report?.units ?? [],
    consistency: { repeat: output.repeat, orders: output.orders, skipped: output.skipped },
    saved: output.saved,
    gate: output.gate,
  };
}
