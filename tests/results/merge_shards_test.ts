/**
 * mergeShards() and shardDisagreements() on hand-made shard records: the merged status, the
 * order of rows, what is kept of duplicates, and the counters added up across shards.
 */
import assert from "node:assert/strict";
import { mergeShards, shardDisagreements, type ShardResults } from "../../lib/results/merge.ts";
import { summarizeResults } from "../../lib/results/summary.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import type { RunRecord, RunStatus } from "../../lib/schema/run_record.ts";

function row(eval_id: string, score: number, trial = 0, dataset = "d"): ResultRow {
  return {
    timestamp: "2026-01-01T00:00:00.000Z",
    eval_id,
    dataset,
    run_id: "r",
    trial,
    target: "t",
    status: "ok",
    score,
    verdict: score >= 0.8 ? "pass" : score >= 0.6 ? "borderline" : "fail",
    hits: [],
    misses: [],
    evaluator_results: [],
    duration_ms: 10,
    attempts: 1,
  } as unknown as ResultRow;
}

function shard(
  index: number,
  count: number,
  rows: ResultRow[],
  extra: { status?: RunStatus; cache?: { hits: number; misses: number; writes: number } } = {},
): ShardResults {
  const summary = summarizeResults(rows, { durationMs: 100 * (index + 1) });
  if (extra.cache) summary.cache = extra.cache;
  const record: RunRecord = {
    schema_version: 1,
    run_id: `run-${index}`,
    agentv_version: "0.1.0",
    status: extra.status ?? "finished",
    started_at: `2026-01-01T00:00:0${index}.000Z`,
    ended_at: `2026-01-01T00:01:0${index}.000Z`,
    results_path: `/r/${index}.jsonl`,
    options: {
      target: null,
      targets_file: null,
      judge_target: null,
      filter: null,
      workers: 4,
      timeout_ms: 120000,
      dry_run: false,
      threshold: null,
      root: null,
      shard: { index, count },
    },
    targets: [],
    datasets: [{ path: "/e/a.yaml", sha256: "a".repeat(64) }],
    summary,
    error: null,
  };
  return { path: `/r/${index}.jsonl`, shown: `${index}.jsonl`, record, rows };
}

Deno.test("mergeShards() orders rows by dataset, id and trial and recomputes the summary over all of them", () => {
  const a = shard(0, 2, [row("b", 1), row("a", 0.5, 1)]);
  const b = shard(1, 2, [row("a", 0.7, 0), row("c", 0.9, 0, "c-set")]);
  const merged = mergeShards([a, b], { resultsPath: "/r/all.jsonl", now: () => 0 });
  assert.deepEqual(merged.rows.map((r) => `${r.dataset}/${r.eval_id}#${r.trial}`), [
    "c-set/c#0",
    "d/a#0",
    "d/a#1",
    "d/b#0",
  ]);
  const summary = merged.record.summary!;
  assert.equal(summary.total, 4);
  assert.equal(summary.scores.mean, (1 + 0.5 + 0.7 + 0.9) / 4);
  assert.deepEqual(summary.verdicts, { pass: 2, borderline: 1, fail: 1 });
  assert.equal(summary.duration_ms, 200, "the longest shard");
  assert.equal(merged.record.status, "finished");
  assert.equal(merged.record.started_at, "2026-01-01T00:00:00.000Z");
  assert.equal(merged.record.ended_at, "2026-01-01T00:01:01.000Z");
  assert.deepEqual(merged.record.merged_from?.map((m) => [m.run_id, m.rows]), [
    ["run-0", 2],
    ["run-1", 2],
  ]);
  assert.equal(merged.record.options.shard, null);
});

Deno.test("mergeShards() is interrupted when a shard was, failed when one is missing or crashed", () => {
  const rows = [row("a", 1)];
  const interrupted = mergeShards(
    [shard(0, 2, rows), shard(1, 2, [row("b", 1)], { status: "interrupted" })],
    { resultsPath: "/r/all.jsonl" },
  );
  assert.equal(interrupted.record.status, "interrupted");
  assert.match(interrupted.record.error ?? "", /1\.jsonl was interrupted/);
  const missing = mergeShards([shard(0, 3, rows), shard(2, 3, [])], { resultsPath: "/x" });
  assert.equal(missing.record.status, "failed");
  assert.deepEqual(missing.missingShards, [1]);
  const crashed = mergeShards(
    [shard(0, 2, rows), shard(1, 2, [], { status: "running" })],
    {
      resultsPath: "/x",
      expected: [{ dataset: "d", eval_id: "a", target: "t", trial: 0 }, {
        dataset: "d",
        eval_id: "z",
        target: "t",
        trial: 0,
      }],
    },
  );
  assert.equal(crashed.record.status, "failed");
  assert.deepEqual(crashed.missingPairs, [{ dataset: "d", eval_id: "z", target: "t", trial: 0 }]);
  assert.equal(crashed.record.summary?.not_started, 1);
});

Deno.test("mergeShards() keeps the first row of a duplicated pair and adds up the cache counters", () => {
  const merged = mergeShards([
    shard(0, 2, [row("a", 1)], { cache: { hits: 2, misses: 1, writes: 1 } }),
    shard(1, 2, [row("a", 0), row("b", 1)], { cache: { hits: 3, misses: 0, writes: 0 } }),
  ], { resultsPath: "/x" });
  assert.deepEqual(merged.duplicates, [{
    dataset: "d",
    eval_id: "a",
    target: "t",
    trial: 0,
    files: ["0.jsonl", "1.jsonl"],
  }]);
  assert.deepEqual(merged.rows.map((r) => [r.eval_id, r.score]), [["a", 1], ["b", 1]]);
  assert.deepEqual(merged.record.summary?.cache, { hits: 5, misses: 1, writes: 1 });
});

Deno.test("shardDisagreements() names the option, the eval file and the shard count that differ", () => {
  const a = shard(0, 2, []);
  const b = shard(1, 3, []);
  b.record.options.filter = "x*";
  b.record.datasets = [{ path: "/e/a.yaml", sha256: "b".repeat(64) }];
  assert.deepEqual(shardDisagreements([a, b]), [
    "shard count: 0.jsonl is one of 2 shards, 1.jsonl one of 3",
    `eval file /e/a.yaml: content differs (sha256 ${"a".repeat(12)}… in 0.jsonl, ${
      "b".repeat(12)
    }… in 1.jsonl)`,
    'option filter: null in 0.jsonl, "x*" in 1.jsonl',
  ]);
  assert.deepEqual(shardDisagreements([a, shard(1, 2, [])]), []);
});
