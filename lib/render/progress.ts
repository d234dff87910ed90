/**
 * Console progress of a run. On a terminal: one live line (done/total, verdict counts, elapsed,
 * ETA) redrawn on every finished case and by a timer, so elapsed time ticks during slow calls;
 * the line is clipped to the terminal width (measured in display columns) so a narrow terminal
 * never gets a trail of wrapped lines. Elsewhere: one plain line per case. Nothing with `quiet`.
 *
 * The clock, the timer and the terminal width are injected, so tests are deterministic.
 *
 * @module
 */
import type { RunEvent } from "../results/events.ts";
import { escapeControl as clean } from "../text/escape_control.ts";
import type { ResultRow } from "../schema/result.ts";
import { formatDuration, type Paint, painter, showPath } from "./console_text.ts";
import { trialLabel } from "../results/trials.ts";
import {
  estimateRemainingMs,
  formatProgressLine,
  type ProgressCounts,
  type ProgressSnapshot,
} from "./progress_line.ts";

export {
  estimateRemainingMs,
  formatProgressLine,
  type ProgressCounts,
  type ProgressLineOptions,
  type ProgressSnapshot,
  type RemainingWork,
} from "./progress_line.ts";

/** Starts a repeating timer calling `fn` every `ms`; returns the function that stops it. */
export type StartTimer = (ms: number, fn: () => void) => () => void;

/** Options of {@link createProgressReporter}. */
export interface ProgressOptions {
  /** Where progress goes (stdout, or stderr when stdout carries JSON). */
  write: (text: string) => void;
  /** Whether the output is a terminal: one live `\r` line instead of per-case lines. */
  isTTY: boolean;
  /** Whether to use ANSI colours. */
  color: boolean;
  /** Print nothing (default false). */
  quiet?: boolean;
  /** Also print targets, retries and case starts (default false). */
  verbose?: boolean;
  /** Clock in ms (default `Date.now`). */
  now?: () => number;
  /** Paths are shown relative to this folder (default: absolute). */
  cwd?: string;
  /** Minimum ms between redraws caused by finished cases (default 80). */
  redrawMs?: number;
  /** Terminal width in columns, read at every redraw (default 80). */
  columns?: () => number;
  /** Period of the redraw timer in ms (default 500: at least one redraw a second). */
  tickMs?: number;
  /** The repeating timer (default `setInterval`, unreferenced so it never holds the process). */
  startTimer?: StartTimer;
}

/** Consumes run events and prints progress. */
export interface ProgressReporter {
  /** Handles one event. */
  onEvent(event: RunEvent): void;
  /** Stops the timer and clears the live line (call before printing the summary). */
  finish(): void;
  /** Same as `finish()`, for `using`. */
  [Symbol.dispose](): void;
}

function rowLabel(row: ResultRow, paint: Paint): string {
  if (row.status === "error") return paint("red", "ERROR ");
  if (row.status === "skipped") return paint("yellow", "skip  ");
  if (row.verdict === "pass") return paint("green", "pass  ");
  if (row.verdict === "borderline") return paint("yellow", "border");
  return paint("red", "FAIL  ");
}

