/**
 * End to end with the real Codex CLI (the pinned `@openai/codex`, see tests/_helpers/agent_clis.ts),
 * fully offline: `agentv run` (in-process) drives a `provider: codex` target whose model is the
 * loopback Responses server of tests/_helpers/responses_sse_server.ts. Codex runs the scripted
 * commands for real in each case's workspace; the rows are checked against what the commands
 * really printed and changed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { runCommand } from "../../lib/cli/run.ts";
import { locateAgentCli } from "../_helpers/agent_clis.ts";
import {
  codexMockArgs,
  DEFAULT_TURN_USAGE,
  execCommand,
  functionOutputs,
  type ResponsesSseServer,
  type ScriptedResponsesTurn,
  type ScriptedResponsesUsage,
  startResponsesSseServer,
} from "../_helpers/responses_sse_server.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";
import { createBufferIO } from "../cli/_buffer_io.ts";

const codex = await locateAgentCli("codex");
const MOCK_KEY = "sk-mock-codex-e2e-0123456789";
const PRICING = { input_per_mtok: 2, output_per_mtok: 8 };

// deno-lint-ignore no-explicit-any
type Row = Record<string, any>;

interface Dataset {
  tree: Tree;
  results: string;
}

/** A dataset root with a codex target pointed at `server`, a workspace template and `evalYaml`. */
async function dataset(
  server: ResponsesSseServer,
  evalYaml: string,
  target: Record<string, unknown> = {},
): Promise<Dataset> {
  const settings = {
    name: "codex",
    provider: "codex",
    executable: codex.require(),
    model: "gpt-5-mock",
    // Codex's own sandbox (bubblewrap, seccomp) is not what is tested here and is not available
    // on every CI machine; each case already runs in its own workspace copy.
    args: ["--sandbox", "danger-full-access", ...codexMockArgs(server.url)],
    env: ["MOCK_KEY"], // CODEX_HOME is passed on as one of Codex's own variables
    workspace_template: "../workspace",
    pricing: PRICING,
    ...target,
  };
  const targets = `targets:\n  - ${
    Object.entries(settings).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join("\n    ")
  }\n`;
  const tree = await tempTree({
    ".agentv/targets.yaml": targets,
    "workspace/greeting.txt": "hello\n",
    "evals/agent.yaml": evalYaml,
    "codex-home/.keep": "",
  }, { git: true, prefix: "agentv-codex-e2e-" });
  return { tree, results: tree.path("results.jsonl") };
}

/** Runs `agentv run evals/agent.yaml` in-process; returns the exit code, rows and output. */
async function run(ds: Dataset, extra: string[] = []) {
  const io = createBufferIO({
    cwd: ds.tree.root,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: ds.tree.path("codex-home"),
      CODEX_HOME: ds.tree.path("codex-home"),
      MOCK_KEY,
    },
  });
  const code = await runCli(
    // --allow-run: an agent target in the dataset's own targets file is a command (trust gate).
    ["run", "evals/agent.yaml", "--out", ds.results, "--target", "codex", "--allow-run", ...extra],
    io,
    { commands: [runCommand] },
  );
  const text = await Deno.readTextFile(ds.results).catch(() => "");
  const rows: Row[] = text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
  return { code, rows, out: io.out(), err: io.err() };
}

function calls(row: Row): Row[] {
  return (row.output_messages ?? []).flatMap((m: Row) => m.tool_calls ?? []);
}

function evaluator(row: Row, type: string): Row {
  const found = (row.evaluator_results ?? []).find((e: Row) => e.type === type);
  assert.ok(found, `no ${type} result in ${JSON.stringify(row.evaluator_results)}`);
  return found;
}

function total(usages: ScriptedResponsesUsage[]) {
  return {
    input: usages.reduce((n, u) => n + u.input_tokens, 0),
    output: usages.reduce((n, u) => n + u.output_tokens, 0),
    cached: usages.reduce((n, u) => n + (u.cached_tokens ?? 0), 0),
  };
}

/** An edit the way Codex makes them: `apply_patch` through its shell tool. */
const EDIT_GREETING = "apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: greeting.txt\n" +
  "@@\n-hello\n+hello, world\n*** End Patch\nPATCH\n";

