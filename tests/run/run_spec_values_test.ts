/**
 * `runEval`'s options are checked against the schemas of the run options before anything runs:
 * a value an option does not take is a `RunConfigError` naming the option, and no file is written.
 */
import assert from "node:assert/strict";
import { RunConfigError } from "../../lib/run/errors.ts";
import { runEval } from "../../lib/run/run_eval.ts";
import { containsSuite, mockTargets, project } from "../_helpers/run_project.ts";

for (
  const [what, options, path] of [
    ["workers 0", { workers: 0 }, "workers"],
    ["workers 2.5", { workers: 2.5 }, "workers"],
    ["a threshold above 1", { threshold: 1.5 }, "threshold"],
    ["a shard without a count", { shard: { index: 0 } }, "shard.count"],
    ["an unknown cache mode", { cache: "sometimes" }, "cache"],
    ["a trials gate that is none", { trialsGate: "most" }, "trialsGate"],
  ] as const
) {
  Deno.test(`runEval() refuses ${what} before anything runs`, async () => {
    await using p = await project({
      ".agentv/targets.yaml": mockTargets("ok"),
      "evals/a.yaml": containsSuite("a", [["c1", "ok"]]),
    });
    const error = await runEval({
      files: ["evals"],
      env: {},
      cwd: p.dir,
      out: "o.jsonl",
      ...(options as object),
    }).then(() => undefined, (e) => e);
    assert.ok(error instanceof RunConfigError, String(error));
    assert.match(
      error.message,
      new RegExp(`^runEval: ${path.replace(".", "\\.")}: .*; nothing ran$`),
    );
    await assert.rejects(Deno.stat(p.path("o.jsonl")), Deno.errors.NotFound);
  });
}
