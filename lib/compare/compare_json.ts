/**
 * The JSON output of `agentv compare --json`: every pair, the one-side-only cases, the summary,
 * the statistics and the verdict. The keys of the original tool's `compare --json` (`matched[]`
 * with `eval_id`, `score1`, `score2`, `delta`, `outcome`; `unmatched.file1/file2`; `summary.total,
 * matched, wins, losses, ties, mean_delta`) are kept, so scripts written for it keep working.
 *
 * @module
 */
import type { PairOutcome, RunPairing, UnpairedCase, VerdictFlip } from "./pair.ts";
import type { ConfidenceInterval, SignTestResult, WilcoxonResult } from "./statistics.ts";
import type {
  CompareLabels,
  CompareVerdict,
  ComparisonSummary,
  EvaluatorSummary,
} from "./summary.ts";
import type { Verdict } from "../schema/result.ts";

/** Version of the JSON shape (bumped on an incompatible change). */
export const COMPARE_JSON_VERSION = 1;

/** A case in only one file, in {@link CompareJson}. */
export interface UnpairedJson {
  /** Dataset name. */
  dataset: string;
  /** Case id. */
  eval_id: string;
  /** Mean score over its trials. */
  score: number;
  /** Case verdict. */
  verdict: Verdict;
  /** Rows (trials) of the case. */
  trials: number;
}

/** A paired case in {@link CompareJson} (`1` = baseline, `2` = candidate, as in the original). */
export interface MatchedJson {
  /** Dataset name. */
  dataset: string;
  /** Case id. */
  eval_id: string;
  /** Mean baseline score. */
  score1: number;
  /** Mean candidate score. */
  score2: number;
  /** `score2 - score1`. */
  delta: number;
  /** `win`, `loss` or `tie`. */
  outcome: PairOutcome;
  /** Baseline case verdict. */
  verdict1: Verdict;
  /** Candidate case verdict. */
  verdict2: Verdict;
  /** Verdict change (e.g. `pass→fail`) or null. */
  flip: VerdictFlip | null;
  /** Baseline trials. */
  trials1: number;
  /** Candidate trials. */
  trials2: number;
  /** Baseline trials with `status: error`. */
  errors1: number;
  /** Candidate trials with `status: error`. */
  errors2: number;
  /** Per-evaluator mean scores and Δ (null where the evaluator did not score). */
  evaluators: {
    name: string;
    score1: number | null;
    score2: number | null;
    delta: number | null;
  }[];
}

/** The document `agentv compare --json` prints. */
export interface CompareJson {
  /** {@link COMPARE_JSON_VERSION}. */
  schema_version: number;
  /** Baseline label (path). */
  baseline: string;
  /** Candidate label (path). */
  candidate: string;
  /** Tie delta. */
  delta: number;
  /** Paired cases, in baseline order. */
  matched: MatchedJson[];
  /** Counts of cases only in the baseline (`file1`) and only in the candidate (`file2`). */
  unmatched: { file1: number; file2: number };
  /** Cases only in the baseline. */
  only_baseline: UnpairedJson[];
  /** Cases only in the candidate. */
  only_candidate: UnpairedJson[];
  /** Counts and Δ statistics; `total` is the number of rows in both files. */
  summary: {
    total: number;
    matched: number;
    wins: number;
    losses: number;
    ties: number;
    mean_delta: number | null;
    median_delta: number | null;
    baseline_mean: number | null;
    candidate_mean: number | null;
    pass_to_fail: number;
    baseline_errors: number;
    candidate_errors: number;
    flips: {
      dataset: string;
      eval_id: string;
      flip: VerdictFlip;
      score1: number;
      score2: number;
      delta: number;
    }[];
    evaluators: EvaluatorSummary[];
  };
  /** Significance of the mean Δ. */
  statistics: {
    confidence_interval: (ConfidenceInterval & { method: string }) | null;
    wilcoxon: WilcoxonResult;
    sign_test: SignTestResult;
    alpha: number;
    significant: boolean;
  };
  /** The overall verdict. */
  verdict: CompareVerdict;
  /** The verdict line with its numbers. */
  verdict_line: string;
}

function unpairedJson(c: UnpairedCase): UnpairedJson {
  return {
    dataset: c.dataset,
    eval_id: c.eval_id,
    score: c.score,
    verdict: c.verdict,
    trials: c.rows.length,
  };
}

/**
 * The JSON document of a comparison (a plain object; `JSON.stringify` it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ResultRow } from "../schema/result.ts";
 * import { pairRuns } from "./pair.ts";
 * import { summarizeComparison } from "./summary.ts";
 * import { compareToJson } from "./compare_json.ts";
 *
 * const row = (score: number) =>
 *   ({ eval_id: "a", dataset: "ds", score, verdict: "pass", status: "ok", evaluator_results: [] }) as
 *     unknown as ResultRow;
 * const pairing = pairRuns([row(0.8)], [row(1)]);
 * const json = compareToJson(pairing, summarizeComparison(pairing), { baseline: "a", candidate: "b" });
 * assert.deepEqual(json.matched.map((m) => [m.eval_id, m.outcome]), [["a", "win"]]);
 * ```
 */
export function compareToJson(
  pairing: RunPairing,
  summary: ComparisonSummary,
  labels: CompareLabels,
): CompareJson {
  return {
    schema_version: COMPARE_JSON_VERSION,
    baseline: labels.baseline,
    candidate: labels.candidate,
    delta: summary.delta,
    matched: pairing.pairs.map((p) => ({
      dataset: p.dataset,
      eval_id: p.eval_id,
      score1: p.baseline_score,
      score2: p.candidate_score,
      delta: p.delta,
      outcome: p.outcome,
      verdict1: p.baseline_verdict,
      verdict2: p.candidate_verdict,
      flip: p.flip,
      trials1: p.baseline.length,
      trials2: p.candidate.length,
      errors1: p.baseline_errors,
      errors2: p.candidate_errors,
      evaluators: p.evaluators.map((e) => ({
        name: e.name,
        score1: e.baseline_score,
        score2: e.candidate_score,
        delta: e.delta,
      })),
    })),
    unmatched: { file1: summary.only_baseline, file2: summary.only_candidate },
    only_baseline: pairing.only_baseline.map(unpairedJson),
    only_candidate: pairing.only_candidate.map(unpairedJson),
    summary: {
      total: summary.baseline_rows + summary.candidate_rows,
      matched: summary.pairs,
      wins: summary.wins,
      losses: summary.losses,
      ties: summary.ties,
      mean_delta: summary.mean_delta,
      median_delta: summary.median_delta,
      baseline_mean: summary.baseline_mean,
      candidate_mean: summary.candidate_mean,
      pass_to_fail: summary.pass_to_fail,
      baseline_errors: summary.baseline_errors,
      candidate_errors: summary.candidate_errors,
      flips: summary.flips.map((f) => ({
        dataset: f.dataset,
        eval_id: f.eval_id,
        flip: f.flip,
        score1: f.baseline_score,
        score2: f.candidate_score,
        delta: f.delta,
      })),
      evaluators: summary.evaluators,
    },
    statistics: {
      confidence_interval: summary.interval === null
        ? null
        : { method: "paired bootstrap percentile", ...summary.interval },
      wilcoxon: summary.wilcoxon,
      sign_test: summary.sign_test,
      alpha: summary.alpha,
      significant: summary.significant,
    },
    verdict: summary.verdict,
    verdict_line: summary.verdict_line,
  };
}
