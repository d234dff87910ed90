/**
 * What a library caller of `runEval` sees when the sandbox cannot start, in real processes: a
 * process that lacks a permission the sandbox worker needs gets a `SandboxUnavailableError` that
 * says how to fix it (or to opt out), and nothing is loaded unsandboxed. Without `--unstable-worker-options` Deno itself stops the process (exit 70, its
 * message names the flag) before any file is read: that cannot be caught.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tempTree } from "../_helpers/temp_tree.ts";
import { REPO_ROOT } from "../cli/_buffer_io.ts";

const DATASET = {
  ".agentv/targets.yaml": "targets:\n  - name: default\n    provider: mock\n    response: ok\n",
  "evals/a.yaml": "evalcases:\n  - id: one\n    expected_outcome: Says ok\n    input: Say ok\n" +
    "    evaluators: [{type: contains, value: ok}]\n",
};

/** A script that runs the dataset with `runEval` and prints the rows or the error. */
function script(): string {
  return `import { runEval } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, "mod.ts")).href)};
try {
  const { rows } = await runEval({ files: ["evals"], env: {}, cwd: Deno.cwd(), });
  console.log("rows=" + rows.map((r) => r.eval_id + ":" + r.verdict).join(","));
} catch (e) {
  console.log("error=" + e.name + " code=" + e.code);
  console.log("hint=" + e.hint);
}
`;
}

async function denoRun(cwd: string, flags: string[]): Promise<{ code: number; out: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-config",
      `--import-map=${join(REPO_ROOT, "deno.json")}`,
      "--allow-read",
      "--allow-write",
      ...flags,
      "check.ts",
    ],
    cwd,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const text = new TextDecoder();
  return { code: output.code, out: text.decode(output.stdout) + text.decode(output.stderr) };
}

Deno.test("runEval() refuses to load when the sandbox cannot get its permissions, and says how to fix it", async () => {
  await using tree = await tempTree({ ...DATASET, "check.ts": script() });
  // The worker may read two env variables; a process that may read only HOME cannot grant them.
  const refused = await denoRun(tree.root, ["--unstable-worker-options", "--allow-env=HOME"]);
  assert.equal(refused.code, 0, refused.out);
  assert.match(refused.out, /^error=SandboxUnavailableError code=sandbox_unavailable$/m);
  assert.match(refused.out, /^hint=.*--allow-env.*--unstable-worker-options.*sandbox: false/m);
  assert.doesNotMatch(refused.out, /rows=/);
  // Given what it asks, the same process runs the dataset in the sandbox.
  const granted = await denoRun(tree.root, [
    "--unstable-worker-options",
    "--allow-env=HOME,LOG_TOKENS,LOG_STREAM",
  ]);
  assert.equal(granted.code, 0, granted.out);
  assert.match(granted.out, /^rows=one:pass$/m);
});

Deno.test("runEval() without --unstable-worker-options: Deno stops the process before any file is read", async () => {
  await using tree = await tempTree({ ...DATASET, "check.ts": script() });
  const stopped = await denoRun(tree.root, ["--allow-env"]);
  assert.equal(stopped.code, 70, stopped.out);
  assert.match(stopped.out, /--unstable-worker-options/);
  assert.doesNotMatch(stopped.out, /rows=|error=/);
  const sandboxed = await denoRun(tree.root, ["--allow-env", "--unstable-worker-options"]);
  assert.equal(sandboxed.code, 0, sandboxed.out);
  assert.match(sandboxed.out, /^rows=one:pass$/m);
});