Deno.test({
  name:
    "codex target: a real run of a shell command and a file edit is traced, scored by tool_trajectory and file_changes, diffed, metered and priced",
  ignore: codex.ignore,
  async fn() {
    const usages: ScriptedResponsesUsage[] = [
      { input_tokens: 1000, output_tokens: 30, cached_tokens: 100 },
      { input_tokens: 1100, output_tokens: 50, cached_tokens: 900 },
      { input_tokens: 1200, output_tokens: 20, cached_tokens: 1000 },
    ];
    const turns: ScriptedResponsesTurn[] = [
      { toolCalls: [execCommand("cat greeting.txt")], usage: usages[0] },
      { toolCalls: [execCommand(EDIT_GREETING)], usage: usages[1] },
      { text: "I changed the greeting.", usage: usages[2] },
    ];
    await using server = startResponsesSseServer({ turns });
    await using ds = await evalDataset(
      server,
      `
evalcases:
  - id: edit-greeting
    expected_outcome: The greeting says hello, world
    input: Read greeting.txt, then change it to say hello, world.
    execution:
      evaluators:
        - name: steps
          type: tool_trajectory
          mode: in_order
          expected:
            - tool: command_execution
              status: ok
            - tool: file_change
              status: ok
        - name: files
          type: file_changes
          expected:
            - path: greeting.txt
              change: modified
              contains: hello, world
`,
    );
    const { code, rows, err } = await run(ds);
    assert.equal(rows.length, 1, err);
    const row = rows[0];
    assert.equal(row.status, "ok", row.error);
    assert.equal(code, 0, err);

    // The trace holds the real calls: what `cat` really printed, the edit Codex really made.
    const [cat, edit] = calls(row);
    assert.equal(cat.tool, "command_execution");
    assert.match(cat.input.command, /cat greeting\.txt/);
    assert.equal(cat.output, "hello\n");
    assert.equal(cat.status, "ok");
    assert.equal(cat.exit_code, 0);
    assert.ok(cat.duration_ms >= 0, "a step Codex announces when it starts has a duration");
    assert.equal(edit.tool, "file_change");
    assert.deepEqual(edit.input.changes, [{ path: "greeting.txt", kind: "update" }]);
    // Codex sent the command's real output back to the model, and asked nothing else.
    assert.match(functionOutputs(server.requests[1])[0].output, /hello/);
    assert.equal(server.requests.length, turns.length);
    assert.deepEqual(server.otherRequests, []);

    assert.equal(evaluator(row, "tool_trajectory").score, 1);
    assert.equal(evaluator(row, "file_changes").score, 1);
    assert.equal(row.answer ?? row.candidate_answer, "I changed the greeting.");

    // The workspace was a copy: the diff is in the row, the template is untouched.
    assert.match(JSON.stringify(row.workspace), /\+hello, world/);
    assert.equal(await Deno.readTextFile(ds.tree.path("workspace/greeting.txt")), "hello\n");

    // Usage adds up what the model server reported; cost is usage × pricing.
    const used = total(usages);
    assert.deepEqual(row.token_usage, used);
    const cost = (used.input * PRICING.input_per_mtok + used.output * PRICING.output_per_mtok) /
      1e6;
    const priced = row.trace_summary.cost_usd;
    assert.ok(Math.abs(priced - cost) < 1e-12, `cost ${priced} != ${cost}`);

    // The raw stream is kept, redacted, and the row names it.
    assert.equal(
      row.log_path,
      join(ds.tree.root, ".agentv", "logs", row.run_id, "edit-greeting.jsonl"),
    );
    const log = await Deno.readTextFile(row.log_path);
    assert.match(log, /"type":"turn.completed"/);
    assert.ok(!log.includes(MOCK_KEY));
  },
});

Deno.test({
  name:
    "codex target: a command that fails in the real run is an error step that tool_trajectory status checks see",
  ignore: codex.ignore,
  async fn() {
    await using server = startResponsesSseServer({
      turns: [{ toolCalls: [execCommand("cat missing.txt")] }, {
        text: "There is no missing.txt.",
      }],
    });
    await using ds = await evalDataset(
      server,
      `
evalcases:
  - id: failing-step
    expected_outcome: Reports the missing file
    input: Show missing.txt
    execution:
      evaluators:
        - name: failed-read
          type: tool_trajectory
          mode: in_order
          expected:
            - tool: command_execution
              status: error
        - name: succeeded-read
          type: tool_trajectory
          mode: in_order
          expected:
            - tool: command_execution
              status: ok
`,
    );
    const { rows, err } = await run(ds);
    const row = rows[0];
    assert.equal(row?.status, "ok", row?.error ?? err);
    const [cat] = calls(row);
    assert.equal(cat.status, "error");
    assert.notEqual(cat.exit_code, 0);
    assert.match(cat.output, /missing\.txt: No such file or directory/);
    const scores = Object.fromEntries(
      row.evaluator_results.map((e: Row) => [e.name, e.score]),
    );
    assert.deepEqual(scores, { "failed-read": 1, "succeeded-read": 0 });
    assert.deepEqual(row.token_usage, total([DEFAULT_TURN_USAGE, DEFAULT_TURN_USAGE]));
  },
});

