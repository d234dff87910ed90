/**
 * Console rendering of a run: progress (a live line on a TTY, plain per-case lines otherwise,
 * nothing with `quiet`) and the end-of-run summary. Colours only when asked for.
 *
 * @module
 */
import { relative } from "node:path";
import type { RunEvent } from "./events.ts";
import { escapeControl as clean } from "../text/escape_control.ts";
import type { ResultRow } from "../schema/result.ts";
import type { RunSummary } from "./summary.ts";

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
  /** Minimum ms between live-line redraws (default 80). */
  redrawMs?: number;
}

/** Consumes run events and prints progress. */
export interface ProgressReporter {
  /** Handles one event. */
  onEvent(event: RunEvent): void;
  /** Clears the live line (call before printing the summary). */
  finish(): void;
}

const CODES = {
  red: "\x1b[31m",
  green: "\x1b[32m",
  yellow: "\x1b[33m",
  dim: "\x1b[2m",
  bold: "\x1b[1m",
} as const;

type Paint = (code: keyof typeof CODES, text: string) => string;

function painter(color: boolean): Paint {
  return (code, text) => color ? `${CODES[code]}${text}\x1b[0m` : text;
}

/** Formats a duration in ms as `1.2s`, `3m05s` or `340ms`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "?";
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  const rest = Math.round(s - m * 60);
  return `${m}m${String(rest).padStart(2, "0")}s`;
}

function showPath(path: string, cwd: string | undefined): string {
  if (cwd === undefined) return clean(path);
  const rel = relative(cwd, path);
  return clean(rel.startsWith("..") || rel === "" ? path : rel);
}

function rowLabel(row: ResultRow, paint: Paint): string {
  if (row.status === "error") return paint("red", "ERROR ");
  if (row.verdict === "pass") return paint("green", "pass  ");
  if (row.verdict === "borderline") return paint("yellow", "border");
  return paint("red", "FAIL  ");
}

/**
 * Creates a progress reporter for `runEval`'s `onEvent`.
 *
 * @example
 * ```ts
 * import { createProgressReporter } from "./console.ts";
 * const progress = createProgressReporter({ write: (t) => console.log(t), isTTY: false, color: false });
 * // runEval({ ..., onEvent: progress.onEvent }); then progress.finish();
 * ```
 */
export function createProgressReporter(options: ProgressOptions): ProgressReporter {
  const paint = painter(options.color);
  const now = options.now ?? Date.now;
  const redrawMs = options.redrawMs ?? 80;
  let total = 0;
  let done = 0;
  let started = now();
  const counts = { pass: 0, borderline: 0, fail: 0, error: 0 };
  let liveShown = false;
  let lastDraw = -Infinity;

  const write = (text: string) => {
    if (!options.quiet) options.write(text);
  };
  const clearLive = () => {
    if (liveShown) {
      write("\r\x1b[2K");
      liveShown = false;
    }
  };
  const liveLine = () => {
    const elapsed = now() - started;
    const eta = done > 0 && done < total ? (elapsed / done) * (total - done) : undefined;
    const parts = [
      `${done}/${total}`,
      paint("green", `pass ${counts.pass}`),
      paint("yellow", `borderline ${counts.borderline}`),
      paint("red", `fail ${counts.fail}`),
      paint("red", `error ${counts.error}`),
      formatDuration(elapsed),
    ];
    if (eta !== undefined) parts.push(`ETA ${formatDuration(eta)}`);
    return parts.join("  ");
  };
  const draw = (force: boolean) => {
    if (!options.isTTY) return;
    const t = now();
    if (!force && t - lastDraw < redrawMs) return;
    lastDraw = t;
    write(`\r\x1b[2K${liveLine()}`);
    liveShown = true;
  };
  /** Prints a permanent line (above the live line on a TTY). */
  const line = (text: string) => {
    clearLive();
    write(text + "\n");
    draw(true);
  };

  return {
    onEvent(event: RunEvent) {
      if (options.quiet) return;
      switch (event.type) {
        case "run_started": {
          total = event.total;
          started = now();
          const where = event.results_path ? ` → ${showPath(event.results_path, options.cwd)}` : "";
          const dry = event.dry_run ? paint("yellow", " (dry run: targets replaced by mocks)") : "";
          line(
            `Running ${event.total} case${
              event.total === 1 ? "" : "s"
            } from ${event.files.length} file${
              event.files.length === 1 ? "" : "s"
            } with ${event.workers} worker${event.workers === 1 ? "" : "s"}${dry}${where}`,
          );
          break;
        }
        case "target_resolved":
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
        case "case_started":
          if (options.verbose && !options.isTTY) {
            line(paint("dim", `start ${clean(event.eval_id)} → ${clean(event.target)}`));
          }
          break;
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
        case "case_finished": {
          done = event.done;
          total = Math.max(total, event.total);
          const row = event.row;
          if (row.status === "error") counts.error++;
          else counts[row.verdict]++;
          if (options.isTTY) {
            if (row.status === "error") {
              line(`${paint("red", "✗")} ${clean(row.eval_id)}: ${clean(row.error ?? "error")}`);
            } else draw(done === total);
          } else {
            const head = `[${event.done}/${event.total}] ${rowLabel(row, paint)}`;
            if (row.status === "error") {
              const tries = row.attempts > 1 ? ` (${row.attempts} attempts)` : "";
              line(`${head} ${clean(row.eval_id)}: ${clean(row.error ?? "error")}${tries}`);
            } else {
              line(
                `${head} ${row.score.toFixed(3)}  ${clean(row.eval_id)}  ${
                  paint("dim", formatDuration(row.duration_ms))
                }`,
              );
            }
          }
          break;
        }
        case "interrupted":
          line(
            paint(
              "yellow",
              `Interrupted: aborting ${event.in_flight} running case${
                event.in_flight === 1 ? "" : "s"
              }, ${event.not_started} not started (Ctrl-C again to exit now)`,
            ),
          );
          break;
        case "run_finished":
          clearLive();
          break;
      }
    },
    finish() {
      clearLive();
    },
  };
}

