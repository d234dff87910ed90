/** Runner: one worker pool across files, capped per target. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval, type RunEvent } from "../../mod.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { containsSuite, project } from "../_helpers/run_project.ts";

/** The most cases in flight at once, from `case_started` / `case_finished` events. */
function maxInFlight(events: RunEvent[]): number {
  let now = 0;
  let max = 0;
  for (const e of events) {
    if (e.type === "case_started") max = Math.max(max, ++now);
    if (e.type === "case_finished") now--;
  }
  return max;
}

Deno.test("runner: one pool across files; a target's workers caps its concurrency", async () => {
  // The server answers only once 4 requests are waiting: two files of two cases finish only
  // when one pool runs all four at once (a pool per file, or fewer workers, would time out).
  await using server = startProviderServer("openai", { fallback: "ok", barrier: 4 });
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: openai
    base_url: ${server.url}
    api_key: k-1234
    model: m
    max_retries: 0
  - name: capped
    provider: mock
    response: ok
    delay_ms: 20
    workers: 1
`,
    "evals/a.yaml": containsSuite("a", [["a1", "ok"], ["a2", "ok"]]),
    "evals/b.yaml": containsSuite("b", [["b1", "ok"], ["b2", "ok"]]),
  });
  const pooledEvents: RunEvent[] = [];
  const pooled = await runEval({
    files: [join(p.dir, "evals/a.yaml"), join(p.dir, "evals/b.yaml")],
    env: {},
    cwd: p.dir,
    workers: 4,
    timeoutMs: 30_000,
    onEvent: (e) => pooledEvents.push(e),
  });
  assert.equal(pooled.rows.length, 4);
  for (const row of pooled.rows) assert.equal(row.status, "ok", row.error ?? "");
  assert.equal(maxInFlight(pooledEvents), 4);
  const starts: string[] = [];
  const cappedEvents: RunEvent[] = [];
  await runEval({
    files: [join(p.dir, "evals/a.yaml"), join(p.dir, "evals/b.yaml")],
    env: {},
    cwd: p.dir,
    workers: 4,
    target: "capped",
    onEvent: (e) => {
      cappedEvents.push(e);
      if (e.type === "case_started") starts.push(e.eval_id);
    },
  });
  assert.equal(maxInFlight(cappedEvents), 1, "capped at 1 worker");
  assert.deepEqual(starts, ["a1", "a2", "b1", "b2"]);
});
