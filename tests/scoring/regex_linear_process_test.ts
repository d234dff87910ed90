/**
 * Evaluators: a backtracking pattern against a hostile answer, and the date formats of a dataset,
 * finish in a real process bounded by a kill timer (an exponential matcher would hang the process,
 * not the suite). The in-process checks are tests/scoring/regex_linear_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runDenoBounded, runMainBounded } from "../_helpers/bounded_process.ts";
import { REPO_ROOT } from "../cli/_buffer_io.ts";
import { project, rowsOf } from "../_helpers/run_project.ts";

const EVIL_ANSWER = "a".repeat(41) + "!";

const targets = (response: string) =>
  `targets:\n  - name: default\n    provider: mock\n    response: ${JSON.stringify(response)}\n`;

const regexCase = (id: string, evaluator: string) =>
  `  - id: ${id}\n    expected_outcome: x\n    input: q\n    evaluators:\n${evaluator}`;

Deno.test("run finishes a regex ^(a+)+$ and a json_schema pattern against a 41-char answer", async () => {
  await using p = await project({
    ".agentv/targets.yaml": targets(EVIL_ANSWER) +
      `  - name: json\n    provider: mock\n    response: ${
        JSON.stringify(JSON.stringify(EVIL_ANSWER))
      }\n`,
    "evals/a.yaml": "evalcases:\n" +
      regexCase("nested", `      - type: regex\n        pattern: "^(a+)+$"\n`) +
      regexCase(
        "schema",
        `      - type: json_schema\n        schema: { type: string, pattern: "^(a+)+$" }\n`,
      ) + "    execution: { target: json }\n",
  });
  const r = await runMainBounded(["run", "evals", "--timeout", "5", "--out", "o.jsonl"], p.dir);
  assert.equal(r.killed, false, "the run hung on a backtracking pattern");
  assert.equal(r.code, 1, r.err);
  const rows = await rowsOf(join(p.dir, "o.jsonl"));
  assert.deepEqual(rows.map((row) => [row.eval_id, row.status, row.score]).sort(), [
    ["nested", "ok", 0],
    ["schema", "ok", 0],
  ]);
});

Deno.test("field_accuracy date formats from a dataset match in linear time", async () => {
  const format = "MD".repeat(30);
  const code = `import { parseDateWithFormat } from "./lib/scoring/dates.ts";
console.log(JSON.stringify(parseDateWithFormat("1".repeat(70) + "x", ${
    JSON.stringify(format)
  }) ?? null));`;
  const r = await runDenoBounded(["eval", code], REPO_ROOT);
  assert.equal(r.killed, false, "date parsing hung on a format of adjacent numeric tokens");
  assert.equal(r.out.trim(), "null", r.err);
});
