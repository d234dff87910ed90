/**
 * The `copilot-cli` target end to end with the real GitHub Copilot CLI (the pinned version from
 * tests/_helpers/agent_clis.ts), fully offline: `COPILOT_OFFLINE=true` and the target's `base_url`
 * (handed to the CLI as `COPILOT_PROVIDER_BASE_URL`, a custom "BYOK" provider) point it at a
 * loopback server streaming scripted Chat Completions chunks (tests/_helpers/chat_sse_server.ts);
 * no GitHub account is involved, and Copilot CLI runs the scripted tools for real in each case's
 * workspace.
 */
import assert from "node:assert/strict";
import { runAgentProject, shellAndEditCase, toolCalls as calls } from "../_helpers/agent_run.ts";
import { join } from "node:path";
import { agentToolsDir, locateAgentCli } from "../_helpers/agent_clis.ts";
import {
  type ChatRequest,
  type ChatSseServer,
  chatToolResults,
  type ScriptedChatTurn,
  startChatSseServer,
} from "../_helpers/chat_sse_server.ts";

const copilot = await locateAgentCli("copilot");
const API_KEY = "sk-copilot-e2e-SECRET-7733";

function targets(server: ChatSseServer, executable: string): string {
  return `targets:
  - name: default
    provider: copilot-cli
    executable: ${JSON.stringify(executable)}
    model: copilot-mock
    base_url: ${server.url}
    # The case's workspace is agentv's own fresh copy: tools approved.
    args: [--allow-all-tools]
    # Copilot CLI unpacks itself (~235 MB) under $XDG_CACHE_HOME on its first run: one shared
    # cache instead of one per test home.
    env: [XDG_CACHE_HOME]
`;
}

/** Runs the eval files against the real copilot pointed at `server`; returns the rows by id. */
function runCopilot(server: ChatSseServer, files: Record<string, string>) {
  return runAgentProject({
    agent: "copilot",
    targets: targets(server, copilot.require()),
    files,
    env: () => ({
      XDG_CACHE_HOME: join(agentToolsDir(), "cache"),
      // No GitHub sign-in, telemetry, update check or web tool: the custom provider only.
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_API_KEY: API_KEY,
    }),
  });
}

/** The folder the first shell step printed (`pwd`): Copilot CLI's file tools take absolute paths. */
function workspaceOf(request: ChatRequest): string {
  return chatToolResults(request, true)[0]?.content.split("\n")[0] ?? "";
}

const SHELL_AND_EDIT: ScriptedChatTurn[] = [
  {
    text: "Let me read it first.",
    toolCalls: [{
      name: "bash",
      // (Copilot CLI keeps its COPILOT_* variables, the key among them, from the commands it runs.)
      arguments: { command: "pwd && cat greeting.txt", description: "Show it", mode: "sync" },
    }],
  },
  {
    toolCalls: (request) => [{
      name: "edit",
      arguments: {
        path: `${workspaceOf(request)}/greeting.txt`,
        old_str: "hello",
        new_str: "hello, world",
      },
    }, {
      name: "bash",
      arguments: { command: "ls missing-dir", description: "List it", mode: "sync" },
    }],
  },
  {
    text: "The greeting says hello, world now.",
  },
];

const SHELL_AND_EDIT_CASE = shellAndEditCase([["bash", "ok"], ["edit", "ok"], ["bash", "error"]]);

Deno.test({
  name:
    "copilot-cli runs a real shell command and file edit offline: trace with status, exit codes and duration, tool_trajectory, file_changes, diff, turns and a redacted log",
  ignore: copilot.ignore,
  async fn() {
    await using server = startChatSseServer({ turns: SHELL_AND_EDIT });
    await using run = await runCopilot(server, {
      "template/greeting.txt": "hello\n",
      "evals/agent.yaml": SHELL_AND_EDIT_CASE,
    });
    const row = run.rows["edit-greeting"]!;
    assert.equal(row.error, null, row.error ?? "");
    assert.equal(row.status, "ok");

    // The real calls with what the tools really did, timed by Copilot CLI's own events.
    const got = calls(row);
    assert.deepEqual(got.map((c) => [c.tool, c.status, c.exit_code]), [
      ["bash", "ok", 0],
      ["edit", "ok", undefined],
      ["bash", "error", 2],
    ], JSON.stringify(got));
    const workspace = workspaceOf(server.requests[1]!);
    assert.match(String(got[0]!.output), new RegExp(`^${workspace}\\nhello\\n`));
    assert.notEqual(workspace, join(run.dir, "template"));
    for (const call of got) {
      assert.equal(typeof call.id, "string");
      assert.ok(typeof call.started_at === "string" && typeof call.ended_at === "string");
      assert.ok(typeof call.duration_ms === "number" && call.duration_ms >= 0);
    }
    assert.equal(server.requests.length, 3);
    assert.deepEqual(server.otherRequests, []);
    assert.match(JSON.stringify(server.requests[0]!.messages), /Read greeting\.txt/);
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${API_KEY}`);
    assert.equal(row.candidate_answer, "The greeting says hello, world now.");
    assert.ok(!JSON.stringify(row).includes(API_KEY), "the API key is redacted from the row");

    const byName = Object.fromEntries(row.evaluator_results.map((r) => [r.name, r]));
    assert.equal(byName.steps!.score, 1, byName.steps!.misses.join("; "));
    assert.equal(byName.files!.score, 1, byName.files!.misses.join("; "));
    const changes = row.workspace as { modified: string[]; diff: string };
    assert.deepEqual(changes.modified, ["greeting.txt"]);
    assert.match(changes.diff, /^\+hello, world$/m);
    assert.equal(await Deno.readTextFile(join(run.dir, "template/greeting.txt")), "hello\n");

    // Copilot CLI reports turns and its session's duration, but no token counts.
    assert.equal(row.trace_summary?.turns, 3);
    assert.equal(row.token_usage, null);
    assert.equal(row.trace_summary?.error_count, 1);

    assert.equal(
      row.log_path,
      join(run.dir, ".agentv", "logs", row.run_id!, "edit-greeting.jsonl"),
    );
    const log = await Deno.readTextFile(row.log_path as string);
    assert.match(log, /"type":"tool.execution_complete"/);
    assert.ok(!log.includes(API_KEY), "the API key is redacted from the log");
  },
});

Deno.test({
  name: "copilot-cli: a model API error is an error row with the agent's own message and its log",
  ignore: copilot.ignore,
  async fn() {
    const message = "Model copilot-mock is not served by this gateway";
    await using server = startChatSseServer({ turns: [{ error: { status: 400, message } }] });
    await using run = await runCopilot(server, {
      "evals/agent.yaml": `evalcases:
  - id: refused
    expected_outcome: x
    input: Say hi
    evaluators: [{type: contains, value: hi}]
`,
    });
    const row = run.rows.refused!;
    assert.equal(row.status, "error");
    assert.equal(row.error, `Copilot CLI target 'default' reported an error: 400 ${message}`);
    assert.ok(typeof row.log_path === "string");
    assert.match(await Deno.readTextFile(row.log_path as string), /"type":"session.error"/);
  },
});
