/**
 * A `cli` target's commands end with agentv: after a real SIGINT to the CLI, no command it started
 * is left running, not even a background child that ignores SIGTERM.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "../cli/_buffer_io.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

/** Whether `pid` is a running process (a zombie waiting to be reaped counts as gone). */
function isAlive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

Deno.test({
  name: "after Ctrl-C no command of a CLI target is left running, even one that ignores SIGTERM",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    // The command runs in the eval file's folder, the tree's root: it names its files relatively.
    // It tells the test it runs through the FIFO `ready`; its background child holds the FIFO
    // `held` open for writing, so the end of `held` means the child is gone.
    await using tree = await tempTree({
      ".agentv/targets.yaml": [
        "targets:",
        "  - name: default",
        "    provider: cli",
        `    command_template: "trap '' TERM; sleep 100 > held & echo $! > pid; echo go > ready; wait"`,
        "    max_retries: 0",
        "",
      ].join("\n"),
      "ds.yaml": [
        "evalcases:",
        "  - id: c1",
        "    expected_outcome: x",
        "    input: x",
        "    evaluators: [{type: contains, value: x}]",
        "",
      ].join("\n"),
    }, { git: true });
    const mkfifo = await new Deno.Command("mkfifo", {
      args: [tree.path("ready"), tree.path("held")],
    }).output();
    assert.equal(mkfifo.code, 0);
    const cli = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--unstable-worker-options",
        join(REPO_ROOT, "main.ts"),
        "run",
        "ds.yaml",
        "--allow-run",
        "--out",
        "results.jsonl",
      ],
      cwd: tree.root,
      env: { NO_COLOR: "1" },
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const waiting = { ready: true, early: false };
    const unblock = cli.status.then(async () => {
      if (!waiting.ready) return;
      waiting.early = true;
      using _ = await Deno.open(tree.path("ready"), { write: true });
    });
    let pid = 0;
    try {
      // the command runs; should agentv exit first, unblock the read and fail
      const said = await Deno.readTextFile(tree.path("ready"));
      waiting.ready = false;
      assert.ok(!waiting.early, "agentv exited before the command ran");
      assert.equal(said, "go\n");
      pid = Number(await Deno.readTextFile(tree.path("pid")));
      using held = await Deno.open(tree.path("held"), { read: true });
      cli.kill("SIGINT");
      assert.equal((await cli.status).code, 130);
      // The background child's end of `held`, unless it is still running.
      let guard: ReturnType<typeof setTimeout> | undefined;
      const ended = await Promise.race([
        held.read(new Uint8Array(16)).then((n) => n === null),
        new Promise<false>((resolve) => guard = setTimeout(() => resolve(false), 30_000)),
      ]);
      clearTimeout(guard);
      assert.ok(ended, "the background child still runs after agentv exited");
      assert.equal(isAlive(pid), false, "the background child outlived agentv");
    } finally {
      if (pid > 0) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch { /* gone, as it should be */ }
      }
      await cli.status;
      await unblock;
    }
  },
});
