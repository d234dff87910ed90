/**
 * Runner: a run killed with SIGKILL keeps every row already written, whole, and its run record
 * reads `running`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readResults } from "../../mod.ts";
import { readRunRecord, runRecordPath } from "../../lib/results/run_record.ts";
import { project, runUntilKilled } from "../_helpers/run_project.ts";

Deno.test("runner: after kill -9 every row already written is intact and the run reads running", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: mock
    response: ok
  - name: slow
    provider: mock
    response: ok
    delay_ms: 30000
`,
    "evals/a.yaml": `evalcases:
${
      ["c1", "c2", "c3"].map((id) =>
        `  - id: ${id}\n    expected_outcome: x\n    input: x\n    evaluators: [{type: contains, value: ok}]\n`
      ).join("")
    }  - id: hang
    expected_outcome: x
    input: x
    execution: {target: slow}
    evaluators: [{type: contains, value: ok}]
`,
  });
  const out = join(p.dir, "o.jsonl");
  // A `[n/4]` progress line is printed after its row is written: kill once three are printed.
  const { killed, progress } = await runUntilKilled(["run", "evals", "--out", out], p.dir, {
    rows: 3,
  });
  assert.ok(killed, progress);
  const text = await Deno.readTextFile(out);
  assert.ok(text.endsWith("\n"));
  const { rows, partial_line } = await readResults(out);
  assert.equal(partial_line, undefined);
  assert.deepEqual(rows.map((r) => r.eval_id).sort(), ["c1", "c2", "c3"]);
  // The run record was never finished: it reads `running`, with no end time and no summary.
  const record = await readRunRecord(runRecordPath(out));
  assert.equal(record.status, "running");
  assert.equal(record.ended_at, null);
  assert.equal(record.summary, null);
  assert.deepEqual(rows.map((r) => r.run_id), rows.map(() => record.run_id));
});
