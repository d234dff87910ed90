/**
 * Module judges: a judge that allocates without end is stopped at its memory limit (512 MB by
 * default, `max_memory_mb` per judge) and becomes an evaluator error; the run goes on, its other
 * rows are written and its record says it finished.
 */
import assert from "node:assert/strict";
import { moduleJudge, runJudgedCases } from "./_judge_run.ts";

// Without end, in 8 MB arrays on V8's heap: few objects, so reaching the limit takes V8 no long
// series of collections (1 KB strings took ~5 s of CPU and ~15 s to reach 512 MB).
const HEAP_BOMB = `export default () => {
  const kept: number[][] = [];
  for (;;) kept.push(new Array(1 << 20).fill(1.5));
};
`;
const BUFFER_BOMB = `export default () => {
  const kept: Uint8Array[] = [];
  for (;;) kept.push(new Uint8Array(1 << 20).fill(1));
};
`;

Deno.test("a module judge that allocates without end is an error row; the run finishes with every row", async () => {
  const run = await runJudgedCases([
    { id: "bomb", evaluators: moduleJudge("../judges/heap.ts") },
    { id: "small", evaluators: moduleJudge("../judges/heap.ts", "        max_memory_mb: 64\n") },
    { id: "fine", evaluators: moduleJudge("../judges/fine.ts") },
    { id: "after", evaluators: moduleJudge("../judges/fine.ts") },
  ], {
    "judges/heap.ts": HEAP_BOMB,
    "judges/fine.ts": "export default () => ({ score: 1, reasoning: 'fine' });\n",
  });
  assert.equal(run.status, "finished");
  assert.deepEqual(Object.keys(run.rows).sort(), ["after", "bomb", "fine", "small"]);
  const bomb = run.rows.bomb.evaluator_results[0];
  assert.equal(bomb.status, "error");
  assert.match(bomb.error ?? "", /module judge ran out of memory \(limit 512 MB\)/);
  assert.match(run.rows.small.evaluator_results[0].error ?? "", /out of memory \(limit 64 MB\)/);
  for (const id of ["fine", "after"]) {
    assert.equal(run.rows[id].status, "ok", run.rows[id].error ?? "");
    assert.equal(run.rows[id].evaluator_results[0].reasoning, "fine");
  }
});

Deno.test({
  name: "a module judge that fills memory with array buffers (outside V8's heap) is stopped too",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const run = await runJudgedCases([
      {
        id: "buffers",
        evaluators: moduleJudge("../judges/buffers.ts", "        max_memory_mb: 64\n"),
      },
      { id: "fine", evaluators: moduleJudge("../judges/fine.ts") },
    ], {
      "judges/buffers.ts": BUFFER_BOMB,
      "judges/fine.ts": "export default () => ({ score: 1 });\n",
    });
    assert.equal(run.status, "finished");
    const result = run.rows.buffers.evaluator_results[0];
    assert.equal(result.status, "error");
    // Either the host dies at its data limit, or the allocation is refused inside the judge.
    assert.match(
      result.error ?? "",
      /ran out of memory \(limit 64 MB\)|RangeError: Array buffer allocation failed/,
    );
    assert.equal(run.rows.fine.status, "ok");
  },
});
