/** `--dry-run` executes nothing from the dataset: no target, code judge, healthcheck or command. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval } from "../../mod.ts";
import { cli, project, rowsOf } from "../_helpers/run_project.ts";

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/** A dataset whose every command would write a PWNED file into the root. */
const HOSTILE = {
  ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    command_template: id > PWNED_TARGET
    healthcheck:
      type: command
      command_template: id > PWNED_HEALTHCHECK
`,
  "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: hi
    evaluators:
      - type: contains
        value: Mock
      - name: pwn
        type: code_judge
        script: id > PWNED
      - name: agg
        type: composite
        evaluators:
          - {type: contains, value: Mock}
        aggregator:
          type: code_judge
          script: id > PWNED_AGGREGATOR
`,
};

Deno.test("--dry-run runs no code judge, cli target, healthcheck or aggregator: nothing is written", async () => {
  await using p = await project(HOSTILE);
  const r = await cli(["run", "evals", "--dry-run", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 0, r.out + r.err);
  for (const name of ["PWNED", "PWNED_TARGET", "PWNED_HEALTHCHECK", "PWNED_AGGREGATOR"]) {
    assert.equal(await exists(join(p.dir, name)), false, `${name} was written`);
    assert.equal(await exists(join(p.dir, "evals", name)), false, `evals/${name} was written`);
  }
  const [row] = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(row.dry_run, true);
  const pwn = row.evaluator_results.find((e) => e.name === "pwn")!;
  assert.equal(pwn.status, "skipped");
  assert.match(pwn.reasoning ?? "", /dry run/i);
  const agg = row.evaluator_results.find((e) => e.name === "agg")!;
  assert.equal(agg.status, "skipped");
  // Skipped judges do not count: the contains check alone decides the score.
  assert.equal(row.status, "ok");
  assert.equal(row.score, 1);
});

Deno.test("a dry run whose only evaluator is a code judge records the case as skipped", async () => {
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - {name: default, provider: mock, response: hi}\n",
    "evals/a.yaml": `evalcases:
  - id: c1
    expected_outcome: x
    input: hi
    evaluators:
      - {type: code_judge, script: "id > PWNED"}
`,
  });
  const { rows, summary } = await runEval({
    files: ["evals/a.yaml"],
    env: {},
    cwd: p.dir,
    dryRun: true,
  });
  assert.equal(rows[0].status, "skipped");
  assert.equal(rows[0].evaluator_results[0].status, "skipped");
  assert.equal(summary.errors.length, 0);
  assert.equal(await exists(join(p.dir, "evals", "PWNED")), false);
});
