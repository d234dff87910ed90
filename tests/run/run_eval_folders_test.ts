/**
 * `runEval({ files })` takes folders as well as files: a folder is searched for eval files the way
 * `agentv run` searches it.
 */
import assert from "node:assert/strict";
import { RunConfigError } from "../../lib/run/errors.ts";
import { runEval } from "../../lib/run/run_eval.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

const TARGETS =
  "targets:\n  - name: default\n    provider: mock\n    response: The capital is Paris.\n";

function yamlCases(...ids: string[]): string {
  return "evalcases:\n" +
    ids.map((id) =>
      `  - id: ${id}\n    expected_outcome: Names Paris\n    input: Capital of France?\n` +
      "    evaluators:\n      - type: contains\n        value: Paris\n"
    ).join("");
}

Deno.test("runEval() runs every eval file found in a folder, nested ones included", async () => {
  await using tree = await tempTree({
    ".agentv/targets.yaml": TARGETS,
    "evals/geo.yaml": yamlCases("a", "b"),
    "evals/more/trivia.jsonl":
      `{"id":"c","expected_outcome":"Names Paris","input":"Capital?","evaluators":[{"type":"contains","value":"Paris"}]}\n`,
    "evals/more/trivia.yaml": "description: sidecar of trivia.jsonl\n",
    "evals/.hidden/skipped.yaml": yamlCases("hidden"),
  });
  const { rows } = await runEval({ files: ["evals"], env: {}, cwd: tree.root });
  assert.deepEqual(rows.map((r) => r.eval_id).sort(), ["a", "b", "c"]);
  assert.deepEqual(rows.map((r) => r.verdict), ["pass", "pass", "pass"]);
});

Deno.test("runEval() takes folders and files together", async () => {
  await using tree = await tempTree({
    ".agentv/targets.yaml": TARGETS,
    "evals/one.yaml": yamlCases("one"),
    "other.yaml": yamlCases("two"),
  });
  const { rows } = await runEval({
    files: [tree.path("evals"), "other.yaml"],
    env: {},
    cwd: tree.root,
  });
  assert.deepEqual(rows.map((r) => r.eval_id).sort(), ["one", "two"]);
});

Deno.test("runEval() rejects a folder without eval files before anything runs", async () => {
  await using tree = await tempTree({
    ".agentv/targets.yaml": TARGETS,
    "empty/readme.md": "no evals here\n",
  });
  await assert.rejects(
    () => runEval({ files: ["empty"], env: {}, cwd: tree.root }),
    (error) => {
      assert.ok(error instanceof RunConfigError);
      assert.equal(error.diagnostics.length, 1);
      assert.equal(error.diagnostics[0]?.file, "empty");
      assert.match(error.diagnostics[0]?.message ?? "", /No eval files/);
      return true;
    },
  );
});
