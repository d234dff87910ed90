/**
 * Console rendering of a run: progress (a live line on a TTY, plain per-case lines otherwise,
 * nothing with `quiet`; see `progress.ts`) and the end-of-run summary, which names the failed
 * and errored cases. Colours only when asked for.
 *
 * @module
 */
import { escapeControl as clean } from "../text/escape_control.ts";
import { clipToWidth, displayWidth } from "../text/display_width.ts";
import type { RunSummary } from "../results/summary.ts";
import { formatDuration, type Paint, painter, showPath } from "./console_text.ts";
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
   * Only the counts and each error's reason on one line (`--quiet`): no list of failed or
   * invalid cases, no histogram, slowest cases or per-evaluator means (default false).
   */
  quiet?: boolean;
  /** Most failed (and most errored) cases listed; the rest are counted (default 20). */
  listLimit?: number;
}

const fmt = (v: number | null) => v === null ? "-" : v.toFixed(3);

/** Widest first miss shown in the list of failed cases, in columns. */
const MISS_COLUMNS = 100;
/** Widest line of an errored case with `quiet` (its reason on one line), in columns. */
const ERROR_COLUMNS = 500;
/** Widest evaluator label in the per-evaluator means, in columns. */
const LABEL_COLUMNS = 60;

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

/** What the parts of the summary need. */
interface SummaryContext {
  paint: Paint;
  limit: number;
  label: (c: { eval_id: string; dataset: string }) => string;
  options: RenderSummaryOptions;
}

/**
 * Renders the end-of-run summary as text: the errored cases with their reasons, the failed
 * cases with their score and first miss, the cases the integrity guard flagged with the kinds of
 * their findings (each list capped at `listLimit`), the invalid cases skipped, then counts and
 * statistics. With `quiet`, the counts and each error's reason on one line. A dry run says that
 * it checked the wiring, not the answers.
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
  const ctx: SummaryContext = {
    paint,
    limit: options.listLimit ?? 20,
    label: caseLabel(summary),
    options,
  };
  const full = !options.quiet;
  const out = [...errorLines(summary, ctx)];
  if (full) {
    out.push(...failedLines(summary, ctx), ...flaggedLines(summary, ctx));
    out.push(...invalidLines(summary, ctx));
  }
  if (full && summary.trials) {
    out.push(...renderTrialCases(summary.trials, { paint, limit: ctx.limit }), "");
  }
  out.push(...countLines(summary, ctx));
  if (full) out.push(...detailLines(summary, ctx));
  out.push(...usageLines(summary, ctx));
  return out.join("\n") + "\n";
}

/** The errored cases, each with its reason on one line (also with `quiet`). */
function errorLines(summary: RunSummary, { paint, limit, label, options }: SummaryContext) {
  const out: string[] = [];
  if (summary.errors.length === 0) return out;
  out.push(paint("red", paint("bold", `Errors (${summary.errors.length})`)));
  pushCapped(out, summary.errors, limit, (e) => {
    const tries = e.attempts > 1 ? ` (${e.attempts} attempts)` : "";
    const line = `${label(e)} [${clean(e.target)}]: ${clean(e.error)}${tries}`;
    return `  ${paint("red", "✗")} ${options.quiet ? clipToWidth(line, ERROR_COLUMNS) : line}`;
  });
  out.push("");
  return out;
}

/** The failed cases with their score and first miss. */
function failedLines(summary: RunSummary, { paint, limit, label }: SummaryContext) {
  const out: string[] = [];
  if (summary.failed.length === 0) return out;
  const title = summary.dry_run
    ? `Failed against the mock answers (${summary.failed.length}; not failures in a dry run)`
    : `Failed (${summary.failed.length})`;
  out.push(paint(summary.dry_run ? "yellow" : "red", paint("bold", title)));
  pushCapped(out, summary.failed, limit, (f) => {
    const miss = f.first_miss === undefined
      ? ""
      : `  ${clipToWidth(clean(f.first_miss), MISS_COLUMNS)}`;
    return `  ${paint("red", "✗")} ${label(f)} [${clean(f.target)}]  ${f.score.toFixed(3)}${miss}`;
  });
  out.push("");
  return out;
}

