/**
 * The answer is stored once per row in the results file: a trace that is only the answer (one
 * assistant message whose content is `candidate_answer`) is left out of the line, and reading
 * the file gives it back. A trace with more in it is kept whole.
 */
import assert from "node:assert/strict";
import { readResults } from "../../lib/results/read_results.ts";
import { compactRow, expandRow } from "../../lib/results/row_format.ts";
import { runEval } from "../../lib/run/run_eval.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

const ANSWER = "The answer is " + "forty-two ".repeat(500);

Deno.test("a run's results file holds a long answer once, and reading it restores the trace", async () => {
  await using tree = await tempTree({
    ".agentv/targets.yaml": [
      "targets:",
      "  - name: default",
      "    provider: mock",
      `    response: ${JSON.stringify(ANSWER)}`,
      "",
    ].join("\n"),
    "evals/ds.yaml": [
      "evalcases:",
      "  - id: c1",
      "    expected_outcome: Says forty-two",
      "    input: What is the answer?",
      "    evaluators: [{type: contains, value: forty-two}]",
      "",
    ].join("\n"),
  }, { git: true });
  const out = tree.path("results.jsonl");
  const { rows } = await runEval({
    files: [tree.path("evals/ds.yaml")],
    env: {},
    cwd: tree.root,
    out,
  });
  const line = (await Deno.readTextFile(out)).trimEnd();
  assert.equal(
    line.split(JSON.stringify(ANSWER).slice(1, -1)).length - 1,
    1,
    "the answer is stored more than once in the row",
  );
  const [read] = (await readResults(out)).rows;
  assert.deepEqual(read.output_messages, [{ role: "assistant", content: ANSWER }]);
  assert.deepEqual(read, rows[0]);
});

Deno.test("a trace with more than the answer is stored whole", () => {
  const row = {
    candidate_answer: "Paris",
    output_messages: [
      { role: "assistant", tool_calls: [{ tool: "search", input: { q: "capital" } }] },
      { role: "assistant", content: "Paris" },
    ],
  } as unknown as ResultRow;
  assert.equal(compactRow(row), row);
  const named = {
    candidate_answer: "Paris",
    output_messages: [{ role: "assistant", content: "Paris", name: "agent" }],
  } as unknown as ResultRow;
  assert.equal(compactRow(named), named);
  const empty = { candidate_answer: "", output_messages: [] } as unknown as ResultRow;
  assert.equal(compactRow(empty), empty);
  assert.equal(expandRow(row), row);
});
