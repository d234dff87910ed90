/**
 * `agentv trend [DIR…] [--dataset D] [--target T] [--last N] [--fail-on-degrading]`: prints each
 * series (a dataset on a target) of the history store run by run, with pass rates and mean scores
 * and their 95% intervals, cost and latency, then the drift gate's verdict on its latest run
 * (`lib/compare/drift.ts`); with `--fail-on-degrading`, exits 1 when a series is degrading. On the
 * embedded store the results files of `.agentv/results/` (and the folders given) are indexed
 * first; a team store is read as CI pushed it.
 *
 * @module
 */
import { join, resolve } from "node:path";
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { commandInfo } from "./commands.ts";
import { openStoreArg, ROOT_OPTION, STORE_OPTION } from "./store_args.ts";
import { DEFAULT_MIN_CASES, DEFAULT_WINDOW } from "../compare/drift.ts";
import { seriesTrend, type Trend, type TrendPoint } from "../store/trend.ts";
import { indexResults } from "../store/index_results.ts";
import type { HistoryStore, SeriesKey } from "../store/history_store.ts";
import { suggest } from "../text/suggest.ts";
import { formatUsd } from "../text/format_usd.ts";
import { createPaint } from "../render/diagnostics.ts";
import { escapeControl } from "../text/escape_control.ts";

function positiveInt(value: unknown, flag: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > 10_000) {
    throw new UsageError(
      `${flag} must be a whole number from ${min} to 10000, got '${value}'`,
      `e.g. ${flag} ${fallback}`,
    );
  }
  return n;
}

function text(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    throw new UsageError(`${flag} must name one`, `e.g. ${flag} qa`);
  }
  return value;
}

/** The series the filters select; none is a usage error with a "did you mean". */
function selectSeries(
  keys: readonly SeriesKey[],
  dataset: string | undefined,
  target: string | undefined,
): SeriesKey[] {
  const chosen = keys.filter((k) =>
    (dataset === undefined || k.dataset === dataset) &&
    (target === undefined || k.target === target)
  );
  if (chosen.length > 0) return chosen;
  if (keys.length === 0) {
    throw new UsageError(
      "The history store holds no runs",
      "run agentv run first (its results go to .agentv/results/), or push results to the store",
    );
  }
  const hints: string[] = [];
  if (dataset !== undefined && !keys.some((k) => k.dataset === dataset)) {
    const near = suggest(dataset, [...new Set(keys.map((k) => k.dataset))]);
    hints.push(near ? `did you mean --dataset ${near}?` : "");
  }
  if (target !== undefined && !keys.some((k) => k.target === target)) {
    const near = suggest(target, [...new Set(keys.map((k) => k.target))]);
    hints.push(near ? `did you mean --target ${near}?` : "");
  }
  const list = keys.map((k) => `${k.dataset} on ${k.target}`).join(", ");
  throw new UsageError(
    `No series matches${dataset === undefined ? "" : ` dataset '${dataset}'`}${
      target === undefined ? "" : ` target '${target}'`
    }`,
    [...hints.filter((h) => h !== ""), `the store holds: ${list}`].join("; "),
  );
}

function fixed(x: number | null, digits: number): string {
  return x === null ? "–" : x.toFixed(digits);
}

function ms(x: number | null): string {
  if (x === null) return "–";
  return x < 1000 ? `${Math.round(x)} ms` : `${(x / 1000).toFixed(1)} s`;
}

function pointLine(p: TrendPoint): string[] {
  const interval = (i: { low: number; high: number } | null, d: number) =>
    i === null ? "" : ` (${i.low.toFixed(d)}–${i.high.toFixed(d)})`;
  return [
    p.started_at.slice(0, 16).replace("T", " "),
    escapeControl(p.run_id),
    String(p.scored + p.errors),
    `${fixed(p.pass_rate, 2)}${interval(p.pass_interval, 2)}`,
    `${fixed(p.mean_score, 3)}${interval(p.mean_interval, 3)}`,
    p.cost_usd === null ? "–" : formatUsd(p.cost_usd),
    ms(p.duration_mean_ms),
  ];
}

