/**
 * CLI: interrupting `agentv run` in-process (the first Ctrl-C aborts the command's signal). The
 * test interrupts on the `start <id>` lines `--verbose` prints when a case starts, never after a
 * delay. SIGINT to a real process is tests/cli/run_process_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, containsSuite, mockTargets, project, rowsOf } from "../_helpers/run_project.ts";

/** Both cases' `start` lines (printed on the `case_started` event), in either order. */
const BOTH_STARTED = /start c1\b[\s\S]*start c2\b|start c2\b[\s\S]*start c1\b/;

Deno.test("run: Ctrl-C records in-flight cases as interrupted, prints the summary, exits 130", async () => {
  await using p = await project({
    // A call that is not aborted would hold the run for 10 minutes, so finishing at all shows
    // that the calls in flight were aborted.
    ".agentv/targets.yaml": mockTargets("Paris", "    delay_ms: 600000\n"),
    "evals/a.yaml": containsSuite("a", [["c1", "Paris"], ["c2", "Paris"], ["c3", "Paris"]]),
  });
  const r = await cli(["run", "evals", "--workers", "2", "--verbose", "--out", "o.jsonl"], p.dir, {
    interruptWhen: BOTH_STARTED,
  });
  assert.equal(r.code, 130, r.err);
  const rows = await rowsOf(join(p.dir, "o.jsonl"));
  assert.deepEqual(rows.map((row) => row.eval_id).sort(), ["c1", "c2"], "c3 never started");
  for (const row of rows) {
    assert.equal(row.status, "error");
    assert.match(row.error ?? "", /interrupted/);
  }
  assert.match(r.out, /Summary|interrupted/i);
});
