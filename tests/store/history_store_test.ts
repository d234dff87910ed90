/**
 * The embedded history store (SQLite through `node:sqlite`): the store contract, the incremental
 * index of results files, and a store rebuilt from the files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openHistoryStore } from "../../lib/store/open_store.ts";
import { importLabelsFile, indexResults } from "../../lib/store/index_results.ts";
import { appendLabel } from "../../lib/results/labels.ts";
import { day, writeRun } from "../_helpers/history_runs.ts";
import { label, storeContract } from "./_store_contract.ts";

Deno.test("the SQLite store keeps the store contract", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "agentv-store-" });
  try {
    const store = await openHistoryStore({ root });
    try {
      await storeContract(t, store);
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("indexResults() reads new and changed files only, and drops runs whose file is gone", async () => {
  const root = await Deno.makeTempDir({ prefix: "agentv-index-" });
  const results = join(root, ".agentv", "results");
  try {
    const a = await writeRun(results, { runId: "a", startedAt: day(1), scores: [1, 0.5] });
    await writeRun(join(results, "nested"), { runId: "b", startedAt: day(2), scores: [0.9] });
    await writeRun(results, { runId: "c", startedAt: day(3), scores: [0.4], status: null });
    await Deno.writeTextFile(join(results, "not-results.jsonl"), '{"hello": 1}\n');
    await Deno.mkdir(join(results, ".hidden"));
    await writeRun(join(results, ".hidden"), { runId: "h", startedAt: day(4), scores: [1] });
    const skipped: string[] = [];
    let store = await openHistoryStore({ root });
    const first = await indexResults(store, [results], { onSkip: (p) => skipped.push(p) });
    assert.deepEqual(first, { files: 4, indexed: 3, unchanged: 0, skipped: 1, removed: 0 });
    assert.deepEqual(skipped, [join(results, "not-results.jsonl")]);
    assert.deepEqual((await store.listRuns()).map((r) => [r.run_id, r.status]), [
      ["c", "unknown"],
      ["b", "finished"],
      ["a", "finished"],
    ]);
    await store.close();

    // Re-opened: nothing read again.
    store = await openHistoryStore({ root });
    const again = await indexResults(store, [results]);
    assert.deepEqual(again, { files: 4, indexed: 0, unchanged: 4, skipped: 0, removed: 0 });

    // A run that goes on (one more row) is read again; a file that is gone takes its run out.
    await Deno.writeTextFile(
      a,
      (await Deno.readTextFile(a)).replace(/\n$/, "\n") +
        (await Deno.readTextFile(a)).split("\n")[0].replaceAll('"case-0"', '"case-9"') + "\n",
    );
    await Deno.remove(join(results, "nested", "b.jsonl"));
    const third = await indexResults(store, [results]);
    assert.deepEqual(third, { files: 3, indexed: 1, unchanged: 2, skipped: 0, removed: 1 });
    assert.deepEqual((await store.listRuns()).map((r) => [r.run_id, r.rows]), [
      ["c", 1],
      ["a", 3],
    ]);

    // A file with the same size and time but other bytes at its head is read again.
    const before = await Deno.stat(a);
    const text = await Deno.readTextFile(a);
    await Deno.writeTextFile(a, text.replace('"case-0"', '"case-7"'));
    await Deno.utime(a, before.atime!, before.mtime!);
    assert.equal((await indexResults(store, [results])).indexed, 1);
    assert.deepEqual((await store.rows("a")).map((r) => r.eval_id), ["case-7", "case-1", "case-9"]);
    await store.close();
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a store deleted and rebuilt from the results and labels files holds the same", async () => {
  const root = await Deno.makeTempDir({ prefix: "agentv-rebuild-" });
  const results = join(root, ".agentv", "results");
  try {
    for (let i = 0; i < 3; i++) {
      await writeRun(results, { runId: `run-${i}`, startedAt: day(i), scores: [1, 0.3 * i] });
    }
    const labels = join(root, ".agentv", "labels.jsonl");
    await appendLabel(labels, label("run-1", 0));
    const snapshot = async () => {
      const store = await openHistoryStore({ root });
      await indexResults(store, [results]);
      await importLabelsFile(store, labels);
      const runs = await store.listRuns();
      const rows = await Promise.all(runs.map((r) => store.rows(r.run_id)));
      const held = await store.labels();
      await store.close();
      return { runs: runs.map(({ source: _, ...rest }) => rest), rows, held };
    };
    const first = await snapshot();
    await Deno.remove(join(root, ".agentv", "history.sqlite"));
    const second = await snapshot();
    assert.deepEqual(second, first);
    assert.equal(first.runs.length, 3);
    assert.equal(first.held.length, 1);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