function renderTrend(trend: Trend, io: CommandIO): string {
  const paint = createPaint(io.color);
  const head = ["started (UTC)", "run", "cases", "pass rate (95% CI)", "mean (95% CI)", "cost"];
  const rows = [[...head, "latency"], ...trend.points.map(pointLine)];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const numeric = new Set([2, 5, 6]);
  const lines = rows.map((r, i) => {
    const line = r.map((cell, c) =>
      numeric.has(c) ? cell.padStart(widths[c]) : cell.padEnd(widths[c])
    )
      .join("  ").trimEnd();
    return i === 0 ? paint.dim(line) : line;
  });
  const drift = trend.drift;
  const verdict = drift === null
    ? "no runs"
    : drift.degrading
    ? paint.red(paint.bold(drift.line))
    : drift.line;
  return [
    paint.bold(
      `${escapeControl(trend.dataset)} on ${
        escapeControl(trend.target)
      }: ${trend.points.length} run(s)`,
    ),
    ...lines.map((l) => `  ${l}`),
    `  ${verdict}`,
    "",
  ].join("\n");
}

async function indexLocal(store: HistoryStore, root: string, dirs: string[], io: CommandIO) {
  await indexResults(store, [
    join(root, ".agentv", "results"),
    ...dirs.map((d) => resolve(io.cwd, d)),
  ], {
    signal: io.signal,
  });
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  const dataset = text(args.values.dataset, "--dataset");
  const target = text(args.values.target, "--target");
  const last = positiveInt(args.values.last, "--last", DEFAULT_WINDOW, 1);
  const minCases = positiveInt(args.values["min-cases"], "--min-cases", DEFAULT_MIN_CASES, 1);
  const opened = await openStoreArg(args, io);
  const { store } = opened;
  try {
    if (opened.team && args.positionals.length > 0) {
      throw new UsageError(
        "agentv trend reads a team store as it is; it does not index folders into it",
        "push the results first: agentv push <folder> --store <url>",
      );
    }
    if (!opened.team) await indexLocal(store, opened.root, args.positionals, io);
    const series = selectSeries(await store.seriesKeys(), dataset, target);
    const trends: Trend[] = [];
    for (const key of series) trends.push(await seriesTrend(store, key, { last, minCases }));
    const degrading = trends.filter((t) => t.drift?.degrading);
    if (args.values.json === true) {
      io.stdout(
        JSON.stringify({ series: trends, degrading: degrading.length > 0 }, null, 2) + "\n",
      );
    } else {
      io.stdout(trends.map((t) => renderTrend(t, io)).join("\n"));
    }
    if (args.values["fail-on-degrading"] === true && degrading.length > 0) {
      io.stderr(
        `agentv trend: --fail-on-degrading: ${
          degrading.map((t) => `${t.dataset} on ${t.target}`).join(", ")
        } degrading\n`,
      );
      return 1;
    }
    return 0;
  } finally {
    await store.close();
  }
}

/** What `agentv trend --help` says of the test (docs/commands/view.md says the same). */
export const TREND_DETAILS =
  `The drift gate tests whether the latest run of a series (a dataset on a target) is
significantly worse than the --last N runs before it (the window), paired by case:
  - a case's score in a run is the mean over its trials (an error counts as 0);
  - each case of the latest run that also ran in the window gets
    delta = latest score - the mean of its scores over the window runs it ran in;
  - "degrading" when, over at least --min-cases paired cases, the mean delta is below 0,
    the one-sided Wilcoxon signed-rank test (H1: the deltas lean negative; exact up to 50
    non-zero deltas) gives p < 0.05, and the one-sided 95% upper bound of the mean delta (a
    seeded paired bootstrap) is below 0.
Assumptions: cases are independent; a case id names the same case in every run; under no change
a case's delta is symmetric around 0 (judge noise included); the window runs are comparable.
Cases new in the latest run are not tested. A flat series is never degrading. Exit 1 only with
--fail-on-degrading and a degrading series; 2 on a usage error or an unreachable store.`;

/** The `trend` command. */
export const trendCommand: Command = {
  ...commandInfo("trend"),
  usage: "agentv trend [DIR...] [--dataset D] [--target T] [--last N] [--fail-on-degrading] " +
    "[--json] [--store URL|FILE]",
  options: {
    dataset: { type: "string", valueName: "D", description: "Only the series of this dataset" },
    target: { type: "string", valueName: "T", description: "Only the series of this target" },
    last: {
      type: "string",
      valueName: "N",
      description: `Runs before the latest that make the window (default ${DEFAULT_WINDOW})`,
    },
    "min-cases": {
      type: "string",
      valueName: "N",
      description: `Fewest paired cases the gate decides on (default ${DEFAULT_MIN_CASES})`,
    },
    "fail-on-degrading": {
      type: "boolean",
      description: "Exit 1 when the latest run of a series is significantly worse (see below)",
    },
    json: { type: "boolean", description: "Print the series and verdicts as JSON" },
    store: STORE_OPTION,
    root: ROOT_OPTION,
  },
  details: TREND_DETAILS,
  run,
};
