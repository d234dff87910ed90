/**
 * The `trials` section of the run summary: per-case statistics over the trials of each case
 * (`--trials K`, `execution.trials`) and the gate that turns them into the case's verdict
 * (`--trials-gate mean|any|all|rate:X`). Computed by `lib/results/trials.ts`.
 *
 * @module
 */
import { z } from "zod";
import { type Verdict, VerdictSchema } from "./result.ts";
import type { Assert, Same } from "./_type_check.ts";

/**
 * How a case's trials make its verdict: `mean` (the verdict of the mean score, same thresholds
 * as one row), `any` (some trial passed), `all` (every trial passed), `rate:X` (pass rate >= X).
 */
export type TrialsGate = "mean" | "any" | "all" | `rate:${number}`;

/** The text of a {@link TrialsGate}: `mean`, `any`, `all`, or `rate:` and a number from 0 to 1. */
export const TRIALS_GATE_PATTERN = /^(mean|any|all|rate:(0(\.\d+)?|1(\.0+)?|\.\d+))$/;

/** A {@link TrialsGate} as recorded in the summary and the run record's options. */
export const TrialsGateSchema = z.string().regex(TRIALS_GATE_PATTERN, {
  error: "expected mean, any, all or rate:X with X from 0 to 1",
});

/**
 * Parses a `--trials-gate` value: the gate, or why the text is not one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseTrialsGate } from "./trials.ts";
 * assert.deepEqual(parseTrialsGate("rate:0.75"), { ok: true, gate: "rate:0.75" });
 * assert.equal(parseTrialsGate("rate:2").ok, false);
 * ```
 */
export function parseTrialsGate(
  text: string,
): { ok: true; gate: TrialsGate } | { ok: false; error: string } {
  if (text === "mean" || text === "any" || text === "all") return { ok: true, gate: text };
  if (text.startsWith("rate:")) {
    const raw = text.slice("rate:".length);
    const rate = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(rate) || rate < 0 || rate > 1) {
      return {
        ok: false,
        error: `the rate in '${text}' must be a number from 0 to 1, e.g. rate:0.8`,
      };
    }
    const gate = `rate:${rate}` as const;
    return TRIALS_GATE_PATTERN.test(gate)
      ? { ok: true, gate }
      : { ok: false, error: `the rate in '${text}' must be a plain decimal, e.g. rate:0.8` };
  }
  return { ok: false, error: `'${text}' is not a trials gate; expected mean, any, all or rate:X` };
}

/** Statistics of one case over its trials. */
export interface TrialCaseStats {
  /** Case id. */
  eval_id: string;
  /** Dataset of the case. */
  dataset: string;
  /** Target the case ran against. */
  target: string;
  /** Trials that ran (rows with status `ok` or `error`; `skipped` rows are not trials). */
  n: number;
  /** Trials that passed: status `ok` and verdict `pass`. */
  passed: number;
  /** Trials that ended in an error (counted as failed, score 0). */
  errors: number;
  /** `passed / n`. */
  pass_rate: number;
  /** Mean score over the trials (an error trial scores 0). */
  mean: number;
  /** Sample standard deviation (n - 1) of the scores; `null` for one trial. */
  stdev: number | null;
  /** Unbiased pass@k (Chen et al. 2021) for k = 1..n, keyed by k: chance some of k trials pass. */
  pass_at_k: Record<string, number>;
  /** pass^k for k = 1..n, keyed by k: chance all of k trials (drawn without replacement) pass. */
  pass_hat_k: Record<string, number>;
  /** The case's verdict under the gate. */
  verdict: Verdict;
}

/** The `trials` section of the summary (present when some case ran more than once). */
export interface TrialsSummary {
  /** The gate that made each case's verdict (a {@link TrialsGate}). */
  gate: string;
  /** Every case that ran, in first-finished order. */
  cases: TrialCaseStats[];
  /** Cases that passed some trials and failed others. */
  flaky: { eval_id: string; dataset: string; target: string; passed: number; n: number }[];
}

const CaseKeys = { eval_id: z.string(), dataset: z.string(), target: z.string() };

/** The `trials` section of the summary. */
export const TrialsSummarySchema = z.object({
  gate: TrialsGateSchema,
  cases: z.array(z.object({
    ...CaseKeys,
    n: z.number(),
    passed: z.number(),
    errors: z.number(),
    pass_rate: z.number(),
    mean: z.number(),
    stdev: z.number().nullable(),
    pass_at_k: z.record(z.string(), z.number()),
    pass_hat_k: z.record(z.string(), z.number()),
    verdict: VerdictSchema,
  })),
  flaky: z.array(z.object({ ...CaseKeys, passed: z.number(), n: z.number() })),
});

// The explicit types must say exactly what the schemas produce.
type _Checks = [
  Assert<Same<TrialsSummary, z.output<typeof TrialsSummarySchema>>>,
];
