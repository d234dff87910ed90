/**
 * Without `bwrap`, an agent target runs without a sandbox and `agentv run` says so, once per
 * target, in one line; `sandbox: none` says nothing.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { cli, project } from "../_helpers/run_project.ts";

const STREAM = fileURLToPath(
  new URL("../../fixtures/agents/claude/bash_edit_and_failing_step.jsonl", import.meta.url),
);

/** A dataset with a stand-in `claude` and 3 cases, and a `PATH` that holds `cat` but no `bwrap`. */
async function dataset(extra: string) {
  const p = await project({
    "bin/claude": `#!/bin/sh\ncat > /dev/null\ncat '${STREAM}'\n`,
    ".agentv/targets.yaml": "",
    "evals/a.yaml": `evalcases:
${
      ["a", "b", "c"].map((id) =>
        `  - id: ${id}\n    expected_outcome: x\n    input: hi\n    evaluators: [{type: contains, value: x}]\n`
      ).join("")
    }`,
  });
  await Deno.chmod(p.path("bin/claude"), 0o755);
  await Deno.writeTextFile(
    p.path(".agentv/targets.yaml"),
    `targets:\n  - name: default\n    provider: claude-code\n    executable: ${
      p.path("bin/claude")
    }\n${extra}`,
  );
  await Deno.mkdir(p.path("path"));
  await Deno.symlink(await Deno.realPath("/bin/cat").catch(() => "/bin/cat"), p.path("path/cat"));
  return p;
}

Deno.test("without bwrap, agentv run warns once that the agent target runs without a sandbox", async () => {
  await using p = await dataset("");
  const env = { PATH: p.path("path"), HOME: p.path("evals") };
  const { code, err, out } = await cli(["run", "evals", "--allow-run", "--workers", "1"], p.dir, {
    env,
  });
  assert.equal(code, 0, err);
  assert.match(out, /3 run, 3 scored/, "the agent ran, unsandboxed");
  const warnings = (out + err).split("\n").filter((l) => l.includes("runs without a sandbox"));
  assert.deepEqual(warnings, [
    "warning: Claude Code target 'default' runs without a sandbox: bwrap (bubblewrap) is not " +
    "installed; set sandbox: none to silence this",
  ]);
  await using quiet = await dataset("    sandbox: none\n");
  const silent = await cli(["run", "evals", "--allow-run"], quiet.dir, {
    env: { PATH: quiet.path("path"), HOME: quiet.path("evals") },
  });
  assert.doesNotMatch(silent.out + silent.err, /sandbox/);
});
