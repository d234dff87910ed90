/**
 * Pairs the cases of two runs (a baseline and a candidate) by dataset + eval id, so that every
 * later step (statistics, text/markdown/JSON/HTML output, CI gates) works on the same pairs.
 *
 * Several rows of one case in one file are trials: every trial counts, and the case score is the
 * mean over its trials.
 *
 * @module
 */
import type { EvaluatorResult, ResultRow, Verdict } from "../schema/result.ts";

/** The default `--delta`: a pair whose |Δ score| is at most this is a tie. */
export const DEFAULT_TIE_DELTA = 0.1;

/**
 * Slack when comparing |Δ| with the tie delta, so that `0.82 - 0.72` (0.09999999999999998) and
 * `0.4 - 0.3` (0.10000000000000003) are both read as exactly 0.1.
 */
const EPSILON = 1e-9;

/** How a case did in the candidate relative to the baseline. */
export type PairOutcome = "win" | "loss" | "tie";

/** A verdict change between the runs, e.g. `"pass→fail"` (baseline verdict first). */
export type VerdictFlip = `${Verdict}→${Verdict}`;

/** One evaluator's score on a paired case, on each side (mean over the trials where it scored). */
export interface EvaluatorDelta {
  /** Evaluator name (as in `evaluator_results[].name`). */
  name: string;
  /** Mean baseline score over the trials where this evaluator had `status: ok`; null if none. */
  baseline_score: number | null;
  /** Mean candidate score over the trials where this evaluator had `status: ok`; null if none. */
  candidate_score: number | null;
  /** `candidate_score - baseline_score`; null when either side has no score. */
  delta: number | null;
}

/** A case present in both runs. */
export interface CasePair {
  /**
   * Unique, opaque key of the case (dataset + eval id, JSON-encoded: `["ds","id"]`); safe to use
   * as a map key, not meant for display.
   */
  key: string;
  /** Dataset name (`""` when the rows name none). */
  dataset: string;
  /** Case id. */
  eval_id: string;
  /** The baseline rows of this case (one per trial), in file order. */
  baseline: ResultRow[];
  /** The candidate rows of this case (one per trial), in file order. */
  candidate: ResultRow[];
  /** Mean baseline score over its trials. */
  baseline_score: number;
  /** Mean candidate score over its trials. */
  candidate_score: number;
  /** Case verdict of the baseline (see {@link caseVerdict}). */
  baseline_verdict: Verdict;
  /** Case verdict of the candidate (see {@link caseVerdict}). */
  candidate_verdict: Verdict;
  /** `candidate_score - baseline_score`. */
  delta: number;
  /** `tie` when |Δ| ≤ the tie delta, else `win` (Δ > 0) or `loss` (Δ < 0). */
  outcome: PairOutcome;
  /** The verdict change, e.g. `"pass→fail"`; null when the verdict is the same. */
  flip: VerdictFlip | null;
  /** Baseline trials with `status: error` (their score, 0, is counted). */
  baseline_errors: number;
  /** Candidate trials with `status: error` (their score, 0, is counted). */
  candidate_errors: number;
  /** Per-evaluator scores and Δ, by evaluator name in first-seen order (baseline first). */
  evaluators: EvaluatorDelta[];
}

/** A case present in only one of the runs. */
export interface UnpairedCase {
  /** Same key as {@link CasePair.key}. */
  key: string;
  /** Dataset name (`""` when the rows name none). */
  dataset: string;
  /** Case id. */
  eval_id: string;
  /** Its rows (one per trial), in file order. */
  rows: ResultRow[];
  /** Mean score over its trials. */
  score: number;
  /** Case verdict (see {@link caseVerdict}). */
  verdict: Verdict;
}

/** Every case of two runs, paired. */
export interface RunPairing {
  /** The tie delta used for `outcome`. */
  delta: number;
  /** Cases in both runs, in baseline file order (first trial of each case). */
  pairs: CasePair[];
  /** Cases only in the baseline, in baseline file order. */
  only_baseline: UnpairedCase[];
  /** Cases only in the candidate, in candidate file order. */
  only_candidate: UnpairedCase[];
}

/** Options of {@link pairRuns}. */
export interface PairRunsOptions {
  /** |Δ score| at or below which a pair is a tie (default {@link DEFAULT_TIE_DELTA}, 0.1). */
  delta?: number;
}

/**
 * Pairs the cases of a baseline and a candidate run by dataset + eval id. Several rows of one
 * case are trials: the case score is the mean over all of them (error trials count with their
 * score 0), per-evaluator scores are means over the trials where that evaluator scored.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ResultRow } from "../schema/result.ts";
 * import { pairRuns } from "./pair.ts";
 *
 * const row = (eval_id: string, score: number, verdict: "pass" | "fail") =>
 *   ({ eval_id, dataset: "ds", score, verdict, status: "ok", evaluator_results: [] }) as
 *     unknown as ResultRow;
 * const pairing = pairRuns(
 *   [row("a", 0.9, "pass"), row("b", 0.5, "fail"), row("gone", 1, "pass")],
 *   [row("a", 0.3, "fail"), row("b", 0.55, "fail"), row("new", 1, "pass")],
 * );
 * assert.deepEqual(pairing.pairs.map((p) => [p.eval_id, p.outcome, p.flip]), [
 *   ["a", "loss", "pass→fail"],
 *   ["b", "tie", null],
 * ]);
 * assert.deepEqual(pairing.only_baseline.map((c) => c.eval_id), ["gone"]);
 * assert.deepEqual(pairing.only_candidate.map((c) => c.eval_id), ["new"]);
 * ```
 */
