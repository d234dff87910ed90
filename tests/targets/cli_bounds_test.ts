/**
 * A `cli` target is bounded: its answer is taken when the command exits (a background child that
 * keeps stdout open neither delays it nor outlives it), and its output is capped by
 * `max_output_bytes` (an error naming the cap, never an exhausted heap).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval } from "../../lib/run/run_eval.ts";
import { createTarget } from "../../lib/targets/registry.ts";
import { runShell } from "../../lib/targets/shell.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { makeRequest } from "./_request.ts";

/** How much of stderr is kept for messages (64 KiB, as documented). */
const STDERR_TAIL_BYTES = 64 * 1024;

/** Whether `pid` is a running process (a zombie waiting to be reaped counts as gone). */
function isAlive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

function cliTarget(settings: Record<string, unknown>, tempDir?: string) {
  return createTarget({
    name: "agent",
    provider: "cli",
    // long enough that a run which waits for the background child fails by timing out
    timeout_seconds: 30,
    max_retries: 0,
    ...settings,
  }, { env: {}, ...(tempDir !== undefined ? { tempDir } : {}) });
}

Deno.test({
  name: "a background child holding stdout open does not delay the answer and is killed with it",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using tree = await tempTree({});
    const pidFile = tree.path("pid");
    const target = cliTarget({
      command_template: `echo answer; sleep 100 & echo $! > ${pidFile}`,
    });
    const response = await target.invoke(makeRequest());
    assert.equal(response.output_messages[0].content, "answer");
    const pid = Number(await Deno.readTextFile(pidFile));
    assert.ok(pid > 0);
    assert.equal(isAlive(pid), false, "the background `sleep 100` outlived the call");
  },
});

Deno.test({
  name: "a command that leaves a background child behind is answered from {OUTPUT_FILE} at once",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using tree = await tempTree({});
    const pidFile = tree.path("pid");
    const target = cliTarget({
      command_template: `printf done > {OUTPUT_FILE}; sleep 100 & echo $! > ${pidFile}`,
    }, tree.root);
    const response = await target.invoke(makeRequest());
    assert.equal(response.output_messages[0].content, "done");
    assert.equal(isAlive(Number(await Deno.readTextFile(pidFile))), false);
  },
});

Deno.test({
  name: "stdout beyond max_output_bytes is an error naming the cap, and the command is killed",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const target = cliTarget({
      // without the kill the command would sleep until timeout_seconds
      command_template: "head -c 5000 /dev/zero | tr '\\0' a; sleep 100",
      max_output_bytes: 1000,
    });
    const error = await target.invoke(makeRequest()).then(() => undefined, (e) => e);
    assert.ok(error instanceof Error, "the oversized answer was accepted");
    assert.match(error.message, /more than 1000 bytes to stdout \(max_output_bytes: 1000\)/);
    assert.doesNotMatch(error.message, /timed out/);
  },
});

Deno.test({
  name: "stdout exactly at max_output_bytes is the answer",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const target = cliTarget({
      command_template: "head -c 1000 /dev/zero | tr '\\0' a",
      max_output_bytes: 1000,
    });
    const response = await target.invoke(makeRequest());
    assert.equal(response.output_messages[0].content, "a".repeat(1000));
  },
});

Deno.test({
  name: "the default output cap is 16 MiB",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const target = cliTarget({
      command_template: `head -c ${16 * 1024 * 1024 + 1} /dev/zero | tr '\\0' a`,
    });
    const error = await target.invoke(makeRequest()).then(() => undefined, (e) => e);
    assert.ok(error instanceof Error, "a 16 MiB + 1 byte answer was accepted");
    assert.match(error.message, /more than 16 MiB to stdout \(max_output_bytes: 16777216\)/);
  },
});

Deno.test({
  name: "an {OUTPUT_FILE} larger than max_output_bytes is an error naming the cap",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using tree = await tempTree({});
    const target = cliTarget({
      command_template: "head -c 2048 /dev/zero | tr '\\0' a > {OUTPUT_FILE}",
      max_output_bytes: 1024,
    }, tree.root);
    const error = await target.invoke(makeRequest()).then(() => undefined, (e) => e);
    assert.ok(error instanceof Error, "the oversized output file was read");
    assert.match(error.message, /more than 1 KiB to its \{OUTPUT_FILE\}.*max_output_bytes: 1024/);
    assert.deepEqual([...Deno.readDirSync(tree.root)], [], "the output file was not removed");
  },
});

Deno.test({
  name: "stdout next to {OUTPUT_FILE} and stderr are kept only as a bounded tail",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using tree = await tempTree({});
    const target = cliTarget({
      command_template:
        "head -c 200000 /dev/zero | tr '\\0' l; printf ok > {OUTPUT_FILE}; head -c 200000 /dev/zero | tr '\\0' e >&2",
      max_output_bytes: 1024,
    }, tree.root);
    const response = await target.invoke(makeRequest());
    assert.equal(response.output_messages[0].content, "ok");

    const result = await runShell("head -c 1000000 /dev/zero | tr '\\0' e >&2; echo done", {
      timeoutMs: 30_000,
    });
    assert.equal(result.stdout, "done\n");
    assert.equal(result.stderr.length, STDERR_TAIL_BYTES);
  },
});

Deno.test("max_output_bytes must be a positive integer", async () => {
  await using tree = await tempTree({});
  const error = (() => {
    try {
      cliTarget({ command_template: "echo hi", max_output_bytes: 0 }, join(tree.root));
    } catch (e) {
      return e as Error;
    }
  })();
  assert.ok(error, "max_output_bytes: 0 was accepted");
  assert.match(error.message, /max_output_bytes must be an integer between 1 and/);
});

Deno.test({
  name: "a run whose CLI target writes too much records an error row naming the cap",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using tree = await tempTree({
      ".agentv/targets.yaml": [
        "targets:",
        "  - name: default",
        "    provider: cli",
        `    command_template: "head -c 4096 /dev/zero | tr '\\\\0' a"`,
        "    max_output_bytes: 2048",
        "  - name: small",
        "    provider: cli",
        "    command_template: echo ok",
        "",
      ].join("\n"),
      "evals/ds.yaml": [
        "evalcases:",
        "  - id: big",
        "    expected_outcome: Says ok",
        "    input: Say ok",
        "    evaluators: [{type: contains, value: ok}]",
        "  - id: fine",
        "    expected_outcome: Says ok",
        "    input: Say ok",
        "    execution: {target: small}",
        "    evaluators: [{type: contains, value: ok}]",
        "",
      ].join("\n"),
    }, { git: true });
    const { rows, summary } = await runEval({
      files: [tree.path("evals/ds.yaml")],
      env: {},
      cwd: tree.root,
      allowRun: true,
      out: tree.path("results.jsonl"),
    });
    const byId = Object.fromEntries(rows.map((r) => [r.eval_id, r]));
    assert.equal(byId.big.status, "error");
    assert.match(byId.big.error ?? "", /more than 2 KiB to stdout \(max_output_bytes: 2048\)/);
    assert.equal(byId.fine.status, "ok");
    assert.equal(summary.total, 2);
  },
});