/** The cases the integrity guard flagged, with the kinds of their findings. */
function flaggedLines(summary: RunSummary, { paint, limit, label }: SummaryContext) {
  const out: string[] = [];
  const flagged = summary.integrity?.flagged ?? [];
  if (flagged.length === 0) return out;
  out.push(paint("red", paint("bold", `Integrity flagged (${flagged.length})`)));
  pushCapped(out, flagged, limit, (f) => {
    const where = f.where === undefined ? "" : ` (${clean(f.where)})`;
    return `  ${paint("red", "⚑")} ${label(f)} [${clean(f.target)}]: ${f.kinds.join(", ")}${where}`;
  });
  out.push("");
  return out;
}

/** The cases the loader rejected, with their problems. */
function invalidLines(summary: RunSummary, { paint, options }: SummaryContext) {
  const out: string[] = [];
  if (summary.invalid.length === 0) return out;
  out.push(
    paint(
      "red",
      paint("bold", `Invalid cases skipped (${plural(summary.invalid.length, "problem")})`),
    ),
  );
  for (const d of summary.invalid) {
    const pos = d.line !== undefined
      ? `:${d.line}${d.column !== undefined ? `:${d.column}` : ""}`
      : "";
    out.push(`  ${showPath(d.file, options.cwd)}${pos}: ${clean(d.message)}`);
  }
  out.push("");
  return out;
}

/** The title, the case counts (skipped cases included), verdicts and score statistics. */
function countLines(summary: RunSummary, { paint, options }: SummaryContext) {
  const out = [paint("bold", summary.dry_run ? "Summary (dry run)" : "Summary")];
  const parts = [`${summary.total} run`, `${summary.scored} scored`];
  if (summary.skipped > 0) parts.push(paint("yellow", `${summary.skipped} skipped`));
  if (summary.errors.length > 0) parts.push(paint("red", plural(summary.errors.length, "error")));
  if (summary.invalid.length > 0) parts.push(paint("red", `${summary.invalid.length} invalid`));
  if (summary.not_started > 0) parts.push(paint("yellow", `${summary.not_started} not started`));
  out.push(`  Cases:     ${parts.join(", ")}`);
  if (summary.dry_run) out.push(dryRunLine(summary, paint));
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
  return out;
}

/** What a dry run checked and what its exit code means. */
function dryRunLine(summary: RunSummary, paint: Paint): string {
  const broken = summary.errors.length + summary.invalid.length;
  if (broken === 0) {
    return `  Dry run:   ${
      paint("green", "every case is wired")
    } (targets, judges, evaluators); the mock answers' verdicts are not failures`;
  }
  return `  Dry run:   ${
    paint("red", `${plural(broken, "wiring problem")}`)
  } (listed above); the mock answers' verdicts are not failures`;
}

/** The histogram, the slowest cases and the per-evaluator means, in aligned columns. */
function detailLines(summary: RunSummary, { paint }: SummaryContext) {
  const out: string[] = [];
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
    const labels = summary.evaluators.map((e) =>
      clipToWidth(clean(e.name === e.type ? e.name : `${e.name} (${e.type})`), LABEL_COLUMNS)
    );
    const width = Math.max(28, ...labels.map(displayWidth));
    summary.evaluators.forEach((e, i) => {
      const errs = e.errors > 0 ? paint("red", `  ${plural(e.errors, "error")}`) : "";
      const pad = " ".repeat(width - displayWidth(labels[i]));
      out.push(`    ${labels[i]}${pad} mean ${fmt(e.mean)}  n=${e.count}${errs}`);
    });
  }
  return out;
}

/** Tokens, budget, cache, time and the results file. */
function usageLines(summary: RunSummary, { paint, options }: SummaryContext) {
  const out: string[] = [];
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
  return out;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