function startInterval(ms: number, fn: () => void): () => void {
  const id = setInterval(fn, ms);
  Deno.unrefTimer(id);
  return () => clearInterval(id);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Creates a progress reporter for `runEval`'s `onEvent`. Call `finish()` when the run ends,
 * also when it throws (or declare it with `using`): it stops the redraw timer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createProgressReporter } from "./progress.ts";
 * const written: string[] = [];
 * {
 *   using progress = createProgressReporter({
 *     write: (t) => written.push(t),
 *     isTTY: false,
 *     color: false,
 *   });
 *   // runEval({ ..., onEvent: progress.onEvent }) sends it the run's events:
 *   progress.onEvent({ type: "run_started", total: 1, files: [], workers: 1, dry_run: false } as never);
 * }
 * assert.deepEqual(written, ["Running 1 case from 0 files with 1 worker\n"]);
 * ```
 */
export function createProgressReporter(options: ProgressOptions): ProgressReporter {
  const paint = painter(options.color);
  const now = options.now ?? Date.now;
  const redrawMs = options.redrawMs ?? 80;
  const live = options.isTTY && !options.quiet;
  let total = 0;
  let workers = 1;
  let done = 0;
  let startedCases = 0;
  let startedAt = now();
  const counts: ProgressCounts = { pass: 0, borderline: 0, fail: 0, error: 0 };
  /** Start times of the cases in flight, by dataset, id and target (first in, first out). */
  const inFlight = new Map<string, number[]>();
  let durationSum = 0;
  let durationCount = 0;
  let stopping = false;
  let liveShown = false;
  let lastDraw = -Infinity;
  let stopTimer: (() => void) | undefined;

  const write = (text: string) => {
    if (!options.quiet) options.write(text);
  };
  const clearLive = () => {
    if (liveShown) {
      write("\r\x1b[K");
      liveShown = false;
    }
  };
  const snapshot = (t: number): ProgressSnapshot => {
    const shot: ProgressSnapshot = { done, total, counts, elapsedMs: t - startedAt };
    if (stopping) shot.stopping = true;
    else if (durationCount > 0 && done < total) {
      shot.etaMs = estimateRemainingMs({
        meanMs: durationSum / durationCount,
        notStarted: Math.max(0, total - Math.max(startedCases, done)),
        inFlightElapsedMs: [...inFlight.values()].flat().map((s) => t - s),
        workers,
      });
    }
    return shot;
  };
  const draw = (force: boolean) => {
    if (!live) return;
    const t = now();
    if (!force && t - lastDraw < redrawMs) return;
    lastDraw = t;
    const columns = options.columns?.() ?? 80;
    const line = formatProgressLine(snapshot(t), {
      columns: Number.isFinite(columns) && columns > 0 ? columns : 80,
      color: options.color,
    });
    write(`\r${line}\x1b[K`);
    liveShown = true;
  };
  const stop = () => {
    stopTimer?.();
    stopTimer = undefined;
  };
  /** Prints a permanent line (above the live line on a TTY). */
  const line = (text: string) => {
    clearLive();
    write(text + "\n");
    draw(true);
  };
  const key = (dataset: string, id: string, target: string) => `${dataset}\0${id}\0${target}`;

  const onCaseFinished = (row: ResultRow, eventTotal: number) => {
    done++;
    total = Math.max(total, eventTotal);
    const starts = inFlight.get(key(row.dataset, row.eval_id, row.target));
    const startedAtCase = starts?.shift();
    if (starts?.length === 0) inFlight.delete(key(row.dataset, row.eval_id, row.target));
    durationSum += startedAtCase !== undefined ? now() - startedAtCase : row.duration_ms;
    durationCount++;
    if (row.status === "error") counts.error++;
    else if (row.status !== "skipped") counts[row.verdict]++;
    if (options.isTTY) {
      if (row.status === "error") {
        line(`${paint("red", "✗")} ${clean(trialLabel(row))}: ${clean(row.error ?? "error")}`);
      } else draw(done === total);
      return;
    }
    const head = `[${done}/${total}] ${rowLabel(row, paint)}`;
    if (row.status === "skipped") {
      line(`${head} ${clean(trialLabel(row))}: ${clean(row.error ?? "skipped")}`);
    } else if (row.status === "error") {
      const tries = row.attempts > 1 ? ` (${row.attempts} attempts)` : "";
      line(`${head} ${clean(trialLabel(row))}: ${clean(row.error ?? "error")}${tries}`);
    } else {
      line(
        `${head} ${row.score.toFixed(3)}  ${clean(trialLabel(row))}  ${
          paint("dim", formatDuration(row.duration_ms))
        }`,
      );
    }
  };

  const reporter: ProgressReporter = {
    onEvent(event: RunEvent) {
      if (options.quiet) return;
      switch (event.type) {
        case "run_started": {
          total = event.total;
          workers = event.workers;
          startedAt = now();
          const where = event.results_path ? ` → ${showPath(event.results_path, options.cwd)}` : "";
          const dry = event.dry_run ? paint("yellow", " (dry run: targets replaced by mocks)") : "";
          line(
            `Running ${plural(event.total, "case")} from ${
              plural(event.files.length, "file")
            } with ${plural(event.workers, "worker")}${dry}${where}`,
          );
          if (live && stopTimer === undefined) {
            stopTimer = (options.startTimer ?? startInterval)(
              options.tickMs ?? 500,
              () => draw(true),
            );
          }
          break;
        }
        case "target_resolved":
          for (const warning of event.warnings ?? []) {
            line(paint("yellow", `warning: ${clean(warning)}`));
          }
          if (options.verbose) {
            const from = event.targets_file
              ? ` from ${showPath(event.targets_file, options.cwd)}`
              : "";
            const cap = event.workers !== undefined ? `, workers ${event.workers}` : "";
            const judge = event.judge_target ? `, judge '${clean(event.judge_target)}'` : "";
            line(
              paint(
                "dim",
                `Using target '${clean(event.target)}' [${
                  clean(event.provider)
                }]${from}${cap}${judge}`,
              ),
            );
          }
          break;
        case "case_started": {
          startedCases++;
          const k = key(event.dataset, event.eval_id, event.target);
          const t = now();
          const starts = inFlight.get(k);
          if (starts) starts.push(t);
          else inFlight.set(k, [t]);
          if (options.verbose && !options.isTTY) {
            line(paint("dim", `start ${clean(event.eval_id)} → ${clean(event.target)}`));
          }
          break;
        }
        case "retry":
          if (options.verbose) {
            line(
              paint(
                "yellow",
                `retry ${clean(event.eval_id)}: attempt ${event.attempt} failed (${
                  clean(event.reason)
                }); next in ${formatDuration(event.delay_ms)}`,
              ),
            );
          }
          break;
        case "cache_rejected":
          if (options.verbose) {
            const who = event.role === "judge" ? `judge '${clean(event.target)}' of ` : "";
            line(
              paint(
                "yellow",
                `cache: entry for ${who}${clean(event.eval_id)} (trial ${event.trial}) not used: ${
                  clean(event.reason)
                } (${showPath(event.path, options.cwd)})`,
              ),
            );
          }
          break;
        case "case_finished":
          onCaseFinished(event.row, event.total);
          break;
        case "interrupted":
          stop();
          stopping = true;
          line(
            paint(
              "yellow",
              `Interrupted: aborting ${
                plural(event.in_flight, "running case")
              }, ${event.not_started} not started (Ctrl-C again to exit now)`,
            ),
          );
          break;
        case "run_finished":
          stop();
          clearLive();
          break;
      }
    },
    finish() {
      stop();
      clearLive();
    },
    [Symbol.dispose]() {
      reporter.finish();
    },
  };
  return reporter;
}
