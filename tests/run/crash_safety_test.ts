/** Runner: rows are flushed as cases finish and survive a crash. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readResults, runEval } from "../../mod.ts";
import { row as resultRow } from "../results/_rows.ts";
import { project } from "../_helpers/run_project.ts";

Deno.test("runner: each row is flushed as its case finishes", async () => {
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: fast
    provider: mock
    response: ok
  - name: slow
    provider: mock
    response: ok
    delay_ms: 400
`,
    "evals/a.yaml": `evalcases:
  - id: quick
    expected_outcome: x
    input: x
    execution: {target: fast}
    evaluators: [{type: contains, value: ok}]
  - id: lazy
    expected_outcome: x
    input: x
    execution: {target: slow}
    evaluators: [{type: contains, value: ok}]
`,
  });
  const out = join(p.dir, "o.jsonl");
  // When a case's `case_finished` event fires, its row (and only the rows finished so far) is
  // already in the file: read it right then, while the other case may still be running.
  const seen: string[][] = [];
  await runEval({
    files: [join(p.dir, "evals/a.yaml")],
    env: {},
    cwd: p.dir,
    out,
    onEvent: (e) => {
      if (e.type === "case_finished") {
        const lines = Deno.readTextFileSync(out).split("\n").filter(Boolean);
        seen.push(lines.map((l) => JSON.parse(l).eval_id));
      }
    },
  });
  assert.equal(seen.length, 2);
  assert.equal(seen[0].length, 1, "the first row is on disk before the second case finishes");
  assert.deepEqual(seen[1].slice(0, 1), seen[0]);
  assert.deepEqual([...seen[1]].sort(), ["lazy", "quick"]);
});

Deno.test("results reader skips a torn final line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "r.jsonl");
    const row = resultRow("a", 1);
    await Deno.writeTextFile(path, JSON.stringify(row) + "\n" + '{"eval_id": "b", "sco');
    const { rows } = await readResults(path);
    assert.deepEqual(rows.map((r) => r.eval_id), ["a"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
