/**
 * Joining the results of a sharded run (`agentv run --shard i/n` on n machines) into one results
 * file and one run record, as `agentv merge` does: {@link shardDisagreements} says why shards
 * cannot be joined (other datasets, other options), {@link mergeShards} joins them and says what
 * is missing or twice there.
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";
import type { ResultRow } from "../schema/result.ts";
import type {
  BudgetSummary,
  CacheSummary,
  MergedShardRecord,
  RunRecord,
  RunStatus,
  RunSummary,
  RunTargetRecord,
} from "../schema/run_record.ts";
import { RUN_OPTION_DEFAULTS, RUN_OPTION_ENTRIES } from "../schema/run_spec.ts";
import { runOptionsRecord } from "../schema/run_spec_record.ts";
import { compactRow } from "./row_format.ts";
import { AGENTV_VERSION, newRunId } from "./run_record.ts";
import { summarizeResults } from "./summary.ts";
import { parseTrialsGate } from "./trials.ts";

/** One shard's results as read: its results file, run record and rows. */
export interface ShardResults {
  /** The results file (absolute). */
  path: string;
  /** How messages name it (default `path`; the CLI shows it relative to the cwd). */
  shown?: string;
  /** Its run record (`<path>.run.json`). */
  record: RunRecord;
  /** Its valid rows, in file order. */
  rows: ResultRow[];
}

/** A (dataset, case, target, trial) run: what a row is the result of. */
export interface TrialPair {
  /** Dataset name. */
  dataset: string;
  /** Case id. */
  eval_id: string;
  /** Target name. */
  target: string;
  /** Trial index, from 0. */
  trial: number;
}

/** Options of {@link mergeShards}. */
export interface MergeShardsOptions {
  /** The merged results file (absolute); the record's `results_path`. */
  resultsPath: string;
  /**
   * Every run the shards together should have made (the datasets' cases after `--filter`, with
   * their targets and trials), when the dataset files could be read; missing ones are listed.
   */
  expected?: readonly TrialPair[];
  /** Clock in ms (the merged run id; default `Date.now`). */
  now?: () => number;
}

/** A pair found in more than one row. */
export interface DuplicatePair extends TrialPair {
  /** The results files (as shown) holding it, in the order given (the first one's row is kept). */
  files: string[];
}

/** What {@link mergeShards} returns. */
export interface MergedRun {
  /** Every row, one per run, ordered by dataset, case id, trial and target. */
  rows: ResultRow[];
  /** The merged run record. */
  record: RunRecord;
  /** Pairs found more than once (the first row is kept). */
  duplicates: DuplicatePair[];
  /** Shard indices (0-based) of the `n` that no input ran. */
  missingShards: number[];
  /** Shard indices given by more than one input. */
  repeatedShards: number[];
  /** Inputs (as shown) whose run did not finish (crashed or still running, interrupted, failed). */
  unfinished: { path: string; status: RunStatus }[];
  /** Expected pairs that no row answers (empty when `expected` was not given). */
  missingPairs: TrialPair[];
}

const nameOf = (s: ShardResults) => s.shown ?? s.path;
const keyOf = (p: TrialPair) => `${p.dataset}\0${p.eval_id}\0${p.target}\0${p.trial}`;
const show = (value: unknown) => JSON.stringify(value ?? null);

/**
 * The recorded options the shards of one run must agree on: those that change its results or the
 * gate it is judged by (`--threshold`), apart from the shard itself (`lib/schema/run_spec.ts`).
 */
const AGREED_OPTIONS: readonly string[] = RUN_OPTION_ENTRIES.flatMap(([, d]) =>
  d.record && d.effect !== undefined && !d.perShard ? [d.record.key] : []
);

/**
 * Why shards cannot be joined, one line each (empty when they can): each must be a shard run
 * (`options.shard` set), all of the same shard count, over the same eval files with the same
 * content (path and SHA-256), and with the same options that change results or the gate.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shardDisagreements } from "./merge.ts";
 * assert.deepEqual(shardDisagreements([]), []);
 * ```
 */
