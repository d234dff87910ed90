/** Run: dataset names are unique within a run, and the run has a name for its results file. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runName, uniqueDatasetNames } from "../../lib/run/dataset_names.ts";
import type { LoadedEvalSet } from "../../lib/run/run_options.ts";
import { evalCase } from "./_helpers.ts";
import { cli, containsSuite, mockTargets, project, rowsOf } from "../_helpers/run_project.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

function loaded(root: string, rel: string, dataset: string, ids: string[]): LoadedEvalSet {
  const file = join(root, rel);
  return {
    file,
    root,
    evalDir: join(file, ".."),
    cases: ids.map((id) => ({ ...evalCase(id), dataset })),
  };
}

Deno.test("uniqueDatasetNames() names files that share their own name by their path from the root; declared names are kept", () => {
  const sets = [
    loaded("/r", "features/basic/evals/dataset.yaml", "dataset", ["a"]),
    loaded("/r", "features/rubric/evals/dataset.yaml", "dataset", ["b"]),
    loaded("/r", "showcase/triage/evals/dataset.jsonl", "dataset", ["c"]),
    loaded("/r", "support/one.yaml", "support", ["d"]),
    loaded("/r", "support/two.yaml", "support", ["e"]),
    loaded("/r", "alone/evals/solo.yaml", "solo", ["f"]),
  ];
  const named = uniqueDatasetNames(sets);
  assert.deepEqual(named.map((s) => s.cases[0].dataset), [
    "features/basic/evals/dataset",
    "features/rubric/evals/dataset",
    "showcase/triage/evals/dataset",
    "support",
    "support",
    "solo",
  ]);
  assert.equal(named[5], sets[5], "a set that keeps its name is not copied");
  assert.equal(sets[0].cases[0].dataset, "dataset", "the given sets are not changed");
  // Under different roots with the same relative path: from the folder that holds them all.
  const apart = uniqueDatasetNames([
    loaded("/x/a", "evals/dataset.yaml", "dataset", ["a"]),
    loaded("/x/b", "evals/dataset.yaml", "dataset", ["b"]),
  ]);
  assert.deepEqual(apart.map((s) => s.cases[0].dataset), ["a/evals/dataset", "b/evals/dataset"]);
  // Run names: the one dataset, else the folder holding every file.
  assert.equal(runName(named.slice(3, 5)), "support");
  assert.equal(runName(named), "r");
  assert.equal(runName([]), "run");
});

Deno.test("a run over several datasets from another folder writes its results under the current project's .agentv/results/, named after the run, with unique dataset names", async () => {
  await using elsewhere = await tempTree({
    "examples/.agentv/targets.yaml": mockTargets("Paris"),
    "examples/a/evals/dataset.yaml": containsSuite("x", [["c1", "Paris"]]).replace(
      "dataset: x\n",
      "",
    ),
    "examples/b/evals/dataset.yaml": containsSuite("x", [["c1", "Paris"]]).replace(
      "dataset: x\n",
      "",
    ),
  });
  await using here = await project({ "README.md": "my project\n" });
  const r = await cli(["run", join(elsewhere.dir, "examples")], here.dir);
  assert.equal(r.code, 0, r.out + r.err);
  const written = [...Deno.readDirSync(join(here.dir, ".agentv", "results"))].map((e) => e.name);
  const results = written.find((n) => n.endsWith(".jsonl"));
  assert.match(results ?? "", /^examples-\d{4}-\d\d-\d\dT[\d-]+Z\.jsonl$/, written.join(", "));
  let leaked = true;
  try {
    await Deno.stat(join(elsewhere.dir, "examples", ".agentv", "results"));
  } catch {
    leaked = false;
  }
  assert.equal(leaked, false, "nothing is written into the datasets' folder");
  const rows = await rowsOf(join(here.dir, ".agentv", "results", results!));
  assert.deepEqual(rows.map((row) => row.dataset).sort(), ["a/evals/dataset", "b/evals/dataset"]);
});
