/**
 * The trend of a series (one dataset on one target across runs): each run's pass rate with its
 * Wilson 95% interval, mean score with its normal 95% interval, cost and latency, and the drift
 * gate's verdict on the latest run (`lib/compare/drift.ts`). Shared by `agentv trend` and the
 * viewer, so both say the same.
 *
 * @module
 */
import {
  caseScores,
  DEFAULT_WINDOW,
  detectDrift,
  type DriftOptions,
  type DriftResult,
} from "../compare/drift.ts";
import { type Interval, meanInterval, wilsonInterval } from "../compare/intervals.ts";
import type { HistoryStore } from "./history_store.ts";
import type { RunFigures, RunGroup } from "./stored_run.ts";

/** One run of a series. */
export interface TrendPoint extends RunGroup {
  /** Pass verdicts over scored and errored rows (null when there are none). */
  pass_rate: number | null;
  /** Wilson 95% interval of the pass rate. */
  pass_interval: Interval | null;
  /** Normal 95% interval of the mean score. */
  mean_interval: Interval | null;
}

/** A series and the drift gate's verdict on its latest run. */
export interface Trend {
  /** The dataset. */
  dataset: string;
  /** The target. */
  target: string;
  /** Its runs, oldest first. */
  points: TrendPoint[];
  /** Runs before the latest that make the window (`--last`). */
  window: number;
  /** The drift gate's finding (null when the series has no run). */
  drift: DriftResult | null;
}

/** Options of {@link seriesTrend}. */
export interface TrendOptions extends DriftOptions {
  /** Runs before the latest that make the window (default {@link DEFAULT_WINDOW}). */
  last?: number;
}

/**
 * The pass rate of a run's figures: pass verdicts over scored and errored rows (an error is not
 * a pass); null when there are none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { passRate } from "./trend.ts";
 * assert.equal(passRate({ passed: 3, scored: 3, errors: 1 }), 0.75);
 * ```
 */
export function passRate(f: Pick<RunFigures, "passed" | "scored" | "errors">): number | null {
  const n = f.scored + f.errors;
  return n === 0 ? null : f.passed / n;
}

/** A group with its pass rate and intervals. */
export function trendPoint(group: RunGroup): TrendPoint {
  return {
    ...group,
    pass_rate: passRate(group),
    pass_interval: wilsonInterval(group.passed, group.scored + group.errors),
    mean_interval: group.mean_score === null
      ? null
      : meanInterval(group.mean_score, group.score_sd, group.scored),
  };
}

/**
 * The trend of one series, with the drift gate's verdict on its latest run.
 *
 * @example
 * ```ts ignore
 * const trend = await seriesTrend(store, { dataset: "qa", target: "gpt" }, { last: 5 });
 * console.log(trend.points.length, trend.drift?.verdict);
 * ```
 */
export async function seriesTrend(
  store: HistoryStore,
  key: { dataset: string; target: string },
  options: TrendOptions = {},
): Promise<Trend> {
  const last = options.last ?? DEFAULT_WINDOW;
  const points = (await store.series(key)).map(trendPoint);
  const trend: Trend = { ...key, points, window: last, drift: null };
  if (points.length === 0) return trend;
  const latest = points[points.length - 1];
  const window = points.slice(Math.max(0, points.length - 1 - last), points.length - 1);
  const ids = [latest.run_id, ...window.map((p) => p.run_id)];
  const byRun = new Map<string, { dataset: string; eval_id: string; score: number }[]>();
  for (const row of await store.scores(ids, key)) {
    const list = byRun.get(row.run_id);
    if (list) list.push(row);
    else byRun.set(row.run_id, [row]);
  }
  const scoresOf = (runId: string) => caseScores(byRun.get(runId) ?? []);
  trend.drift = detectDrift(
    scoresOf(latest.run_id),
    window.map((p) => scoresOf(p.run_id)),
    options,
  );
  return trend;
}
