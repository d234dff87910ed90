/**
 * The N-way comparison of `agentv compare RESULTS...`: a leaderboard of the arms
 * (`leaderboard.ts`), every pair of arms compared on the cases both ran (the paired comparison of
 * two runs, `pair.ts` and `summary.ts`, unchanged: the paired bootstrap interval of the mean Δ,
 * the exact Wilcoxon signed-rank and sign tests) with Holm's correction for the number of pairs
 * (`holm.ts`), the cost–quality fronts (`pareto.ts`), each case's verdict per arm, and the gates.
 *
 * A pair's difference is significant when its bootstrap interval excludes 0 and its
 * Holm-corrected Wilcoxon p is below α (0.05). With two arms there is one pair, the correction
 * changes nothing, and the pair's figures are those of the two-file comparison.
 *
 * @module
 */
import type { Verdict } from "../schema/result.ts";
import type { Arm } from "./arms.ts";
import { holmAdjust } from "./holm.ts";
import { armCases, type ArmStats, armStats } from "./leaderboard.ts";
import { DEFAULT_TIE_DELTA, pairRuns } from "./pair.ts";
import { paretoFront } from "./pareto.ts";
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from "./statistics.ts";
import { type ComparisonSummary, summarizeComparison } from "./summary.ts";

/** One pair of arms compared on the cases both ran; Δ = `candidate` − `baseline`. */
export interface PairComparison {
  /** The arm compared against (the earlier one: the baseline comes first). */
  baseline: string;
  /** The other arm. */
  candidate: string;
  /** The two-run comparison of their rows (`summarizeComparison`). */
  summary: ComparisonSummary;
  /** The Wilcoxon p corrected by Holm's method for every pair. */
  p_holm: number;
  /** Whether Δ is significant after the correction (interval excludes 0, `p_holm` < α). */
  significant: boolean;
  /** The significantly better arm's label, else `null`. */
  better: string | null;
}

/** One arm's outcome on one case, over its trials. */
export interface CaseOutcome {
  /** Mean score over its rows. */
  score: number;
  /** Its verdict over its rows. */
  verdict: Verdict;
  /** Rows (trials). */
  trials: number;
  /** Rows with status `error`. */
  errors: number;
}

/** One case: each arm's outcome (`null`: the arm did not run it). */
export interface MatrixCase {
  /** Dataset name. */
  dataset: string;
  /** Case id. */
  eval_id: string;
  /** By arm label. */
  arms: Record<string, CaseOutcome | null>;
}

/** Everything an N-way comparison shows. */
export interface MatrixComparison {
  /** The arms in input order, the baseline first. */
  arms: Arm[];
  /** The baseline's label. */
  baseline: string;
  /** The arms' statistics, best mean score first (input order among equals). */
  leaderboard: ArmStats[];
  /** Every pair, in input order (the baseline's pairs first). */
  pairs: PairComparison[];
  /** Significance level. */
  alpha: number;
  /** Bootstrap seed and resamples. */
  seed: number;
  /** Bootstrap resamples. */
  resamples: number;
  /** The tie delta of each pair's wins / losses / ties. */
  delta: number;
  /** Labels of the arms on the front of score vs cost per case, and of score vs p50 latency. */
  pareto: { cost: string[]; latency: string[] };
  /** Every case, in the order first seen. */
  cases: MatrixCase[];
}

/** Options of {@link compareArms}. */
export interface CompareArmsOptions {
  /** Index of the baseline arm (default 0). */
  baseline?: number;
  /** Bootstrap seed (default {@link DEFAULT_SEED}). */
  seed?: number;
  /** Bootstrap resamples (default {@link DEFAULT_RESAMPLES}). */
  resamples?: number;
  /** Tie delta (default {@link DEFAULT_TIE_DELTA}). */
  delta?: number;
}

/**
 * Compares N arms (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { armsOf } from "./arms.ts";
 * import { compareArms } from "./matrix.ts";
 * const row = (target: string, eval_id: string, score: number) =>
 *   ({ dataset: "d", eval_id, target, status: "ok", score, duration_ms: 1,
 *      verdict: score >= 0.8 ? "pass" : "fail", evaluator_results: [] }) as never;
 * const rows = ["a", "b", "c"].flatMap((t, i) =>
 *   [1, 2, 3].map((c) => row(t, `c${c}`, 0.5 + i * 0.2))
 * );
 * const m = compareArms(armsOf([{ source: "r.jsonl", rows }]));
 * assert.deepEqual(m.leaderboard.map((s) => s.label), ["c", "b", "a"]);
 * assert.equal(m.pairs.length, 3);
 * ```
 */
