/**
 * What every history store does, whichever database holds it: one suite of steps, run against
 * the embedded SQLite file (`history_store_test.ts`) and a real PostgreSQL server
 * (`history_store_postgres_test.ts`).
 *
 * @module
 */
import assert from "node:assert/strict";
import { seriesTrend } from "../../lib/store/trend.ts";
import type { HistoryStore } from "../../lib/store/history_store.ts";
import { buildStoredRun } from "../../lib/store/stored_run.ts";
import type { Label } from "../../lib/schema/label.ts";
import { day, runRecord, runRows, type RunSpec } from "../_helpers/history_runs.ts";

/** A stored run built from a fixture spec (no file needed). */
export function storedRun(spec: RunSpec) {
  const path = `/results/${spec.runId}.jsonl`;
  return buildStoredRun({
    rows: runRows(spec),
    record: spec.status === null ? null : runRecord(spec, path),
    source: path,
  });
}

/** A label of case `i` of `runId`. */
export function label(runId: string, i: number, extra: Partial<Label> = {}): Label {
  return {
    run_id: runId,
    dataset: "qa",
    eval_id: `case-${i}`,
    target: "gpt",
    trial: 0,
    evaluator: null,
    label: "fail",
    score: null,
    reviewer: "ana",
    note: "wrong city",
    labelled_at: "2026-02-01T10:00:00.000Z",
    ...extra,
  };
}

/** Runs the store contract against a fresh, empty store. */
export async function storeContract(t: Deno.TestContext, store: HistoryStore): Promise<void> {
  await t.step("a run stored twice is held once, with its rows in file order", async () => {
    const run = storedRun({ runId: "r1", startedAt: day(1), scores: [1, 0.5, null, 0.9] });
    await store.putRun(run);
    await store.putRun(run);
    const runs = await store.listRuns();
    assert.equal(runs.length, 1);
    const [entry] = runs;
    assert.deepEqual(
      [entry.rows, entry.scored, entry.passed, entry.failed, entry.errors],
      [4, 3, 2, 1, 1],
    );
    assert.ok(Math.abs(entry.mean_score! - 0.8) < 1e-12);
    assert.equal(entry.status, "finished");
    assert.equal(entry.agentv_version, "0.1.0");
    assert.deepEqual(entry.datasets, ["qa"]);
    assert.ok(Math.abs(entry.cost_usd! - 0.004) < 1e-12);
    const rows = await store.rows("r1");
    assert.deepEqual(rows.map((r) => r.eval_id), ["case-0", "case-1", "case-2", "case-3"]);
    assert.deepEqual(rows[0].output_messages, [{ role: "assistant", content: "answer 0 of r1" }]);
    assert.equal(rows[2].error, "HTTP 500 on case 2");
    const detail = await store.getRun("r1");
    assert.equal(detail?.record?.run_id, "r1");
    assert.equal(detail?.groups.length, 1);
  });

  await t.step("runs filter by dataset, target, status and date, newest first", async () => {
    await store.putRun(storedRun({ runId: "r2", startedAt: day(2), scores: [1, 1] }));
    await store.putRun(
      storedRun({ runId: "r3", startedAt: day(3), scores: [0.2], target: "claude" }),
    );
    await store.putRun(
      storedRun({
        runId: "r4",
        startedAt: day(4),
        scores: [0.7],
        dataset: "math",
        status: "interrupted",
      }),
    );
    const ids = async (filter = {}) => (await store.listRuns(filter)).map((r) => r.run_id);
    assert.deepEqual(await ids(), ["r4", "r3", "r2", "r1"]);
    assert.deepEqual(await ids({ dataset: "qa" }), ["r3", "r2", "r1"]);
    assert.deepEqual(await ids({ target: "claude" }), ["r3"]);
    assert.deepEqual(await ids({ status: "interrupted" }), ["r4"]);
    assert.deepEqual(await ids({ from: day(2).slice(0, 10), to: day(3).slice(0, 10) }), [
      "r3",
      "r2",
    ]);
    const facets = await store.facets();
    assert.deepEqual(facets.datasets, ["math", "qa"]);
    assert.deepEqual(facets.targets, ["claude", "gpt"]);
    assert.deepEqual(facets.statuses, ["finished", "interrupted"]);
  });

  await t.step("a case's history lists each run it ran in, oldest first", async () => {
    const history = await store.caseHistory({ dataset: "qa", eval_id: "case-0", target: "gpt" });
    assert.deepEqual(history.map((h) => h.run_id), ["r1", "r2"]);
    assert.deepEqual(history.map((h) => h.rows[0].score), [1, 1]);
  });

  await t.step("a series holds one point per run, and the drift gate reads it", async () => {
    for (let i = 5; i < 9; i++) {
      await store.putRun(storedRun({ runId: `s${i}`, startedAt: day(i), scores: [1, 1, 1, 1, 1] }));
    }
    const keys = await store.seriesKeys();
    assert.deepEqual(
      keys.map((k) => [k.dataset, k.target, k.runs]),
      [["math", "gpt", 1], ["qa", "claude", 1], ["qa", "gpt", 6]],
    );
    const flat = await seriesTrend(store, { dataset: "qa", target: "gpt" }, { last: 3 });
    assert.equal(flat.points.length, 6);
    assert.equal(flat.points[0].run_id, "r1");
    assert.equal(flat.drift?.verdict, "no significant decline");
    assert.ok(flat.points[5].pass_interval!.high > 0.99);
    await store.putRun(
      storedRun({ runId: "s9", startedAt: day(9), scores: [0.2, 0.3, 0.1, 0.4, 0.2] }),
    );
    const down = await seriesTrend(store, { dataset: "qa", target: "gpt" }, { last: 3 });
    assert.equal(down.drift?.verdict, "degrading");
    assert.equal(down.drift?.paired, 5);
  });

  await t.step("labels are kept once, by run", async () => {
    const labels = [
      label("r1", 0),
      label("r1", 1, { label: null, score: 0.5, evaluator: "judge" }),
    ];
    assert.equal(await store.addLabels(labels), 2);
    assert.equal(await store.addLabels(labels), 0);
    assert.equal(await store.addLabels([label("r2", 0)]), 1);
    const held = await store.labels("r1");
    assert.deepEqual(held.map((l) => [l.eval_id, l.label, l.score, l.evaluator]), [
      ["case-0", "fail", null, null],
      ["case-1", null, 0.5, "judge"],
    ]);
    assert.equal((await store.labels()).length, 3);
  });

  await t.step("a run taken out leaves its labels", async () => {
    await store.deleteRun("r1");
    assert.equal(await store.hasRun("r1"), false);
    assert.deepEqual(await store.rows("r1"), []);
    assert.equal((await store.labels("r1")).length, 2);
  });

  await t.step("text that looks like SQL is stored as text", async () => {
    const hostile = "x'); DROP TABLE agentv_runs; --";
    await store.putRun(
      storedRun({ runId: hostile, startedAt: day(20), scores: [1], dataset: hostile }),
    );
    assert.equal((await store.listRuns({ dataset: hostile }))[0].run_id, hostile);
    assert.equal((await store.rows(hostile))[0].dataset, hostile);
  });
}
