/**
 * runAgentCli: real subprocesses (`sh`), streamed line by line, logged redacted, killed by
 * process group on timeout and abort.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type AgentRunSpec, markedPids, runAgentCli } from "../../lib/targets/agent_cli.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { waitProcessEnded } from "../_helpers/processes.ts";

const ENV = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };

function spec(script: string, cwd: string, extra: Partial<AgentRunSpec> = {}): AgentRunSpec {
  return {
    command: "sh",
    args: ["-c", script],
    cwd,
    env: ENV,
    timeoutMs: 60_000,
    signal: new AbortController().signal,
    redact: (t) => t,
    ...extra,
  };
}

Deno.test("lines reach the parser while the agent is still running", async () => {
  await using tree = await tempTree({});
  const go = join(tree.dir, "go");
  const seen: string[] = [];
  // The agent prints one line, then waits for a file the test creates only after seeing it.
  const result = await runAgentCli(
    spec(`echo first; while [ ! -e '${go}' ]; do sleep 0.02; done; echo second`, tree.dir),
    (line) => {
      seen.push(line);
      if (line === "first") Deno.writeTextFileSync(go, "");
    },
  );
  assert.deepEqual(seen, ["first", "second"]);
  assert.equal(result.exitCode, 0);
  assert.equal(result.timedOut, false);
});

Deno.test("stdin gets the prompt and is closed; a last line without a newline is kept", async () => {
  await using tree = await tempTree({});
  const seen: string[] = [];
  const result = await runAgentCli(
    spec("cat; printf 'tail-line'", tree.dir, { stdin: "line one\r\nline two\n" }),
    (line) => seen.push(line),
  );
  assert.deepEqual(seen, ["line one", "line two", "tail-line"]);
  assert.equal(result.exitCode, 0);
});

Deno.test("the log keeps every stdout line, redacted; non-JSON and stderr lines are wrapped as JSON", async () => {
  await using tree = await tempTree({});
  const logPath = join(tree.dir, ".agentv", "logs", "run-1", "case.jsonl");
  const script = `echo '{"type":"a","key":"sk-SECRET-4242"}'; echo 'plain sk-SECRET-4242'; ` +
    `echo 'oops sk-SECRET-4242' >&2; exit 3`;
  const result = await runAgentCli(
    spec(script, tree.dir, {
      logPath,
      redact: (t) => t.replaceAll("sk-SECRET-4242", "***"),
    }),
    () => {},
  );
  assert.equal(result.exitCode, 3);
  assert.equal(result.stderr, "oops ***");
  const lines = (await Deno.readTextFile(logPath)).trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 3);
  assert.ok(!JSON.stringify(lines).includes("SECRET"));
  assert.deepEqual(lines.find((l) => l.type === "a"), { type: "a", key: "***" });
  assert.deepEqual(lines.find((l) => l.type === "agentv.non_json"), {
    type: "agentv.non_json",
    text: "plain ***",
  });
  assert.deepEqual(lines.find((l) => l.type === "agentv.stderr"), {
    type: "agentv.stderr",
    text: "oops ***",
  });
});

Deno.test("a timeout kills the agent's whole process group, background children included", async () => {
  await using tree = await tempTree({});
  const pidFile = join(tree.dir, "child.pid");
  let childPid = 0;
  const result = await runAgentCli(
    spec(`sleep 300 & echo $! > '${pidFile}'; echo started; wait`, tree.dir, {
      timeoutMs: 300,
      killGraceMs: 200,
    }),
    (line) => {
      if (line === "started") childPid = Number(Deno.readTextFileSync(pidFile).trim());
    },
  );
  assert.equal(result.timedOut, true);
  assert.notEqual(result.exitCode, 0);
  assert.ok(childPid > 0);
  assert.ok(await waitProcessEnded(childPid), `background child ${childPid} still runs`);
});

Deno.test("an abort kills the agent; a background child left behind at exit is killed too", async () => {
  await using tree = await tempTree({});
  const pidFile = join(tree.dir, "child.pid");
  // Exits at once, leaving a background child in its group.
  const left = await runAgentCli(
    spec(`sleep 300 > /dev/null 2>&1 & echo $! > '${pidFile}'; echo done`, tree.dir),
    () => {},
  );
  assert.equal(left.exitCode, 0);
  const orphan = Number((await Deno.readTextFile(pidFile)).trim());
  assert.ok(await waitProcessEnded(orphan), `left-behind child ${orphan} still runs`);

  const controller = new AbortController();
  const aborted = await runAgentCli(
    spec("echo ready; sleep 300", tree.dir, { signal: controller.signal, killGraceMs: 200 }),
    (line) => {
      if (line === "ready") controller.abort();
    },
  );
  assert.equal(aborted.aborted, true);
  assert.equal(aborted.timedOut, false);
});

Deno.test({
  name: "a process the agent started in a session of its own is killed when the agent ends",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using tree = await tempTree({});
    const pidFile = join(tree.dir, "escaped.pid");
    // setsid puts the child out of the agent's process group, as Claude Code's Bash tool does.
    const result = await runAgentCli(
      spec(
        `setsid sh -c 'echo $$ > "${pidFile}"; exec tail -f /dev/null' > /dev/null 2>&1 & ` +
          `while [ ! -s '${pidFile}' ]; do sleep 0.02; done; echo started`,
        tree.dir,
      ),
      () => {},
    );
    assert.equal(result.exitCode, 0);
    const escaped = Number((await Deno.readTextFile(pidFile)).trim());
    assert.ok(escaped > 0);
    assert.ok(await waitProcessEnded(escaped), `escaped process ${escaped} still runs`);
  },
});

Deno.test("stdout past maxOutputBytes stops the agent", async () => {
  await using tree = await tempTree({});
  let count = 0;
  const result = await runAgentCli(
    spec("while true; do echo 0123456789; done", tree.dir, { maxOutputBytes: 4096 }),
    () => count++,
  );
  assert.equal(result.outputOverflow, true);
  assert.ok(count <= 4096 / 11 + 1, `${count} lines`);
});

Deno.test("a missing executable throws NotFound", async () => {
  await using tree = await tempTree({});
  await assert.rejects(
    runAgentCli({ ...spec("", tree.dir), command: "agentv-no-such-agent-cli" }, () => {}),
    Deno.errors.NotFound,
  );
});

Deno.test("markedPids picks the processes whose environment carries a live run's marker", () => {
  const listing = [
    " 101 tail -f /dev/null PATH=/bin AGENTV_AGENT_RUN=aaa HOME=/h",
    " 102 bash -c x AGENTV_AGENT_RUN=bbb",
    " 103 node server.js PATH=/bin",
    "   1 init AGENTV_AGENT_RUN=aaa",
    "",
  ].join("\n");
  assert.deepEqual(markedPids(listing, new Set(["aaa"])), [101]);
  assert.deepEqual(markedPids(listing, new Set(["aaa", "bbb"])), [101, 102]);
  assert.deepEqual(markedPids(listing, new Set()), []);
});