/** Options of {@link renderSummary}. */
export interface RenderSummaryOptions {
  /** Whether to use ANSI colours. */
  color: boolean;
  /** Paths are shown relative to this folder (default: absolute). */
  cwd?: string;
  /** The `--threshold` in force, shown next to the mean. */
  threshold?: number;
}

const fmt = (v: number | null) => v === null ? "-" : v.toFixed(3);

/**
 * Renders the end-of-run summary as text.
 *
 * @example
 * ```ts
 * import { renderSummary } from "./console.ts";
 * import { summarizeResults } from "./summary.ts";
 * console.log(renderSummary(summarizeResults([]), { color: false }));
 * ```
 */
export function renderSummary(summary: RunSummary, options: RenderSummaryOptions): string {
  const paint = painter(options.color);
  const out: string[] = [];
  if (summary.errors.length > 0) {
    out.push(paint("red", paint("bold", `Errors (${summary.errors.length})`)));
    for (const e of summary.errors) {
      const tries = e.attempts > 1 ? ` (${e.attempts} attempts)` : "";
      out.push(
        `  ${paint("red", "✗")} ${clean(e.eval_id)} [${clean(e.target)}]: ${
          clean(e.error)
        }${tries}`,
      );
    }
    out.push("");
  }
  if (summary.invalid.length > 0) {
    out.push(
      paint(
        "red",
        paint(
          "bold",
          `Invalid cases skipped (${summary.invalid.length} problem${
            summary.invalid.length === 1 ? "" : "s"
          })`,
        ),
      ),
    );
    for (const d of summary.invalid) {
      const pos = d.line !== undefined
        ? `:${d.line}${d.column !== undefined ? `:${d.column}` : ""}`
        : "";
      out.push(`  ${showPath(d.file, options.cwd)}${pos}: ${clean(d.message)}`);
    }
    out.push("");
  }
  out.push(paint("bold", summary.dry_run ? "Summary (dry run)" : "Summary"));
  const parts = [`${summary.total} run`, `${summary.scored} scored`];
  if (summary.errors.length > 0) parts.push(paint("red", `${summary.errors.length} errors`));
  if (summary.invalid.length > 0) parts.push(paint("red", `${summary.invalid.length} invalid`));
  if (summary.not_started > 0) parts.push(paint("yellow", `${summary.not_started} not started`));
  out.push(`  Cases:     ${parts.join(", ")}`);
  if (summary.interrupted) out.push(`  ${paint("yellow", "Interrupted: partial results")}`);
  const v = summary.verdicts;
  out.push(
    `  Verdicts:  ${paint("green", `pass ${v.pass}`)}  ${
      paint("yellow", `borderline ${v.borderline}`)
    }  ${paint("red", `fail ${v.fail}`)}`,
  );
  const s = summary.scores;
  const gate = options.threshold !== undefined ? `  (threshold ${options.threshold})` : "";
  out.push(
    `  Score:     mean ${fmt(s.mean)}  median ${fmt(s.median)}  min ${fmt(s.min)}  max ${
      fmt(s.max)
    }  stdev ${fmt(s.stdev)}${gate}`,
  );
  if (summary.scored > 0) {
    out.push("  Histogram:");
    const widest = Math.max(...summary.histogram.map((b) => b.count), 1);
    for (const bin of summary.histogram) {
      const bar = "█".repeat(Math.round((bin.count / widest) * 20));
      out.push(`    ${bin.range}  ${String(bin.count).padStart(5)}${bar ? `  ${bar}` : ""}`);
    }
  }
  if (summary.slowest.length > 0) {
    out.push("  Slowest:");
    for (const c of summary.slowest) {
      out.push(`    ${formatDuration(c.duration_ms).padStart(7)}  ${clean(c.eval_id)}`);
    }
  }
  if (summary.evaluators.length > 0) {
    out.push("  Evaluators:");
    for (const e of summary.evaluators) {
      const label = clean(e.name === e.type ? e.name : `${e.name} (${e.type})`);
      const errs = e.errors > 0 ? paint("red", `  ${e.errors} errors`) : "";
      out.push(`    ${label.padEnd(28)} mean ${fmt(e.mean)}  n=${e.count}${errs}`);
    }
  }
  if (summary.token_usage) {
    out.push(`  Tokens:    ${summary.token_usage.input} in, ${summary.token_usage.output} out`);
  }
  out.push(`  Time:      ${formatDuration(summary.duration_ms)}`);
  if (summary.results_path !== undefined) {
    out.push(`  Results:   ${showPath(summary.results_path, options.cwd)}`);
  }
  return out.join("\n") + "\n";
}