export function compareArms(
  inputArms: readonly Arm[],
  options: CompareArmsOptions = {},
): MatrixComparison {
  const first = options.baseline ?? 0;
  const arms = [inputArms[first], ...inputArms.filter((_, i) => i !== first)];
  const seed = options.seed ?? DEFAULT_SEED;
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const delta = options.delta ?? DEFAULT_TIE_DELTA;
  const stats = arms.map((arm) => armStats(arm, { seed, resamples }));
  const leaderboard = stats.map((s, i) => ({ s, i })).sort((x, y) =>
    (y.s.mean ?? -Infinity) - (x.s.mean ?? -Infinity) || x.i - y.i
  ).map(({ s }) => s);
  const raw: Omit<PairComparison, "p_holm" | "significant" | "better">[] = [];
  for (let i = 0; i < arms.length; i++) {
    for (let j = i + 1; j < arms.length; j++) {
      const pairing = pairRuns(arms[i].rows, arms[j].rows, { delta });
      raw.push({
        baseline: arms[i].label,
        candidate: arms[j].label,
        summary: summarizeComparison(pairing, { seed, resamples }),
      });
    }
  }
  const adjusted = holmAdjust(raw.map((p) => p.summary.wilcoxon.p_value));
  const alpha = raw[0]?.summary.alpha ?? 0.05;
  const pairs = raw.map((p, i): PairComparison => {
    const ci = p.summary.interval;
    const direction = ci === null ? 0 : ci.low > 0 ? 1 : ci.high < 0 ? -1 : 0;
    const significant = direction !== 0 && adjusted[i] < alpha;
    return {
      ...p,
      p_holm: adjusted[i],
      significant,
      better: !significant ? null : direction > 0 ? p.candidate : p.baseline,
    };
  });
  return {
    arms,
    baseline: arms[0].label,
    leaderboard,
    pairs,
    alpha,
    seed,
    resamples,
    delta,
    pareto: {
      cost: paretoFront(
        stats.map((s) => ({ label: s.label, score: s.mean, cost: s.cost_per_case })),
      ),
      latency: paretoFront(
        stats.map((s) => ({ label: s.label, score: s.mean, cost: s.latency_p50_ms })),
      ),
    },
    cases: matrixCases(arms),
  };
}

/** Every case of the arms, in the order first seen, with each arm's outcome. */
function matrixCases(arms: readonly Arm[]): MatrixCase[] {
  const cases = new Map<string, MatrixCase>();
  for (const arm of arms) {
    for (const c of armCases(arm.rows)) {
      let entry = cases.get(c.key);
      if (!entry) {
        entry = {
          dataset: c.dataset,
          eval_id: c.eval_id,
          arms: Object.fromEntries(arms.map((a) => [a.label, null])),
        };
        cases.set(c.key, entry);
      }
      entry.arms[arm.label] = {
        score: c.score,
        verdict: c.verdict,
        trials: c.trials,
        errors: c.errors,
      };
    }
  }
  return [...cases.values()];
}

/** The pair of two arms (in either order), if they were compared. */
export function pairOf(
  m: MatrixComparison,
  a: string,
  b: string,
): PairComparison | undefined {
  return m.pairs.find((p) =>
    (p.baseline === a && p.candidate === b) || (p.baseline === b && p.candidate === a)
  );
}

/**
 * Why `--fail-on MODE` fails on an N-way comparison (empty: it passes): `regression` and
 * `significant` when a candidate is significantly worse than the baseline after Holm's
 * correction, `flips` when a case went pass→fail from the baseline to a candidate.
 *
 * @example
 * ```ts ignore
 * failOnReasons(matrix, "regression"); // ["b is significantly worse than the baseline a (...)"]
 * ```
 */
export function failOnReasons(
  m: MatrixComparison,
  mode: "regression" | "flips" | "significant",
): string[] {
  const reasons: string[] = [];
  for (const p of m.pairs.filter((p) => p.baseline === m.baseline)) {
    if (mode !== "flips" && p.better === p.baseline) {
      reasons.push(
        `${p.candidate} is significantly worse than the baseline ${p.baseline} ` +
          `(Holm-corrected p = ${formatHolm(p.p_holm)})`,
      );
    }
    if (mode === "flips" && p.summary.pass_to_fail > 0) {
      reasons.push(
        `${p.summary.pass_to_fail} case(s) went from pass (${p.baseline}) to fail (${p.candidate})`,
      );
    }
  }
  return reasons;
}

/**
 * Why `--require-best NAME` fails (empty: NAME is not significantly beaten by any arm after
 * Holm's correction).
 */
export function requireBestReasons(m: MatrixComparison, label: string): string[] {
  return m.pairs.filter((p) =>
    (p.baseline === label || p.candidate === label) && p.better !== null && p.better !== label
  ).map((p) =>
    `${label} is significantly beaten by ${p.better} (Holm-corrected p = ${formatHolm(p.p_holm)})`
  );
}

function formatHolm(p: number): string {
  return p < 0.0001 ? "< 0.0001" : String(Number(p.toPrecision(4)));
}
