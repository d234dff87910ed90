/**
 * What the HTML report shows besides the rows: the run it comes from (when, targets and models,
 * the agentv version, the options, totals of cost and tokens), the figures its charts draw (the
 * score histogram, per-evaluator means), and, when cases ran several trials, the trials of each
 * (dataset, case, target) grouped with their pass rate, pass@k, flaky flag and the gate's
 * verdict. Every number comes from `summarizeResults`, the function behind the console and JSON
 * summaries, so the page and the gate never disagree.
 *
 * @module
 */
import { summarizeResults } from "../../results/summary.ts";
import { DEFAULT_TRIALS_GATE, type TrialsGate } from "../../results/trials.ts";
import { type EvaluatorResult, type ResultRow, verdictOfScore } from "../../schema/result.ts";
import type { RunRecord } from "../../schema/run_record.ts";
import type { RunSummary } from "../../schema/run_summary.ts";
import type { TrialCaseStats } from "../../schema/trials.ts";

/** A target of the run as the report names it. */
export interface ReportTarget {
  /** Target name. */
  name: string;
  /** Provider kind, when the run record says it. */
  provider: string | null;
  /** Model or deployment, when the run record says it. */
  model: string | null;
}

/** The run a report comes from: its record's facts, else what the rows say. */
export interface ReportRunInfo {
  /** The run's id (the record's), else the rows' ids joined. */
  run_id: string | null;
  /** How the run ended (`finished`, `interrupted`, ...), when a record says it. */
  status: string | null;
  /** When the run started: the record's start, else the first row's time. */
  started_at: string | null;
  /** When it ended: the record's end, else the last row's time. */
  ended_at: string | null;
  /** The agentv version that ran it, when a record says it. */
  agentv_version: string | null;
  /** The targets, with provider and model when a record says them. */
  targets: ReportTarget[];
  /** The recorded options that were set (those without a value are left out). */
  options: Record<string, unknown> | null;
  /** The dataset names of the rows, in first-seen order. */
  datasets: string[];
  /** Shard runs joined by `agentv merge`, when the record lists them. */
  merged_from: number | null;
}

/** The figures of the report's summary (see {@link reportFigures}). */
export type ReportFigures = Pick<
  RunSummary,
  | "total"
  | "scored"
  | "skipped"
  | "scores"
  | "verdicts"
  | "histogram"
  | "evaluators"
  | "token_usage"
  | "cost_usd"
  | "judge_token_usage"
  | "judge_cost_usd"
  | "dry_run"
>;

/** The trials of one (dataset, case, target): statistics and the rows (indexes into `rows`). */
export interface ReportCaseGroup extends Omit<TrialCaseStats, "verdict"> {
  /** The gate's verdict; `skipped` when no trial ran. */
  verdict: TrialCaseStats["verdict"] | "skipped";
  /** Whether it passed some trials and failed others. */
  flaky: boolean;
  /** Indexes of its rows (every trial, skipped ones too) in the page's `rows`, by trial. */
  rows: number[];
}

/** The trials section of the page (present when some case ran more than once). */
export interface ReportTrials {
  /** The gate that made each case's verdict. */
  gate: string;
  /** One entry per (dataset, case, target), in first-seen order. */
  cases: ReportCaseGroup[];
}

/** What {@link reportData} returns. */
export interface ReportData {
  /** The run. */
  run: ReportRunInfo;
  /** The summary's figures. */
  figures: ReportFigures;
  /** The trials of each case, when some case ran more than once. */
  trials: ReportTrials | null;
}

/**
 * The run, figures and trial groups of a report's rows (`record` is the run record beside the
 * results file, when there is one; `gate` the trials gate, default the record's, else `mean`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type EvaluatorResult, type ResultRow, verdictOfScore } from "../../schema/result.ts";
 * import { reportData } from "./report_data.ts";
 * const row = (trial: number, score: number) => ({
 *   eval_id: "a", dataset: "d", target: "t", run_id: "r", trial, status: "ok", score,
 *   verdict: score >= 0.8 ? "pass" : "fail", evaluator_results: [], token_usage: null,
 *   trace_summary: null, duration_ms: 1, timestamp: `2026-01-01T00:00:0${trial}Z`,
 * }) as unknown as ResultRow;
 * const data = reportData([row(0, 1), row(1, 0)], { gate: "any" });
 * assert.equal(data.trials?.cases[0].verdict, "pass");
 * assert.equal(data.trials?.cases[0].flaky, true);
 * assert.deepEqual(data.trials?.cases[0].rows, [0, 1]);
 * assert.equal(data.run.started_at, "2026-01-01T00:00:00Z");
 * ```
 */
export function reportData(
  rows: readonly ResultRow[],
  options: { record?: RunRecord; gate?: TrialsGate } = {},
): ReportData {
  const gate = options.gate ?? options.record?.options.trials_gate as TrialsGate | undefined ??
    DEFAULT_TRIALS_GATE;
  const summary = summarizeResults(rows.map(saneRow), { trialsGate: gate });
  const { total, scored, skipped, scores, verdicts, histogram, evaluators, dry_run } = summary;
  const figures: ReportFigures = {
    total,
    scored,
    skipped,
    scores,
    verdicts,
    histogram,
    evaluators,
    dry_run,
  };
  if (summary.token_usage) figures.token_usage = summary.token_usage;
  if (summary.cost_usd !== undefined) figures.cost_usd = summary.cost_usd;
  if (summary.judge_token_usage) figures.judge_token_usage = summary.judge_token_usage;
  if (summary.judge_cost_usd !== undefined) figures.judge_cost_usd = summary.judge_cost_usd;
  return {
    run: runInfo(rows, options.record),
    figures,
    trials: summary.trials ? caseGroups(rows, summary.trials) : null,
  };
}

