/**
 * The `qwen-code` target end to end with the real Qwen Code CLI (the pinned version from
 * tests/_helpers/agent_clis.ts), fully offline: the target's `base_url` (handed to the CLI as
 * `OPENAI_BASE_URL`) points it at a loopback server streaming scripted Chat Completions chunks
 * (tests/_helpers/chat_sse_server.ts), and Qwen Code runs the scripted tools for real in each
 * case's workspace.
 */
import assert from "node:assert/strict";
import { runAgentProject, shellAndEditCase, toolCalls as calls } from "../_helpers/agent_run.ts";
import { join } from "node:path";
import { locateAgentCli } from "../_helpers/agent_clis.ts";
import {
  type ChatRequest,
  type ChatSseServer,
  chatToolResults,
  type ScriptedChatTurn,
  startChatSseServer,
} from "../_helpers/chat_sse_server.ts";

const qwen = await locateAgentCli("qwen");
const API_KEY = "sk-qwen-e2e-SECRET-6622";
const PRICING = { input_per_mtok: 0.5, output_per_mtok: 2 };

/**
 * Qwen Code's managed auto-memory runs a second agent after each answer, on the same model: off,
 * so the scripted server talks to the case's agent only (and no memory outlives a case).
 */
const QWEN_SETTINGS = JSON.stringify({ memory: { enableManagedAutoMemory: false } });

function targets(server: ChatSseServer, executable: string): string {
  return `targets:
  - name: default
    provider: qwen-code
    executable: ${JSON.stringify(executable)}
    model: qwen-mock
    base_url: ${server.url}
    # The case's workspace is agentv's own fresh copy: tools approved.
    args: [--auth-type, openai, --approval-mode, yolo]
    pricing: ${JSON.stringify(PRICING)}
`;
}

/** Runs the eval files against the real qwen pointed at `server`; returns the rows by id. */
function runQwen(server: ChatSseServer, files: Record<string, string>) {
  return runAgentProject({
    agent: "qwen",
    targets: targets(server, qwen.require()),
    files,
    homeFiles: { ".qwen/settings.json": QWEN_SETTINGS },
    env: (home) => ({
      OPENAI_API_KEY: API_KEY,
      QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
      // Its settings folder by name: the sandbox's home is empty, QWEN_HOME is bound in.
      QWEN_HOME: join(home, ".qwen"),
    }),
  });
}

/**
 * The folder the first shell step printed (`pwd`, the first tool result of the conversation):
 * Qwen Code's file tools take absolute paths.
 */
function workspaceOf(request: ChatRequest): string {
  const first = chatToolResults(request, true)[0]?.content ?? "";
  return /^Output: (.*)$/m.exec(first)?.[1] ?? "";
}

const USAGE = [
  { prompt_tokens: 1000, completion_tokens: 30, cached_tokens: 100 },
  { prompt_tokens: 1100, completion_tokens: 40, cached_tokens: 900 },
  { prompt_tokens: 1150, completion_tokens: 50, cached_tokens: 950 },
  { prompt_tokens: 1200, completion_tokens: 20, cached_tokens: 1000 },
];

/** The greeting file, by the absolute path Qwen Code's file tools want. */
const greeting = (request: ChatRequest) => `${workspaceOf(request)}/greeting.txt`;

const SHELL_AND_EDIT: ScriptedChatTurn[] = [
  {
    text: "Let me read it first.",
    toolCalls: [{
      name: "run_shell_command",
      // The agent prints its own key (as a careless `env` would): agentv must keep it out of the
      // row and the log.
      arguments: {
        command: "pwd && cat greeting.txt && printenv OPENAI_API_KEY",
        description: "Show the greeting",
      },
    }],
    usage: USAGE[0],
  },
  {
    // Qwen Code edits only a file its read_file tool has read in the session.
    toolCalls: (request) => [{ name: "read_file", arguments: { file_path: greeting(request) } }],
    usage: USAGE[1],
  },
  {
    toolCalls: (request) => [{
      name: "edit",
      arguments: {
        file_path: greeting(request),
        old_string: "hello",
        new_string: "hello, world",
      },
    }, {
      name: "run_shell_command",
      arguments: { command: "ls missing-dir", description: "List a missing folder" },
    }],
    usage: USAGE[2],
  },
  {
    text: "The greeting says hello, world now.",
    usage: USAGE[3],
  },
];

