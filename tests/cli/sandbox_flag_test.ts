/**
 * `agentv run --sandbox KIND` replaces the `sandbox` setting of every agent and `cli` target and
 * script code judge of the run.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { bubblewrap } from "../_helpers/bubblewrap.ts";
import { cli, project } from "../_helpers/run_project.ts";

const STREAM = fileURLToPath(
  new URL("../../fixtures/agents/claude/bash_edit_and_failing_step.jsonl", import.meta.url),
);

/**
 * A dataset whose agent, `cli` target and code judge each try to leave a marker in `outside/`
 * (outside every workspace), and whose eval file runs the case against each target.
 */
async function dataset() {
  const p = await project({
    "bin/claude": "",
    ".agentv/targets.yaml": "",
    "outside/.keep": "",
    "evals/a.yaml": `evalcases:
  - id: by-agent
    expected_outcome: x
    input: hi
    execution: {target: agent}
    evaluators: [{type: contains, value: x}]
  - id: by-cli
    expected_outcome: x
    input: hi
    execution:
      target: command
      evaluators:
        - type: code_judge
          script: "touch ../outside/JUDGE; echo '{\\"score\\": 1}'"
`,
  });
  const outside = p.path("outside");
  await Deno.writeTextFile(
    p.path("bin/claude"),
    `#!/bin/sh\ntouch '${outside}/AGENT'\ncat > /dev/null\ncat '${STREAM}'\n`,
  );
  await Deno.chmod(p.path("bin/claude"), 0o755);
  await Deno.writeTextFile(
    p.path(".agentv/targets.yaml"),
    `targets:
  - name: agent
    provider: claude-code
    executable: ${p.path("bin/claude")}
  - name: command
    provider: cli
    command_template: touch '${outside}/CLI'; echo done
`,
  );
  return p;
}

async function markers(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) if (e.name !== ".keep") names.push(e.name);
  return names.sort();
}

Deno.test({
  name:
    "--sandbox bubblewrap boxes the cli target and the code judge too; --sandbox none unboxes the agent",
  ignore: bubblewrap.ignore,
  async fn() {
    bubblewrap.require();
    const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
    for (
      const [flag, left] of [
        [[], ["CLI", "JUDGE"]],
        [["--sandbox", "bubblewrap"], []],
        [["--sandbox", "none"], ["AGENT", "CLI", "JUDGE"]],
      ] as const
    ) {
      await using p = await dataset();
      const { err } = await cli(["run", "evals", "--allow-run", ...flag], p.dir, {
        env: { ...env, HOME: p.path("evals") },
      });
      assert.deepEqual(await markers(p.path("outside")), left, `${flag.join(" ")}: ${err}`);
    }
  },
});

Deno.test("--sandbox takes none, bubblewrap or docker", async () => {
  await using p = await dataset();
  const { code, err } = await cli(["run", "evals", "--sandbox", "bwrap"], p.dir);
  assert.equal(code, 2);
  assert.match(
    err,
    /--sandbox must be none, bubblewrap or docker, got 'bwrap'; did you mean 'bubblewrap'\?/,
  );
});