type Loose = Record<string, unknown>;

function isObject(value: unknown): value is Loose {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

function tokens(value: unknown): { input: number; output: number } | null {
  return isObject(value) && typeof value.input === "number" && typeof value.output === "number"
    ? { input: value.input, output: value.output }
    : null;
}

const STATUSES = new Set(["ok", "error", "skipped"]);
const VERDICTS = new Set(["pass", "borderline", "fail"]);

/** An evaluator result summed safely (parts of an odd shape are left out, never thrown on). */
function saneEvaluator(value: Loose): EvaluatorResult {
  const usage = tokens(value.token_usage);
  return {
    ...value,
    name: String(value.name),
    type: String(value.type),
    status: STATUSES.has(value.status as string) ? value.status as EvaluatorResult["status"] : "ok",
    score: num(value.score),
    misses: Array.isArray(value.misses) ? value.misses.map(String) : [],
    token_usage: usage ?? undefined,
    cost_usd: typeof value.cost_usd === "number" ? value.cost_usd : undefined,
    evaluator_results: Array.isArray(value.evaluator_results)
      ? value.evaluator_results.filter(isObject).map(saneEvaluator)
      : undefined,
  } as EvaluatorResult;
}

/**
 * A row as the summary reads it: the page takes any rows (a foreign file's), so parts of an odd
 * shape are made harmless (a score that is not a number counts 0, an evaluator result that is not
 * an object is left out) instead of failing the page.
 */
function saneRow(row: ResultRow): ResultRow {
  const r = row as unknown as Loose;
  const score = num(r.score);
  return {
    ...row,
    status: STATUSES.has(r.status as string) ? row.status : "ok",
    score,
    verdict: VERDICTS.has(r.verdict as string) ? row.verdict : verdictOfScore(score),
    misses: Array.isArray(r.misses) ? r.misses.map(String) : [],
    evaluator_results: Array.isArray(r.evaluator_results)
      ? r.evaluator_results.filter(isObject).map(saneEvaluator)
      : [],
    token_usage: tokens(r.token_usage),
    trace_summary: isObject(r.trace_summary) ? row.trace_summary : null,
    duration_ms: num(r.duration_ms),
    attempts: num(r.attempts),
  };
}

function distinct<T>(values: Iterable<T>): T[] {
  return [...new Set(values)];
}

/** The run of `rows`: its record's facts, else what the rows say. */
function runInfo(rows: readonly ResultRow[], record: RunRecord | undefined): ReportRunInfo {
  const times = rows.map((r) => r.timestamp).filter((t) => typeof t === "string").sort();
  const recorded = new Map((record?.targets ?? []).map((t) => [t.name, t]));
  const names = distinct([...recorded.keys(), ...rows.map((r) => String(r.target))]);
  const options = record === undefined ? null : Object.fromEntries(
    Object.entries(record.options).filter(([, v]) => v !== null && v !== undefined),
  );
  return {
    run_id: record?.run_id ??
      (distinct(rows.flatMap((r) => typeof r.run_id === "string" ? [r.run_id] : [])).join(", ") ||
        null),
    status: record?.status ?? null,
    started_at: record?.started_at ?? times[0] ?? null,
    ended_at: record === undefined ? times.at(-1) ?? null : record.ended_at,
    agentv_version: record?.agentv_version ?? null,
    targets: names.map((name) => ({
      name,
      provider: recorded.get(name)?.provider ?? null,
      model: recorded.get(name)?.model ?? null,
    })),
    options,
    datasets: distinct(rows.map((r) => String(r.dataset))),
    merged_from: record?.merged_from?.length ?? null,
  };
}

/** The rows of each (dataset, case, target), with its trials' statistics under the gate. */
function caseGroups(
  rows: readonly ResultRow[],
  trials: NonNullable<RunSummary["trials"]>,
): ReportTrials {
  const keyOf = (r: Pick<ResultRow, "dataset" | "eval_id" | "target">) =>
    `${r.dataset}\0${r.eval_id}\0${r.target}`;
  const indexes = new Map<string, number[]>();
  rows.forEach((row, i) => {
    const key = keyOf(row);
    const list = indexes.get(key);
    if (list === undefined) indexes.set(key, [i]);
    else list.push(i);
  });
  const stats = new Map(trials.cases.map((c) => [keyOf(c), c]));
  const flaky = new Set(trials.flaky.map(keyOf));
  const cases: ReportCaseGroup[] = [];
  for (const [key, list] of indexes) {
    const first = rows[list[0]];
    const ordered = [...list].sort((a, b) => (rows[a].trial ?? 0) - (rows[b].trial ?? 0));
    // A case whose every row was skipped ran no trial: it is listed, never dropped.
    const s = stats.get(key) ?? {
      eval_id: first.eval_id,
      dataset: first.dataset,
      target: first.target,
      n: 0,
      passed: 0,
      errors: 0,
      pass_rate: 0,
      mean: 0,
      stdev: null,
      pass_at_k: {},
      pass_hat_k: {},
      verdict: "skipped" as const,
    };
    cases.push({ ...s, flaky: flaky.has(key), rows: ordered });
  }
  return { gate: trials.gate, cases };
}
