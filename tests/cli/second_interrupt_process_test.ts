/**
 * CLI: Ctrl-C is never blocked. Nothing a dataset contains (here a backtracking regex) can keep
 * the event loop busy long enough to defeat it, and a second Ctrl-C exits with 130 at once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "./_buffer_io.ts";
import { HANG_LIMIT_MS } from "../_helpers/bounded_process.ts";
import { project } from "../_helpers/run_project.ts";

Deno.test("two SIGINTs end a run at once, even with a backtracking regex case in it", async () => {
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n" +
      `  - name: default\n    provider: mock\n    response: "${"a".repeat(41)}!"\n` +
      "  - name: slow\n    provider: mock\n    response: later\n    delay_ms: 600000\n",
    "evals/a.yaml": `evalcases:
  - id: evil
    expected_outcome: x
    input: q
    evaluators:
      - type: regex
        pattern: "^(a+)+$"
  - id: slow
    expected_outcome: x
    input: q
    execution: { target: slow }
    evaluators:
      - type: contains
        value: later
`,
  });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(REPO_ROOT, "main.ts"), "run", "evals", "--workers", "2"],
    cwd: p.dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  let killed = false;
  const limit = setTimeout(() => {
    killed = true;
    child.kill("SIGKILL");
  }, HANG_LIMIT_MS);
  const stderr = new Response(child.stderr).text();
  let out = "";
  try {
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    // The marker: the backtracking case has been scored (the slow one is still in flight).
    while (!/\bevil\b/.test(out)) {
      const { value, done } = await lines.read();
      if (done) break;
      out += value;
    }
    if (!killed) {
      child.kill("SIGINT");
      try {
        child.kill("SIGINT");
      } catch {
        // Already exited on the first one.
      }
    }
    for (;;) {
      const { value, done } = await lines.read();
      if (done) break;
      out += value;
    }
    const { code } = await child.status;
    assert.equal(killed, false, `the run hung (a busy event loop ignores Ctrl-C):\n${out}`);
    assert.equal(code, 130, out + (await stderr));
  } finally {
    clearTimeout(limit);
    await stderr;
  }
});
