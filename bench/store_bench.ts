/**
 * The history store at scale (issue 23): generates 1,000 results files of 1,000 rows each (with
 * run records) in a temporary project, then measures
 *
 * - the first index into the embedded SQLite store, against a floor measured in the same run
 *   (read every file and `JSON.parse` each line; the index also checks every row against the row
 *   schema, as every reader of results files does, and writes each row and two B-tree keys, so
 *   its bar is 60×: on this 2-core machine about 2 minutes for a million rows, once);
 * - re-opening the store and indexing again with nothing changed (the incremental check: a stat
 *   of each file and its record, and the SHA-256 of its head) — bar: under 1 s;
 * - re-opening and listing the runs and one series' trend (what `agentv view` and `agentv trend`
 *   do first) — bar: under 1 s.
 *
 * `AGENTV_BENCH_RUNS` and `AGENTV_BENCH_ROWS` change the size (default 1000 × 1000, about 600 MB
 * of results files and a store of about the same size; the folder is deleted afterwards).
 *
 * Run: `deno run --allow-read --allow-write --allow-env bench/store_bench.ts`
 *
 * @module
 */
import { join } from "node:path";
import { openHistoryStore } from "../lib/store/open_store.ts";
import { indexResults } from "../lib/store/index_results.ts";
import { seriesTrend } from "../lib/store/trend.ts";
import { forEachResultsLine } from "../lib/results/results_file.ts";
import type { BenchRow } from "./run_bench.ts";

const RUNS = Number(Deno.env.get("AGENTV_BENCH_RUNS") ?? 1000);
const ROWS = Number(Deno.env.get("AGENTV_BENCH_ROWS") ?? 1000);

function row(run: number, i: number, started: string): string {
  const score = ((run * 7 + i * 13) % 101) / 100;
  const verdict = score >= 0.8 ? "pass" : score >= 0.6 ? "borderline" : "fail";
  return JSON.stringify({
    run_id: `run-${run}`,
    trial: 0,
    timestamp: started,
    eval_id: `case-${i}`,
    dataset: `ds-${i % 4}`,
    conversation_id: null,
    target: run % 2 === 0 ? "gpt" : "claude",
    status: "ok",
    score,
    verdict,
    hits: ["names the capital"],
    misses: score < 1 ? ["misses the population figure"] : [],
    reasoning: null,
    candidate_answer: `The answer to question ${i} of run ${run} is Paris.`,
    evaluator_results: [{
      name: "judge",
      type: "llm_judge",
      status: "ok",
      score,
      weight: 1,
      verdict,
      hits: [],
      misses: [],
      reasoning: "Judged against the expected outcome.",
      cost_usd: 0.0004,
    }],
    trace_summary: null,
    token_usage: { input: 120, output: 40 },
    duration_ms: 800 + (i % 50) * 10,
    attempts: 1,
    error: null,
  });
}

async function writeProject(dir: string): Promise<number> {
  const results = join(dir, ".agentv", "results");
  await Deno.mkdir(results, { recursive: true });
  let bytes = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = new Date(Date.UTC(2026, 0, 1) + run * 3_600_000).toISOString();
    const lines: string[] = [];
    for (let i = 0; i < ROWS; i++) lines.push(row(run, i, started));
    const text = lines.join("\n") + "\n";
    bytes += text.length;
    const path = join(results, `run-${String(run).padStart(5, "0")}.jsonl`);
    await Deno.writeTextFile(path, text);
    await Deno.writeTextFile(
      `${path}.run.json`,
      JSON.stringify({
        schema_version: 1,
        run_id: `run-${run}`,
        agentv_version: "0.1.0",
        status: "finished",
        started_at: started,
        ended_at: new Date(Date.parse(started) + 600_000).toISOString(),
        results_path: path,
        options: {
          target: null,
          targets_file: null,
          judge_target: null,
          filter: null,
          workers: 8,
          timeout_ms: 60000,
          dry_run: false,
          threshold: null,
          root: null,
        },
        targets: [],
        datasets: [],
        summary: null,
        error: null,
      }),
    );
  }
  return bytes;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

/** The store figures, as bench rows. */
export async function benchStore(): Promise<BenchRow[]> {
  const dir = await Deno.makeTempDir({ prefix: "agentv-store-bench-" });
  try {
    const bytes = await writeProject(dir);
    const results = join(dir, ".agentv", "results");
    const [floorMs] = await timed(async () => {
      for await (const entry of Deno.readDir(results)) {
        if (!entry.name.endsWith(".jsonl")) continue;
        await forEachResultsLine(join(results, entry.name), (line) => JSON.parse(line.text));
      }
    });
    const [indexMs, report] = await timed(async () => {
      const store = await openHistoryStore({ root: dir });
      try {
        return await indexResults(store, [results]);
      } finally {
        await store.close();
      }
    });
    if (report.indexed !== RUNS) throw new Error(`indexed ${report.indexed} of ${RUNS} runs`);
    const [reindexMs, again] = await timed(async () => {
      const store = await openHistoryStore({ root: dir });
      try {
        return await indexResults(store, [results]);
      } finally {
        await store.close();
      }
    });
    if (again.unchanged !== RUNS) throw new Error(`re-read ${again.indexed} unchanged files`);
    const [reopenMs, listed] = await timed(async () => {
      const store = await openHistoryStore({ root: dir });
      try {
        const runs = await store.listRuns();
        const trend = await seriesTrend(store, { dataset: "ds-0", target: "gpt" });
        return runs.length + trend.points.length;
      } finally {
        await store.close();
      }
    });
    const storeMb = (await Deno.stat(join(dir, ".agentv", "history.sqlite"))).size / 1e6;
    console.log(
      `store: ${RUNS} runs × ${ROWS} rows, ${(bytes / 1e6).toFixed(0)} MB of results, ` +
        `store ${storeMb.toFixed(0)} MB; first index ${(indexMs / 1000).toFixed(1)} s ` +
        `(floor: read + JSON.parse ${(floorMs / 1000).toFixed(1)} s); re-open + index again ` +
        `${reindexMs.toFixed(0)} ms; re-open + list + trend ${reopenMs.toFixed(0)} ms (${listed})`,
    );
    return [
      {
        name: `store: first index of ${RUNS}×${ROWS} rows / floor`,
        measured: Number((indexMs / floorMs).toFixed(2)),
        bar: 60,
        unit: "×",
        ok: indexMs / floorMs <= 60,
      },
      {
        name: "store: re-open + index again, nothing changed",
        measured: Math.round(reindexMs),
        bar: 1000,
        unit: "ms",
        ok: reindexMs < 1000,
      },
      {
        name: "store: re-open + list runs + one trend",
        measured: Math.round(reopenMs),
        bar: 1000,
        unit: "ms",
        ok: reopenMs < 1000,
      },
    ];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const { formatTable } = await import("./run_bench.ts");
  const rows = await benchStore();
  console.log(formatTable(rows));
  if (!rows.every((r) => r.ok)) Deno.exit(1);
}
