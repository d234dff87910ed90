/**
 * Console rendering of a run: progress (a live line on a TTY, plain per-case lines otherwise,
 * nothing with `quiet`; see `progress.ts`) and the end-of-run summary, which names the failed
 * and errored cases. Colours only when asked for.
 *
 * @module
 */
import { escapeControl as clean } from "../text/escape_control.ts";
import { clipToWidth } from "../text/display_width.ts";
import type { RunSummary } from "../results/summary.ts";
import { formatDuration, painter, showPath } from "./console_text.ts";
import { budgetLines } from "./console_budget.ts";
import { targetLines } from "./console_targets.ts";
import { calibrationSummaryLines } from "./calibration_summary.ts";
import { renderTrialCases, trialsCountLine } from "./console_trials.ts";

export { formatDuration } from "./console_text.ts";
export { createProgressReporter, type ProgressOptions, type ProgressReporter } from "./progress.ts";

/** Options of {@link renderSummary}. */
export interface RenderSummaryOptions {
  /** Whether to use ANSI colours. */
  color: boolean;
  /** Paths are shown relative to this folder (default: absolute). */
  cwd?: string;
  /** The `--threshold` in force, shown next to the mean. */
  threshold?: number;
  /**
   * Only the counts (`--quiet`): no list of failed, errored or invalid cases, no histogram,
   * slowest cases or per-evaluator means (default false).
   */
  quiet?: boolean;
  /** Most failed (and most errored) cases listed; the rest are counted (default 20). */
  listLimit?: number;
}

const fmt = (v: number | null) => v === null ? "-" : v.toFixed(3);

/** Widest first miss shown in the list of failed cases, in columns. */
const MISS_COLUMNS = 100;

/** Appends `items` rendered by `render`, at most `limit` of them, then how many were left out. */
function pushCapped<T>(
  out: string[],
  items: readonly T[],
  limit: number,
  render: (item: T) => string,
): void {
  for (const item of items.slice(0, limit)) out.push(render(item));
  if (items.length > limit) out.push(`  … and ${items.length - limit} more`);
}

/** `id`, or `dataset/id` when the listed cases come from several datasets. */
function caseLabel(summary: RunSummary): (c: { eval_id: string; dataset: string }) => string {
  const datasets = new Set([...summary.errors, ...summary.failed].map((c) => c.dataset));
  return (c) => clean(datasets.size > 1 ? `${c.dataset}/${c.eval_id}` : c.eval_id);
}

/**
 * Renders the end-of-run summary as text: the errored cases with their reasons, the failed
 * cases with their score and first miss, the cases the integrity guard flagged with the kinds of
 * their findings (each list capped at `listLimit`), the invalid cases
 * skipped, then counts and statistics. With `quiet`, only the counts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSummary } from "./console.ts";
 * import { summarizeResults } from "../results/summary.ts";
 * const text = renderSummary(summarizeResults([]), { color: false });
 * assert.match(text, /^Summary\n {2}Cases: {5}0 run, 0 scored\n/);
 * assert.match(text, /Verdicts: {2}pass 0 {2}borderline 0 {2}fail 0/);
 * ```
 */
export function renderSummary(summary: RunSummary, options: RenderSummaryOptions): string {
  const paint = painter(options.color);
  const out: string[] = [];
  const limit = options.listLimit ?? 20;
  const label = caseLabel(summary);
  const full = !options.quiet;
  if (full && summary.errors.length > 0) {
    out.push(paint("red", paint("bold", `Errors (${summary.errors.length})`)));
    pushCapped(out, summary.errors, limit, (e) => {
      const tries = e.attempts > 1 ? ` (${e.attempts} attempts)` : "";
      return `  ${paint("red", "✗")} ${label(e)} [${clean(e.target)}]: ${clean(e.error)}${tries}`;
    });
    out.push("");
  }
  if (full && summary.failed.length > 0) {
    out.push(paint("red", paint("bold", `Failed (${summary.failed.length})`)));
    pushCapped(out, summary.failed, limit, (f) => {
      const miss = f.first_miss === undefined
        ? ""
        : `  ${clipToWidth(clean(f.first_miss), MISS_COLUMNS)}`;
      return `  ${paint("red", "✗")} ${label(f)} [${clean(f.target)}]  ${
        f.score.toFixed(3)
      }${miss}`;
    });
    out.push("");
  }
  const flagged = summary.integrity?.flagged ?? [];
  if (full && flagged.length > 0) {
    out.push(paint("red", paint("bold", `Integrity flagged (${flagged.length})`)));
    pushCapped(out, flagged, limit, (f) => {
      const where = f.where === undefined ? "" : ` (${clean(f.where)})`;
      return `  ${paint("red", "⚑")} ${label(f)} [${clean(f.target)}]: ${
        f.kinds.join(", ")
      }${where}`;
    });
    out.push("");
  }
  if (full && summary.invalid.length > 0) {
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
  if (full && summary.trials) {
    out.push(...renderTrialCases(summary.trials, { paint, limit }), "");
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
  if (summary.trials) out.push(trialsCountLine(summary.trials, paint));
  if (summary.integrity) {
    const i = summary.integrity;
    const skipped = i.skipped > 0 ? `, ${i.skipped} skipped` : "";
    const marked = i.flagged.length > 0
      ? paint("red", `${i.flagged.length} flagged`)
      : paint("green", "0 flagged");
    out.push(`  Integrity: ${i.checked} checked, ${marked}${skipped}`);
  }
  if (summary.calibration) out.push(...calibrationSummaryLines(summary.calibration, paint));
  const s = summary.scores;
  const gate = options.threshold !== undefined ? `  (threshold ${options.threshold})` : "";
  out.push(
    `  Score:     mean ${fmt(s.mean)}  median ${fmt(s.median)}  min ${fmt(s.min)}  max ${
      fmt(s.max)
    }  stdev ${fmt(s.stdev)}${gate}`,
  );
  if (summary.targets) out.push(...targetLines(summary.targets, paint));
  if (full && summary.scored > 0) {
    out.push("  Histogram:");
    const widest = Math.max(...summary.histogram.map((b) => b.count), 1);
    for (const bin of summary.histogram) {
      const bar = "█".repeat(Math.round((bin.count / widest) * 20));
      out.push(`    ${bin.range}  ${String(bin.count).padStart(5)}${bar ? `  ${bar}` : ""}`);
    }
  }
  if (full && summary.slowest.length > 0) {
    out.push("  Slowest:");
    for (const c of summary.slowest) {
      out.push(`    ${formatDuration(c.duration_ms).padStart(7)}  ${clean(c.eval_id)}`);
    }
  }
  if (full && summary.evaluators.length > 0) {
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
  if (summary.budget) out.push(...budgetLines(summary.budget, paint));
  if (summary.cache) {
    const c = summary.cache;
    const plural = (n: number, word: string) =>
      `${n} ${word}${n === 1 ? "" : word.endsWith("s") ? "es" : "s"}`;
    const rejected = c.rejected
      ? `, ${c.rejected} rejected (edited, forged or another key's; --verbose says which)`
      : "";
    out.push(
      `  Cache:     ${plural(c.hits, "hit")}, ${plural(c.misses, "miss")}, ${
        plural(c.writes, "write")
      }${rejected}`,
    );
  }
  out.push(`  Time:      ${formatDuration(summary.duration_ms)}`);
  if (summary.results_path !== undefined) {
    out.push(`  Results:   ${showPath(summary.results_path, options.cwd)}`);
  }
  return out.join("\n") + "\n";
}
