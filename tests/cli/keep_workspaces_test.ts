/** `agentv run --keep-workspaces` keeps each case's workspace under `.agentv/workspaces/`. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { runCommand } from "../../lib/cli/run.ts";
import { readResults } from "../../lib/results/read_results.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { createBufferIO } from "./_buffer_io.ts";

function dataset() {
  return {
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: cli
    workspace_template: ../project
    command_template: "printf 'done\\\\n' >> log.txt && echo ok"
`,
    "project/log.txt": "start\n",
    "evals/a.yaml": `evalcases:
  - id: one
    expected_outcome: x
    input: hi
    evaluators: [{ type: file_changes, expected: [{ path: log.txt, change: modified, contains: done }] }]
`,
  };
}

Deno.test("agentv run --keep-workspaces keeps the workspace and names it in the row", async () => {
  await using tree = await tempTree(dataset(), { git: true });
  const io = createBufferIO({ cwd: tree.root, env: { PATH: Deno.env.get("PATH") ?? "" } });
  const code = await runCli(
    ["run", "evals", "--allow-run", "--keep-workspaces", "--out", "out.jsonl"],
    io,
    { commands: [runCommand] },
  );
  assert.equal(code, 0, io.out() + io.err());
  const { rows } = await readResults(tree.path("out.jsonl"));
  const kept = tree.path(`.agentv/workspaces/${rows[0].run_id}/one`);
  assert.equal((rows[0].workspace as { path: string }).path, kept);
  assert.equal(await Deno.readTextFile(join(kept, "log.txt")), "start\ndone\n");
  assert.equal(await Deno.readTextFile(tree.path("project/log.txt")), "start\n");
});

Deno.test("agentv run without --keep-workspaces keeps nothing", async () => {
  await using tree = await tempTree(dataset(), { git: true });
  const io = createBufferIO({ cwd: tree.root, env: { PATH: Deno.env.get("PATH") ?? "" } });
  const code = await runCli(["run", "evals", "--allow-run", "--out", "out.jsonl"], io, {
    commands: [runCommand],
  });
  assert.equal(code, 0, io.out() + io.err());
  const { rows } = await readResults(tree.path("out.jsonl"));
  assert.equal((rows[0].workspace as { path: string | null }).path, null);
  await assert.rejects(() => Deno.stat(tree.path(".agentv/workspaces")), Deno.errors.NotFound);
});