const SHELL_AND_EDIT_CASE = shellAndEditCase([["run_shell_command", "ok"], ["read_file", "ok"], [
  "edit",
  "ok",
], ["run_shell_command", "error"]]);

Deno.test({
  name:
    "qwen-code runs a real shell command and file edit offline: trace with status and duration, tool_trajectory, file_changes, diff, usage, cost, turns and a redacted log",
  ignore: qwen.ignore,
  async fn() {
    await using server = startChatSseServer({ turns: SHELL_AND_EDIT });
    await using run = await runQwen(server, {
      "template/greeting.txt": "hello\n",
      "evals/agent.yaml": SHELL_AND_EDIT_CASE,
    });
    const row = run.rows["edit-greeting"]!;
    assert.equal(row.error, null, row.error ?? "");
    assert.equal(row.status, "ok");

    // The real calls with what the tools really did; each is timed as its events arrived.
    const got = calls(row);
    assert.deepEqual(got.map((c) => [c.tool, c.status]), [
      ["run_shell_command", "ok"],
      ["read_file", "ok"],
      ["edit", "ok"],
      ["run_shell_command", "error"],
    ], JSON.stringify(got));
    const workspace = workspaceOf(server.requests[1]!);
    assert.equal(got[0]!.output, `${workspace}\nhello\n***`);
    // The result Qwen Code sent back to the model is the command's real output, key included.
    const printed = chatToolResults(server.requests[1]!)[0]!.content;
    assert.match(printed, new RegExp(`Output: .*\nhello\n${API_KEY}`));
    assert.notEqual(workspace, join(run.dir, "template"));
    assert.match(String(got[3]!.output), /Exit Code: 2/);
    for (const call of got) {
      assert.equal(typeof call.id, "string");
      assert.ok(typeof call.duration_ms === "number" && call.duration_ms >= 0);
    }
    assert.equal(server.requests.length, 4);
    assert.deepEqual([server.sideRequests.length, server.otherRequests], [0, []]);
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

    // Usage is what the model server reported, summed by Qwen Code; cost is usage × pricing.
    const sum = (k: keyof typeof USAGE[number]) => USAGE.reduce((n, u) => n + u[k], 0);
    assert.deepEqual(row.token_usage, {
      input: sum("prompt_tokens"),
      output: sum("completion_tokens"),
      cached: sum("cached_tokens"),
    });
    const cost = (sum("prompt_tokens") * PRICING.input_per_mtok +
      sum("completion_tokens") * PRICING.output_per_mtok) / 1e6;
    assert.ok(Math.abs(row.trace_summary!.cost_usd! - cost) < 1e-12);
    assert.equal(row.trace_summary?.turns, 4);
    assert.equal(row.trace_summary?.error_count, 1);

    assert.equal(
      row.log_path,
      join(run.dir, ".agentv", "logs", row.run_id!, "edit-greeting.jsonl"),
    );
    const log = await Deno.readTextFile(row.log_path as string);
    assert.match(log, /"type":"result"/);
    assert.ok(!log.includes(API_KEY), "the API key is redacted from the log");
  },
});

Deno.test({
  name: "qwen-code: a model API error is an error row with the agent's own message and its log",
  ignore: qwen.ignore,
  async fn() {
    const message = "Model qwen-mock is not served by this gateway";
    await using server = startChatSseServer({ turns: [{ error: { status: 400, message } }] });
    await using run = await runQwen(server, {
      "evals/agent.yaml": `evalcases:
  - id: refused
    expected_outcome: x
    input: Say hi
    evaluators: [{type: contains, value: hi}]
`,
    });
    const row = run.rows.refused!;
    assert.equal(row.status, "error");
    assert.equal(
      row.error,
      `Qwen Code target 'default' reported an error: [API Error: 400 ${message}]`,
    );
    assert.ok(typeof row.log_path === "string");
    assert.match(await Deno.readTextFile(row.log_path as string), /"is_error":true/);
  },
});
