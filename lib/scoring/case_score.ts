/**
 * Combines the evaluator results of one case into the case score, verdict and status.
 *
 * @module
 */
import type { EvaluatorResult, Verdict } from "../schema/result.ts";
import { clampScore, scoreToVerdict } from "./verdict.ts";

/** The aggregated outcome of a case. */
export interface CaseScore {
  /** Weighted mean of the counted evaluators' scores, in [0, 1]. */
  score: number;
  /** Verdict from the score, or `fail` when a counted evaluator forces it. */
  verdict: Verdict;
  /**
   * `error` when any evaluator (counted or not) could not score, or none ran; `skipped` when
   * every evaluator was skipped (a dry run of code judges only).
   */
  status: "ok" | "error" | "skipped";
  /** Hits of the counted evaluators, in order. */
  hits: string[];
  /** Misses of the counted evaluators, in order. */
  misses: string[];
  /** `name: reasoning` of the counted evaluators, joined by ` | `. */
  reasoning?: string;
  /** `name: reason` of the evaluator that forced the `fail` verdict. */
  forced_by?: string;
}

/** Reads `details.forces_fail` (a non-empty reason string), if present. */
function forcesFail(result: EvaluatorResult): string | undefined {
  const details = result.details;
  if (details === null || typeof details !== "object" || Array.isArray(details)) return undefined;
  const reason = (details as Record<string, unknown>).forces_fail;
  return typeof reason === "string" && reason.trim() !== "" ? reason : undefined;
}

/**
 * Aggregates evaluator results into the case score.
 *
 * Rules:
 * - score = Σ weight·score / Σ weight over evaluators with weight > 0 (scores clamped first);
 * - `skipped` results (code judges in a dry run) are left out entirely;
 * - weight-0 evaluators are reported on the row but stay out of the score, hits, misses and
 *   reasoning — unless *every* evaluator has weight 0: weights are relative, so all-zero is read
 *   as all-equal (plain mean, every evaluator counted);
 * - verdict from the score (pass >= 0.8, borderline >= 0.6), except that a counted result with
 *   `details.forces_fail` (e.g. a failed required rubric) forces `fail`;
 * - any `error` result (even weight 0) makes the status `error`; no results at all is an error
 *   too (score 0, verdict `fail`), never a silent pass.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { aggregateCaseScore } from "./case_score.ts";
 * const base = { status: "ok" as const, verdict: "pass" as const, hits: [], misses: [] };
 * const c = aggregateCaseScore([
 *   { ...base, name: "a", type: "contains", score: 1, weight: 3 },
 *   { ...base, name: "b", type: "regex", score: 0, weight: 1, verdict: "fail" },
 * ]);
 * assert.equal(c.score, 0.75);
 * assert.equal(c.verdict, "borderline");
 * ```
 */
export function aggregateCaseScore(all: readonly EvaluatorResult[]): CaseScore {
  // Skipped results (code judges in a dry run) did not run and never count.
  const results = all.filter((r) => r.status !== "skipped");
  if (results.length === 0 && all.length > 0) {
    return {
      score: 0,
      verdict: "fail",
      status: "skipped",
      hits: [],
      misses: [],
      reasoning: "every evaluator was skipped",
    };
  }
  if (results.length === 0) {
    return {
      score: 0,
      verdict: "fail",
      status: "error",
      hits: [],
      misses: ["No evaluator produced a result"],
      reasoning: "no evaluator produced a result",
    };
  }
  const anyPositive = results.some((r) => r.weight > 0);
  const counted = anyPositive ? results.filter((r) => r.weight > 0) : results;
  const weightOf = (r: EvaluatorResult) => anyPositive ? r.weight : 1;

  let weighted = 0;
  let total = 0;
  for (const r of counted) {
    weighted += weightOf(r) * clampScore(r.score);
    total += weightOf(r);
  }
  const score = total > 0 ? clampScore(weighted / total) : 0;

  let verdict = scoreToVerdict(score);
  let forcedBy: string | undefined;
  for (const r of counted) {
    const reason = forcesFail(r);
    if (reason !== undefined) {
      verdict = "fail";
      forcedBy = `${r.name}: ${reason}`;
      break;
    }
  }

  const reasons = counted
    .filter((r) => r.reasoning !== undefined && r.reasoning.trim() !== "")
    .map((r) => `${r.name}: ${r.reasoning}`);
  return {
    score,
    verdict,
    status: results.some((r) => r.status === "error") ? "error" : "ok",
    hits: counted.flatMap((r) => r.hits),
    misses: counted.flatMap((r) => r.misses),
    ...(reasons.length > 0 ? { reasoning: reasons.join(" | ") } : {}),
    ...(forcedBy !== undefined ? { forced_by: forcedBy } : {}),
  };
}
