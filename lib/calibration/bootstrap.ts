/**
 * Seeded percentile bootstrap of several figures at once: the labelled units are resampled with
 * replacement (the same resamples for every figure), each figure is computed on each resample, and
 * its interval is the (1 − c)/2 and (1 + c)/2 quantiles of those values. The generator is the
 * seeded one of `agentv compare`, so the same labels give the same intervals on every machine.
 *
 * @module
 */
import { createRng, DEFAULT_SEED, quantileSorted } from "../compare/statistics.ts";
import type { Interval } from "../compare/intervals.ts";

/** A figure, the interval around it and the number of units it rests on. */
export interface Estimate {
  /** The figure on all units; `null` when it is undefined for them. */
  value: number | null;
  /** Its bootstrap interval; `null` when the figure is undefined on most resamples. */
  ci: Interval | null;
  /** The units it rests on (e.g. people's passes for the sensitivity). */
  n: number;
}

/** How the bootstrap runs. */
export interface BootstrapSettings {
  /** Seed of the generator (default `agentv compare`'s, 20251115). */
  seed: number;
  /** Resamples drawn (default 2,000). */
  resamples: number;
  /** Coverage of the intervals (default 0.95). */
  confidence: number;
}

/** The default settings: the compare seed, 2,000 resamples, 95 %. */
export const DEFAULT_BOOTSTRAP: BootstrapSettings = {
  seed: DEFAULT_SEED,
  resamples: 2000,
  confidence: 0.95,
};

/** A figure computed on a sample of units; `null` when undefined on it. */
export type Figure<U> = (sample: readonly U[]) => number | null;

/**
 * Percentile intervals of each figure over `settings.resamples` resamples of `units`. A figure
 * that is undefined (`null`) on more than half of the resamples gets no interval; otherwise the
 * quantiles are over the resamples where it is defined. No units: no intervals.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bootstrapIntervals, DEFAULT_BOOTSTRAP } from "./bootstrap.ts";
 * const units = [1, 0, 1, 1, 0, 1, 1, 1, 0, 1];
 * const { share } = bootstrapIntervals(units, {
 *   share: (s) => s.reduce((a, b) => a + b, 0) / s.length,
 * }, DEFAULT_BOOTSTRAP);
 * assert.ok(share !== null && share.low < 0.7 && share.high > 0.7);
 * ```
 */
export function bootstrapIntervals<U, K extends string>(
  units: readonly U[],
  figures: Record<K, Figure<U>>,
  settings: BootstrapSettings,
): Record<K, Interval | null> {
  const names = Object.keys(figures) as K[];
  const out = {} as Record<K, Interval | null>;
  const n = units.length;
  if (n === 0 || settings.resamples < 1) {
    for (const name of names) out[name] = null;
    return out;
  }
  const values = names.map(() => new Float64Array(settings.resamples));
  const defined = names.map(() => 0);
  const rng = createRng(settings.seed);
  const sample = new Array<U>(n);
  for (let b = 0; b < settings.resamples; b++) {
    for (let i = 0; i < n; i++) sample[i] = units[Math.floor(rng() * n)];
    names.forEach((name, k) => {
      const v = figures[name](sample);
      if (v !== null && Number.isFinite(v)) values[k][defined[k]++] = v;
    });
  }
  const tail = (1 - settings.confidence) / 2;
  names.forEach((name, k) => {
    if (defined[k] * 2 < settings.resamples) {
      out[name] = null;
      return;
    }
    const sorted = values[k].subarray(0, defined[k]).sort();
    out[name] = { low: quantileSorted(sorted, tail), high: quantileSorted(sorted, 1 - tail) };
  });
  return out;
}

/**
 * Each figure on all units, with its bootstrap interval and the units it rests on (`count`,
 * default all of them). A figure undefined on all units gets no interval.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_BOOTSTRAP, estimateFigures } from "./bootstrap.ts";
 * const { mean } = estimateFigures([0.2, 0.4], {
 *   mean: (s) => s.reduce((a, b) => a + b, 0) / s.length,
 * }, DEFAULT_BOOTSTRAP);
 * assert.equal(mean.n, 2);
 * assert.ok(Math.abs(mean.value! - 0.3) < 1e-12);
 * ```
 */
export function estimateFigures<U, K extends string>(
  units: readonly U[],
  figures: Record<K, Figure<U>>,
  settings: BootstrapSettings,
  count: Partial<Record<K, number>> = {},
): Record<K, Estimate> {
  const intervals = bootstrapIntervals(units, figures, settings);
  const out = {} as Record<K, Estimate>;
  for (const name of Object.keys(figures) as K[]) {
    const value = figures[name](units);
    out[name] = {
      value,
      ci: value === null ? null : intervals[name],
      n: count[name] ?? units.length,
    };
  }
  return out;
}
