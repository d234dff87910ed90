/**
 * `agentv init` and `agentv run` as real processes in an empty folder, as a user runs them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { tempTree } from "../_helpers/temp_tree.ts";
import { REPO_ROOT } from "./_buffer_io.ts";
import { jsonlRows, listFiles } from "./_files.ts";

Deno.test("real processes: agentv init && agentv run in an empty folder exit 0", async () => {
  await using tree = await tempTree({});
  const home = tree.path("home");
  await Deno.mkdir(home);
  const spawn = async (args: string[]) => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--config",
        join(REPO_ROOT, "deno.json"),
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "--allow-net=127.0.0.1",
        "--allow-run",
        "--unstable-worker-options",
        join(REPO_ROOT, "main.ts"),
        ...args,
      ],
      cwd: tree.root,
      env: { HOME: home, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder();
    return {
      code: output.code,
      log: text.decode(output.stdout) + text.decode(output.stderr),
    };
  };
  const init = await spawn(["init"]);
  assert.equal(init.code, 0, init.log);
  const run = await spawn(["run"]);
  assert.equal(run.code, 0, run.log);
  const results = (await listFiles(tree.root)).filter((f) =>
    f.startsWith(".agentv/results/") && f.endsWith(".jsonl")
  );
  assert.equal(results.length, 1, `one results file: ${results.join(", ")}`);
  const rows = jsonlRows(await Deno.readTextFile(tree.path(results[0]!)));
  assert.ok(rows.length >= 3);
  assert.ok(rows.every((r) => r.verdict === "pass"));
});