Deno.test({
  name: "codex target: an API error the agent reports makes an error row with the agent's message",
  ignore: codex.ignore,
  async fn() {
    const message = "Model gpt-5-mock is not served by this gateway";
    await using server = startResponsesSseServer({
      turns: [{ error: { status: 400, message } }],
    });
    await using ds = await evalDataset(
      server,
      `
evalcases:
  - id: agent-error
    expected_outcome: anything
    input: Say hi
    evaluators: [{type: contains, value: x}]
`,
    );
    const { code, rows } = await run(ds);
    assert.equal(code, 1);
    assert.equal(rows[0].status, "error");
    assert.match(rows[0].error, new RegExp(`Codex target 'codex' reported an error: ${message}`));
    // The error row still names the raw stream, which holds Codex's error events.
    const log = await Deno.readTextFile(rows[0].log_path);
    assert.match(log, /"type":"turn.failed"/);
  },
});

Deno.test({
  name:
    "codex target: past timeout_seconds the agent's whole process group is killed, a command it started included",
  ignore: codex.ignore,
  async fn() {
    await using tmp = await tempTree({}, { prefix: "agentv-codex-fifo-" });
    // The agent's command holds the write end of a FIFO and sleeps "forever": the test's read
    // ends (EOF) exactly when every process holding it has exited.
    const fifo = tmp.path("alive.fifo");
    assert.equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
    const reader = Deno.open(fifo, { read: true });
    await using server = startResponsesSseServer({
      turns: [
        { toolCalls: [execCommand(`exec 3> '${fifo}'; exec sleep 3600`)] },
        { hang: true },
      ],
    });
    await using ds = await evalDataset(
      server,
      `
evalcases:
  - id: slow-agent
    expected_outcome: anything
    input: Wait
    evaluators: [{type: contains, value: x}]
`,
      // The FIFO's folder is outside the workspace: the sandbox lets the agent write there.
      { timeout_seconds: 6, writable: [tmp.dir] },
    );
    const { rows } = await run(ds);
    const row = rows[0];
    assert.equal(row.status, "error");
    assert.match(row.error, /timed out after 6s \(timeout_seconds\); its process group was killed/);
    assert.equal(
      row.log_path,
      join(ds.tree.root, ".agentv", "logs", row.run_id, "slow-agent.jsonl"),
    );
    const started = calls(row).some((c) => c.tool === "command_execution");
    if (!started) {
      // Release the reader before failing: the command never opened the FIFO.
      (await Deno.open(fifo, { write: true })).close();
    }
    using file = await reader;
    assert.ok(started, "the command had not started when the timeout fired; raise timeout_seconds");
    const bytes = await file.read(new Uint8Array(16));
    assert.equal(bytes, null, "EOF: no process holds the FIFO any more");
  },
});

Deno.test({
  name: "codex target: four cases run at the same time, each in its own workspace",
  ignore: codex.ignore,
  async fn() {
    const ids = [1, 2, 3, 4];
    await using server = startResponsesSseServer({
      // No case gets its first answer before all four have asked: they run at the same time.
      barrier: ids.length,
      turns: (prompt) => {
        const n = /case (\d)/.exec(prompt)?.[1] ?? "0";
        return [
          { toolCalls: [execCommand(`echo ${n} > case-${n}.txt && ls`)] },
          { text: (req) => `listing: ${functionOutputs(req)[0]?.output.split("Output:\n")[1]}` },
        ];
      },
    });
    await using ds = await evalDataset(
      server,
      `evalcases:\n${
        ids.map((n) =>
          `  - id: case-${n}\n    expected_outcome: writes its file\n    input: This is case ${n}.\n    execution:\n      evaluators:\n        - name: own-file\n          type: file_changes\n          expected:\n            - path: case-${n}.txt\n              change: added\n              contains: "${n}"\n`
        ).join("")
      }`,
      // Cases that ran one after another would wait at the barrier until this fires.
      { timeout_seconds: 120 },
    );
    const { rows, err } = await run(ds, ["--workers", "4"]);
    assert.equal(rows.length, 4, err);
    for (const row of rows) {
      const n = /case-(\d)/.exec(row.eval_id)![1];
      assert.equal(row.status, "ok", row.error);
      assert.equal(evaluator(row, "file_changes").score, 1);
      // `ls` really ran in a workspace that held the template and this case's file only.
      assert.equal(calls(row)[0].output, `case-${n}.txt\ngreeting.txt\n`);
    }
  },
});

/** Alias kept short in the tests above. */
const evalDataset = async (
  server: ResponsesSseServer,
  evalYaml: string,
  target: Record<string, unknown> = {},
): Promise<Dataset & AsyncDisposable> => {
  const ds = await dataset(server, evalYaml, target);
  return { ...ds, [Symbol.asyncDispose]: () => ds.tree[Symbol.asyncDispose]() };
};
