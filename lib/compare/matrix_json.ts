/**
 * The JSON output of an N-way `agentv compare --json`: the arms, the leaderboard, every pair with
 * its statistics and Holm-corrected p, the Pareto fronts, each case's outcome per arm and the
 * verdict. A pair's `statistics` have the shape of the two-file `compare --json` (`statistics`
 * there), so the figures of two arms can be read the same way in both.
 *
 * @module
 */
import type { ArmStats } from "./leaderboard.ts";
import type { MatrixCase, MatrixComparison, PairComparison } from "./matrix.ts";
import type { ConfidenceInterval, SignTestResult, WilcoxonResult } from "./statistics.ts";

/** Version of the JSON shape (bumped on an incompatible change). */
export const MATRIX_JSON_VERSION = 1;

/** One pair in {@link MatrixJson}; Δ = `candidate` − `baseline`. */
export interface PairJson {
  /** The arm compared against. */
  baseline: string;
  /** The other arm. */
  candidate: string;
  /** Cases both ran. */
  cases: number;
  /** Pairs with Δ above the tie delta. */
  wins: number;
  /** Pairs with Δ below minus the tie delta. */
  losses: number;
  /** Pairs with |Δ| at most the tie delta. */
  ties: number;
  /** Cases that went from pass (baseline) to fail (candidate). */
  pass_to_fail: number;
  /** Mean Δ over the cases both ran. */
  mean_delta: number | null;
  /** Median Δ. */
  median_delta: number | null;
  /** As in the two-file `compare --json`, plus the Holm-corrected p. */
  statistics: {
    confidence_interval: (ConfidenceInterval & { method: string }) | null;
    wilcoxon: WilcoxonResult;
    sign_test: SignTestResult;
    alpha: number;
    /** The Wilcoxon p corrected by Holm's method for every pair. */
    p_holm: number;
    /** Significant after the correction. */
    significant: boolean;
  };
  /** The significantly better arm, else `null`. */
  better: string | null;
}

/** The document an N-way `agentv compare --json` prints. */
export interface MatrixJson {
  /** {@link MATRIX_JSON_VERSION}. */
  schema_version: number;
  /** Always `matrix` (the two-file document has no `kind`). */
  kind: "matrix";
  /** The baseline's label. */
  baseline: string;
  /** The arms in input order (baseline first). */
  arms: { label: string; target: string; source: string; rows: number }[];
  /** Best mean score first, with the rank (1 = best). */
  leaderboard: (ArmStats & { rank: number })[];
  /** Every pair, baseline's first. */
  pairwise: PairJson[];
  /** The multiple-comparison correction applied to the pairs' p-values. */
  correction: { method: "holm"; pairs: number };
  /** The Pareto fronts (labels). */
  pareto: { score_vs_cost: string[]; score_vs_latency: string[] };
  /** Bootstrap seed, resamples and the tie delta. */
  settings: { seed: number; resamples: number; delta: number; alpha: number };
  /** Every case, with each arm's outcome (`null`: not run by it). */
  cases: MatrixCase[];
  /** The arms no other arm significantly beats. */
  top: string[];
  /** One line saying which arm is best, if any. */
  verdict_line: string;
}

/**
 * The arms no other arm significantly beats (after Holm's correction), in leaderboard order.
 *
 * @example
 * ```ts ignore
 * topArms(matrix); // ["b"]: every other arm is significantly beaten by some arm
 * ```
 */
export function topArms(m: MatrixComparison): string[] {
  const beaten = new Set(
    m.pairs.flatMap((p) =>
      p.better === null ? [] : [p.better === p.baseline ? p.candidate : p.baseline]
    ),
  );
  return m.leaderboard.map((s) => s.label).filter((label) => !beaten.has(label));
}

/**
 * The verdict of an N-way comparison in one line: the best arm when one significantly beats every
 * other, else the arms none beats.
 *
 * @example
 * ```ts ignore
 * matrixVerdictLine(matrix); // "b is best: it significantly beats a and c (Holm-corrected, 3 pairs)"
 * ```
 */
export function matrixVerdictLine(m: MatrixComparison): string {
  const top = topArms(m);
  const pairs = `Holm-corrected for ${m.pairs.length} pair${m.pairs.length === 1 ? "" : "s"}`;
  if (top.length === 1) {
    const best = top[0];
    const beaten = new Set(
      m.pairs.filter((p) => p.better === best).map((p) =>
        p.baseline === best ? p.candidate : p.baseline
      ),
    );
    const beats = m.leaderboard.map((s) => s.label).filter((label) => beaten.has(label));
    if (beats.length === m.arms.length - 1) {
      return `${best} is best: it significantly beats ${andList(beats)} (${pairs})`;
    }
    return `${best} leads: no arm significantly beats it; it significantly beats ${
      andList(beats)
    } (${pairs})`;
  }
  return `no single best: ${andList(top)} are not significantly beaten by any other (${pairs})`;
}

function andList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function pairJson(p: PairComparison): PairJson {
  const s = p.summary;
  return {
    baseline: p.baseline,
    candidate: p.candidate,
    cases: s.pairs,
    wins: s.wins,
    losses: s.losses,
    ties: s.ties,
    pass_to_fail: s.pass_to_fail,
    mean_delta: s.mean_delta,
    median_delta: s.median_delta,
    statistics: {
      confidence_interval: s.interval === null
        ? null
        : { method: "paired bootstrap percentile", ...s.interval },
      wilcoxon: s.wilcoxon,
      sign_test: s.sign_test,
      alpha: s.alpha,
      p_holm: p.p_holm,
      significant: p.significant,
    },
    better: p.better,
  };
}

/**
 * The JSON document of an N-way comparison (a plain object; `JSON.stringify` it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { armsOf } from "./arms.ts";
 * import { compareArms } from "./matrix.ts";
 * import { matrixToJson } from "./matrix_json.ts";
 * const row = (target: string, score: number) =>
 *   ({ dataset: "d", eval_id: "x", target, status: "ok", score, duration_ms: 1,
 *      verdict: score >= 0.8 ? "pass" : "fail", evaluator_results: [] }) as never;
 * const m = compareArms(armsOf([{ source: "r.jsonl", rows: [row("a", 1), row("b", 0.2)] }]));
 * const json = matrixToJson(m);
 * assert.deepEqual([json.kind, json.leaderboard[0].label, json.pairwise.length], ["matrix", "a", 1]);
 * ```
 */
export function matrixToJson(m: MatrixComparison): MatrixJson {
  return {
    schema_version: MATRIX_JSON_VERSION,
    kind: "matrix",
    baseline: m.baseline,
    arms: m.arms.map((a) => ({
      label: a.label,
      target: a.target,
      source: a.source,
      rows: a.rows.length,
    })),
    leaderboard: m.leaderboard.map((s, i) => ({ rank: i + 1, ...s })),
    pairwise: m.pairs.map(pairJson),
    correction: { method: "holm", pairs: m.pairs.length },
    pareto: { score_vs_cost: m.pareto.cost, score_vs_latency: m.pareto.latency },
    settings: { seed: m.seed, resamples: m.resamples, delta: m.delta, alpha: m.alpha },
    cases: m.cases,
    top: topArms(m),
    verdict_line: matrixVerdictLine(m),
  };
}