export function pairRuns(
  baseline: ResultRow[],
  candidate: ResultRow[],
  options: PairRunsOptions = {},
): RunPairing {
  const delta = options.delta ?? DEFAULT_TIE_DELTA;
  if (!Number.isFinite(delta) || delta < 0) {
    throw new RangeError(`delta must be a finite number >= 0, got ${delta}`);
  }
  const base = groupByCase(baseline);
  const cand = groupByCase(candidate);
  const pairs: CasePair[] = [];
  const only_baseline: UnpairedCase[] = [];
  for (const [key, group] of base) {
    const other = cand.get(key);
    if (other === undefined) only_baseline.push(unpaired(key, group));
    else pairs.push(pairCase(key, group, other, delta));
  }
  const only_candidate: UnpairedCase[] = [];
  for (const [key, group] of cand) {
    if (!base.has(key)) only_candidate.push(unpaired(key, group));
  }
  return { delta, pairs, only_baseline, only_candidate };
}

/**
 * The key of a row's case: dataset + eval id, JSON-encoded (unambiguous whatever the names hold).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { caseKey } from "./pair.ts";
 * assert.equal(caseKey("ds", "a/b"), '["ds","a/b"]');
 * ```
 */
export function caseKey(dataset: string, evalId: string): string {
  return JSON.stringify([dataset, evalId]);
}

/** Worst first: ties in {@link caseVerdict}'s majority go to the worse verdict. */
const VERDICT_ORDER: readonly Verdict[] = ["fail", "borderline", "pass"];

/**
 * The verdict of a case over its trials: the verdict of every trial when they agree, else the
 * most common one, a tie going to the worse verdict (fail < borderline < pass).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { caseVerdict } from "./pair.ts";
 * assert.equal(caseVerdict(["pass", "pass", "fail"]), "pass");
 * assert.equal(caseVerdict(["pass", "fail"]), "fail");
 * ```
 */
export function caseVerdict(verdicts: readonly Verdict[]): Verdict {
  let best: Verdict = "fail";
  let bestCount = -1;
  for (const v of VERDICT_ORDER) {
    const count = verdicts.filter((x) => x === v).length;
    if (count > bestCount) [best, bestCount] = [v, count];
  }
  return best;
}

interface CaseGroup {
  dataset: string;
  eval_id: string;
  rows: ResultRow[];
}

function groupByCase(rows: ResultRow[]): Map<string, CaseGroup> {
  const out = new Map<string, CaseGroup>();
  for (const row of rows) {
    const dataset = String(row.dataset ?? "");
    const eval_id = String(row.eval_id);
    const key = caseKey(dataset, eval_id);
    const group = out.get(key);
    if (group === undefined) out.set(key, { dataset, eval_id, rows: [row] });
    else group.rows.push(row);
  }
  return out;
}

function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

function rowScore(row: ResultRow): number {
  return typeof row.score === "number" && Number.isFinite(row.score) ? row.score : 0;
}

function rowVerdict(row: ResultRow): Verdict {
  return row.verdict === "pass" || row.verdict === "borderline" ? row.verdict : "fail";
}

function unpaired(key: string, group: CaseGroup): UnpairedCase {
  return {
    key,
    dataset: group.dataset,
    eval_id: group.eval_id,
    rows: group.rows,
    score: mean(group.rows.map(rowScore)),
    verdict: caseVerdict(group.rows.map(rowVerdict)),
  };
}

function pairCase(key: string, base: CaseGroup, cand: CaseGroup, tie: number): CasePair {
  const baseline_score = mean(base.rows.map(rowScore));
  const candidate_score = mean(cand.rows.map(rowScore));
  const delta = candidate_score - baseline_score;
  const baseline_verdict = caseVerdict(base.rows.map(rowVerdict));
  const candidate_verdict = caseVerdict(cand.rows.map(rowVerdict));
  return {
    key,
    dataset: base.dataset,
    eval_id: base.eval_id,
    baseline: base.rows,
    candidate: cand.rows,
    baseline_score,
    candidate_score,
    baseline_verdict,
    candidate_verdict,
    delta,
    outcome: Math.abs(delta) <= tie + EPSILON ? "tie" : delta > 0 ? "win" : "loss",
    flip: baseline_verdict === candidate_verdict
      ? null
      : `${baseline_verdict}→${candidate_verdict}`,
    baseline_errors: base.rows.filter((r) => r.status === "error").length,
    candidate_errors: cand.rows.filter((r) => r.status === "error").length,
    evaluators: evaluatorDeltas(base.rows, cand.rows),
  };
}

/** Scores of each evaluator (by name) that scored (`status: ok`) across the trials. */
function evaluatorScores(rows: ResultRow[], names: Set<string>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const row of rows) {
    const results: EvaluatorResult[] = Array.isArray(row.evaluator_results)
      ? row.evaluator_results
      : [];
    for (const r of results) {
      names.add(r.name);
      if (r.status !== "ok" || typeof r.score !== "number") continue;
      const list = out.get(r.name);
      if (list === undefined) out.set(r.name, [r.score]);
      else list.push(r.score);
    }
  }
  return out;
}

function evaluatorDeltas(base: ResultRow[], cand: ResultRow[]): EvaluatorDelta[] {
  const names = new Set<string>();
  const b = evaluatorScores(base, names);
  const c = evaluatorScores(cand, names);
  return [...names].map((name) => {
    const bs = b.get(name);
    const cs = c.get(name);
    const baseline_score = bs === undefined ? null : mean(bs);
    const candidate_score = cs === undefined ? null : mean(cs);
    return {
      name,
      baseline_score,
      candidate_score,
      delta: baseline_score === null || candidate_score === null
        ? null
        : candidate_score - baseline_score,
    };
  });
}
