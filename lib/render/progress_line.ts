/**
 * The live progress line of a run: its layout at a given terminal width and the ETA estimate
 * that accounts for the cases in flight across the workers.
 *
 * @module
 */
import { clipToWidth, displayWidth } from "../text/display_width.ts";
import { formatDuration, painter } from "./console_text.ts";

/** Verdict and error counts of the finished cases. */
export interface ProgressCounts {
  /** Cases with a `pass` verdict. */
  pass: number;
  /** Cases with a `borderline` verdict. */
  borderline: number;
  /** Cases with a `fail` verdict. */
  fail: number;
  /** Cases with status `error`. */
  error: number;
}

/** What the live line shows. */
export interface ProgressSnapshot {
  /** Cases finished (rows written). */
  done: number;
  /** Cases in the run. */
  total: number;
  /** Counts of the finished cases. */
  counts: ProgressCounts;
  /** Time since the run started. */
  elapsedMs: number;
  /** Estimated time left; absent while unknown (no case finished yet) or when done. */
  etaMs?: number;
  /** The run was interrupted and is stopping (shown instead of the ETA). */
  stopping?: boolean;
}

/** Options of {@link formatProgressLine}. */
export interface ProgressLineOptions {
  /** Terminal width: the line takes at most `columns - 1` columns (the cursor never wraps). */
  columns: number;
  /** Whether to use ANSI colours (they take no columns). */
  color: boolean;
}

/**
 * The live progress line: the most detailed of three layouts that fits in `columns - 1`
 * display columns, clipped when even the shortest does not fit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatProgressLine } from "./progress_line.ts";
 * const snapshot = {
 *   done: 2,
 *   total: 4,
 *   counts: { pass: 1, borderline: 0, fail: 1, error: 0 },
 *   elapsedMs: 4000,
 *   etaMs: 4000,
 * };
 * assert.equal(
 *   formatProgressLine(snapshot, { columns: 80, color: false }),
 *   "2/4  pass 1  borderline 0  fail 1  error 0  4.0s  ETA 4.0s",
 * );
 * assert.equal(
 *   formatProgressLine(snapshot, { columns: 40, color: false }),
 *   "2/4  ✓1 ~0 ✗1 !0  4.0s  ETA 4.0s",
 * );
 * ```
 */
export function formatProgressLine(
  snapshot: ProgressSnapshot,
  options: ProgressLineOptions,
): string {
  const paint = painter(options.color);
  const { done, total, counts: c } = snapshot;
  const time = [formatDuration(snapshot.elapsedMs)];
  if (snapshot.stopping) time.push(paint("yellow", "stopping"));
  else if (snapshot.etaMs !== undefined) time.push(`ETA ${formatDuration(snapshot.etaMs)}`);
  const layouts = [
    [
      `${done}/${total}`,
      paint("green", `pass ${c.pass}`),
      paint("yellow", `borderline ${c.borderline}`),
      paint("red", `fail ${c.fail}`),
      paint("red", `error ${c.error}`),
      ...time,
    ],
    [
      `${done}/${total}`,
      [
        paint("green", `✓${c.pass}`),
        paint("yellow", `~${c.borderline}`),
        paint("red", `✗${c.fail}`),
        paint("red", `!${c.error}`),
      ].join(" "),
      ...time,
    ],
    [`${done}/${total}`, ...time],
  ].map((parts) => parts.join("  "));
  const room = Math.max(1, options.columns - 1);
  return layouts.find((line) => displayWidth(line) <= room) ??
    clipToWidth(layouts[layouts.length - 1], room, { ellipsis: "" });
}

/** What {@link estimateRemainingMs} works from. */
export interface RemainingWork {
  /** Mean duration of the finished cases, in ms. */
  meanMs: number;
  /** Cases not started yet. */
  notStarted: number;
  /** How long each case in flight has been running, in ms. */
  inFlightElapsedMs: readonly number[];
  /** Cases that run at once. */
  workers: number;
}

/**
 * Estimated ms until the run ends, from the mean case duration and the workers in flight: each
 * running case is expected to need `mean - elapsed` more (at least 0), each case not started
 * `mean`; that work is shared by the workers, but the run cannot end before its longest running
 * case, nor (when cases are waiting) before the first worker frees up plus one mean duration.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { estimateRemainingMs } from "./progress_line.ts";
 * // 4 workers; three cases running for 3s, 9s and 15s; mean 10s; 5 waiting:
 * // (7 + 1 + 0 + 0 + 5 × 10) / 4 = 14.5s
 * const eta = estimateRemainingMs({
 *   meanMs: 10_000,
 *   notStarted: 5,
 *   inFlightElapsedMs: [3_000, 9_000, 15_000],
 *   workers: 4,
 * });
 * assert.equal(eta, 14_500);
 * ```
 */
export function estimateRemainingMs(work: RemainingWork): number {
  const workers = Math.max(1, work.workers, work.inFlightElapsedMs.length);
  const slots = work.inFlightElapsedMs.map((e) => Math.max(0, work.meanMs - e));
  while (slots.length < workers) slots.push(0);
  const shared = (slots.reduce((a, b) => a + b, 0) + work.notStarted * work.meanMs) / workers;
  const longest = Math.max(...slots);
  const nextFree = work.notStarted > 0 ? Math.min(...slots) + work.meanMs : 0;
  return Math.max(shared, longest, nextFree);
}