export function shardDisagreements(shards: readonly ShardResults[]): string[] {
  const problems: string[] = [];
  for (const s of shards) {
    if (!s.record.options.shard) {
      problems.push(`${nameOf(s)} was not run with --shard (its run record has no shard)`);
    }
  }
  if (problems.length > 0 || shards.length === 0) return problems;
  const [first, ...rest] = shards;
  const datasetsOf = (s: ShardResults) =>
    new Map(s.record.datasets.map((d) => [d.path, d.sha256] as const));
  const firstDatasets = datasetsOf(first);
  for (const other of rest) {
    const count = [first, other].map((s) => s.record.options.shard!.count);
    if (count[0] !== count[1]) {
      problems.push(
        `shard count: ${nameOf(first)} is one of ${count[0]} shards, ${nameOf(other)} one of ${
          count[1]
        }`,
      );
    }
    const otherDatasets = datasetsOf(other);
    for (const path of new Set([...firstDatasets.keys(), ...otherDatasets.keys()])) {
      const a = firstDatasets.get(path);
      const b = otherDatasets.get(path);
      if (a === undefined || b === undefined) {
        problems.push(
          `eval file ${path}: run by ${nameOf(a === undefined ? other : first)} only`,
        );
      } else if (a !== b) {
        problems.push(
          `eval file ${path}: content differs (sha256 ${a?.slice(0, 12)}… in ${nameOf(first)}, ` +
            `${b?.slice(0, 12)}… in ${nameOf(other)})`,
        );
      }
    }
    const options = [first.record.options, other.record.options] as unknown as Record<
      string,
      unknown
    >[];
    for (const key of AGREED_OPTIONS) {
      if (!(key in options[0]) && !(key in options[1])) continue;
      if (show(options[0][key]) !== show(options[1][key])) {
        problems.push(
          `option ${key}: ${show(options[0][key])} in ${nameOf(first)}, ` +
            `${show(options[1][key])} in ${nameOf(other)}`,
        );
      }
    }
  }
  return problems;
}

/**
 * Joins shards that agree (see {@link shardDisagreements}): one row per (dataset, case, target,
 * trial) (the first input's when several hold it), ordered by dataset, case id, trial and target;
 * a new run record whose `merged_from` lists the shard runs, whose summary is recomputed over all
 * rows, and whose status is `finished` only when all `n` shards are there, each finished, and no
 * expected run is missing (`interrupted` when a shard was interrupted, else `failed`, with the
 * reason in `error`). Rows keep their shard run's `run_id`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeShards } from "./merge.ts";
 * const merged = mergeShards([], { resultsPath: "/tmp/all.jsonl" });
 * assert.equal(merged.rows.length, 0);
 * ```
 */
export function mergeShards(
  shards: readonly ShardResults[],
  options: MergeShardsOptions,
): MergedRun {
  const now = options.now ?? Date.now;
  const count = shards[0]?.record.options.shard?.count ?? 0;
  const byIndex = new Map<number, ShardResults[]>();
  for (const s of shards) {
    const index = s.record.options.shard?.index ?? -1;
    byIndex.set(index, [...byIndex.get(index) ?? [], s]);
  }
  const missingShards = [...Array(count).keys()].filter((i) => !byIndex.has(i));
  const repeatedShards = [...byIndex].filter(([, list]) => list.length > 1).map(([i]) => i)
    .sort((a, b) => a - b);

  const kept = new Map<string, { row: ResultRow; files: string[] }>();
  for (const s of shards) {
    for (const row of s.rows) {
      const key = keyOf(row);
      const seen = kept.get(key);
      if (seen) seen.files.push(nameOf(s));
      else kept.set(key, { row, files: [nameOf(s)] });
    }
  }
  const duplicates = [...kept.values()].filter((k) => k.files.length > 1).map((k) => ({
    dataset: k.row.dataset,
    eval_id: k.row.eval_id,
    target: k.row.target,
    trial: k.row.trial,
    files: k.files,
  }));
  const rows = [...kept.values()].map((k) => k.row).sort(comparePairs);
  const missingPairs = (options.expected ?? []).filter((p) => !kept.has(keyOf(p)))
    .sort(comparePairs);
  const unfinished = shards.filter((s) => s.record.status !== "finished")
    .map((s) => ({ path: nameOf(s), status: s.record.status }));

  const reasons = [
    ...missingShards.map((i) => `shard ${i}/${count} is missing`),
    ...unfinished.map((u) =>
      `${u.path} ${
        u.status === "running" ? "never finished (crashed or still running)" : `was ${u.status}`
      }`
    ),
    ...(missingPairs.length > 0
      ? [`${missingPairs.length} case run(s) of the datasets are in no shard's results`]
      : []),
  ];
  const status: RunStatus = reasons.length === 0
    ? "finished"
    : missingShards.length === 0 && missingPairs.length === 0 &&
        unfinished.every((u) => u.status === "interrupted")
    ? "interrupted"
    : "failed";

  const ordered = [...shards].sort((a, b) =>
    (a.record.options.shard?.index ?? 0) - (b.record.options.shard?.index ?? 0)
  );
  const records = ordered.map((s) => s.record);
  const summaries = records.flatMap((r) => r.summary ? [r.summary] : []);
  const invalid = new Map<string, Diagnostic>();
  for (const d of summaries.flatMap((s) => s.invalid)) {
    invalid.set(`${d.file}\0${d.line ?? ""}\0${d.column ?? ""}\0${d.message}`, d);
  }
  const first = records[0];
  const recordedGate = first?.options.trials_gate;
  const gate = recordedGate === undefined ? undefined : parseTrialsGate(recordedGate);
  const summary = summarizeResults(rows, {
    invalid: [...invalid.values()],
    // What no shard ran: counted from the eval files when known, else what the shards say.
    notStarted: options.expected !== undefined
      ? missingPairs.length
      : summaries.reduce((a, s) => a + s.not_started, 0),
    interrupted: summaries.some((s) => s.interrupted),
    dryRun: first?.options.dry_run ?? false,
    resultsPath: options.resultsPath,
    // The shards ran side by side: the merged run took as long as its longest shard.
    durationMs: Math.max(0, ...summaries.map((s) => s.duration_ms)),
    ...(gate?.ok ? { trialsGate: gate.gate } : {}),
    ...(summaries.some((s) => s.cache) ? { cache: sumCache(summaries) } : {}),
  });
  // Each shard had its own spend cap: the merged run spent what they spent together.
  if (summaries.some((s) => s.budget)) summary.budget = sumBudget(summaries);
  const ends = records.map((r) => r.ended_at);
  const record: RunRecord = {
    schema_version: 1,
    run_id: newRunId(now()),
    agentv_version: AGENTV_VERSION,
    status,
    started_at: records.map((r) => r.started_at).sort()[0] ??
      new Date(now()).toISOString(),
    ended_at: ends.includes(null) || ends.length === 0
      ? new Date(now()).toISOString()
      : (ends as string[]).sort().at(-1)!,
    results_path: options.resultsPath,
    options: { ...(first?.options ?? runOptionsRecord(RUN_OPTION_DEFAULTS)), shard: null },
    targets: unionTargets(records),
    datasets: first?.datasets ?? [],
    summary,
    error: reasons.length === 0 ? null : reasons.join("; "),
    merged_from: ordered.map((s): MergedShardRecord => ({
      run_id: s.record.run_id,
      results_path: s.path,
      shard: s.record.options.shard ?? null,
      status: s.record.status,
      rows: s.rows.length,
    })),
  };
  return { rows, record, duplicates, missingShards, repeatedShards, unfinished, missingPairs };
}

/**
 * The merged results file's text: one line per row, laid out as `agentv run` writes them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatResultsFile } from "./merge.ts";
 * assert.equal(formatResultsFile([]), "");
 * ```
 */
export function formatResultsFile(rows: readonly ResultRow[]): string {
  return rows.map((row) => JSON.stringify(compactRow(row)) + "\n").join("");
}

/** The shards' cache counters added up. */
function sumCache(summaries: readonly RunSummary[]): CacheSummary {
  const total: CacheSummary = { hits: 0, misses: 0, writes: 0 };
  for (const c of summaries.flatMap((s) => s.cache ? [s.cache] : [])) {
    total.hits += c.hits;
    total.misses += c.misses;
    total.writes += c.writes;
    if (c.rejected) total.rejected = (total.rejected ?? 0) + c.rejected;
  }
  return total;
}

/** The shards' budget sections joined: spending and counts added, the cap of one shard. */
function sumBudget(summaries: readonly RunSummary[]): BudgetSummary {
  const budgets = summaries.flatMap((s) => s.budget ? [s.budget] : []);
  const sum = (pick: (b: BudgetSummary) => number) => budgets.reduce((a, b) => a + pick(b), 0);
  const union = (pick: (b: BudgetSummary) => string[]) => [...new Set(budgets.flatMap(pick))];
  return {
    cap_usd: budgets[0].cap_usd,
    spent_usd: sum((b) => b.spent_usd),
    exhausted: budgets.some((b) => b.exhausted),
    reason: budgets.find((b) => b.reason !== null)?.reason ?? null,
    skipped: sum((b) => b.skipped),
    refused_calls: sum((b) => b.refused_calls),
    unpriced_calls: sum((b) => b.unpriced_calls),
    unpriced_targets: union((b) => b.unpriced_targets),
    unbounded_calls: sum((b) => b.unbounded_calls),
    unbounded_targets: union((b) => b.unbounded_targets),
  };
}

/** Orders runs by dataset, case id, trial, then target (code-unit order, the same everywhere). */
function comparePairs(a: TrialPair, b: TrialPair): number {
  if (a.dataset !== b.dataset) return a.dataset < b.dataset ? -1 : 1;
  if (a.eval_id !== b.eval_id) return a.eval_id < b.eval_id ? -1 : 1;
  if (a.trial !== b.trial) return a.trial - b.trial;
  return a.target === b.target ? 0 : a.target < b.target ? -1 : 1;
}

/** Every target of the shards' records, each once, in first-seen order. */
function unionTargets(records: readonly RunRecord[]): RunTargetRecord[] {
  const seen = new Map<string, RunTargetRecord>();
  for (const t of records.flatMap((r) => r.targets)) {
    const key = `${t.targets_file ?? ""}\0${t.name}`;
    if (!seen.has(key)) seen.set(key, t);
  }
  return [...seen.values()];
}
