/**
 * The `opencode` target end to end with the real opencode (the pinned version from
 * tests/_helpers/agent_clis.ts), fully offline: `OPENCODE_CONFIG_CONTENT` declares an
 * OpenAI-compatible provider `mock`, and the target's `base_url` (merged into that configuration as
 * the provider's `baseURL`) points it at a loopback server streaming scripted Chat Completions
 * chunks (tests/_helpers/chat_sse_server.ts). opencode runs the scripted tools for real in each
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

const opencode = await locateAgentCli("opencode");
const API_KEY = "sk-opencode-e2e-SECRET-8844";
const PRICING = { input_per_mtok: 0.4, output_per_mtok: 1.6 };

/** A provider opencode does not know, declared for it; its `baseURL` comes from the target. */
const OPENCODE_CONFIG = JSON.stringify({
  provider: {
    mock: {
      npm: "@ai-sdk/openai-compatible",
      name: "Mock",
      options: { apiKey: "{env:MOCK_KEY}" },
      models: { "opencode-mock": { name: "opencode-mock" } },
    },
  },
});

function targets(server: ChatSseServer, executable: string): string {
  return `targets:
  - name: default
    provider: opencode
    executable: ${JSON.stringify(executable)}
    model: mock/opencode-mock
    base_url: ${server.url}
    env: [MOCK_KEY]
    pricing: ${JSON.stringify(PRICING)}
`;
}

/** Runs the eval files against the real opencode pointed at `server`; returns the rows by id. */
function runOpencode(server: ChatSseServer, files: Record<string, string>) {
  return runAgentProject({
    agent: "opencode",
    targets: targets(server, opencode.require()),
    files,
    env: () => ({
      MOCK_KEY: API_KEY,
      OPENCODE_CONFIG_CONTENT: OPENCODE_CONFIG,
      // No model catalogue download, no update check.
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
    }),
  });
}

/** The folder the first shell step printed (`pwd`): opencode's file tools take absolute paths. */
function workspaceOf(request: ChatRequest): string {
  return chatToolResults(request, true)[0]?.content.split("\n")[0] ?? "";
}

const USAGE = [
  { prompt_tokens: 1000, completion_tokens: 30, cached_tokens: 100 },
  { prompt_tokens: 1100, completion_tokens: 50, cached_tokens: 900 },
  { prompt_tokens: 1200, completion_tokens: 20, cached_tokens: 1000 },
];

const SHELL_AND_EDIT: ScriptedChatTurn[] = [
  {
    text: "Let me read it first.",
    // The agent prints its own key (as a careless `env` would): agentv must keep it out of the
    // row and the log.
    toolCalls: [{
      name: "bash",
      arguments: { command: "pwd && cat greeting.txt && printenv MOCK_KEY", description: "Show" },
    }],
    usage: USAGE[0],
  },
  {
    toolCalls: (request) => [{
      name: "edit",
      arguments: {
        filePath: `${workspaceOf(request)}/greeting.txt`,
        oldString: "hello",
        newString: "hello, world",
      },
    }, {
      name: "bash",
      arguments: { command: "ls missing-dir", description: "List a missing folder" },
    }],
    usage: USAGE[1],
  },
  { text: "The greeting says hello, world now.", usage: USAGE[2] },
];

const SHELL_AND_EDIT_CASE = shellAndEditCase([["bash", "ok"], ["edit", "ok"], ["bash", "error"]]);

Deno.test({
  name:
    "opencode runs a real shell command and file edit offline: trace with status, exit codes and the tool's own times, tool_trajectory, file_changes, diff, usage, cost, turns and a redacted log",
  ignore: opencode.ignore,
  async fn() {
    await using server = startChatSseServer({ turns: SHELL_AND_EDIT });
    await using run = await runOpencode(server, {
      "template/greeting.txt": "hello\n",
      "evals/agent.yaml": SHELL_AND_EDIT_CASE,
    });
    const row = run.rows["edit-greeting"]!;
    assert.equal(row.error, null, row.error ?? "");
    assert.equal(row.status, "ok");

    const got = calls(row);
    assert.deepEqual(got.map((c) => [c.tool, c.status, c.exit_code]), [
      ["bash", "ok", 0],
      ["edit", "ok", undefined],
      ["bash", "error", 2],
    ], JSON.stringify(got));
    const workspace = workspaceOf(server.requests[1]!);
    assert.equal(got[0]!.output, `${workspace}\nhello\n***\n`);
    assert.notEqual(workspace, join(run.dir, "template"));
    // What the command really printed went back to the model, the key included.
    assert.equal(
      chatToolResults(server.requests[1]!)[0]!.content,
      `${workspace}\nhello\n${API_KEY}\n`,
    );
    for (const call of got) {
      assert.equal(typeof call.id, "string");
      assert.ok(typeof call.started_at === "string" && typeof call.ended_at === "string");
      assert.ok(typeof call.duration_ms === "number" && call.duration_ms >= 0);
    }
    // The scripted model answered the agent; opencode's own title request is a side request.
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

    // Usage is what the model server reported; opencode prices nothing for an unknown model, so
    // the cost is usage × the target's pricing.
    const sum = (k: keyof typeof USAGE[number]) => USAGE.reduce((n, u) => n + u[k], 0);
    assert.deepEqual(row.token_usage, {
      input: sum("prompt_tokens"),
      output: sum("completion_tokens"),
      cached: sum("cached_tokens"),
    });
    const cost = (sum("prompt_tokens") * PRICING.input_per_mtok +
      sum("completion_tokens") * PRICING.output_per_mtok) / 1e6;
    assert.ok(Math.abs(row.trace_summary!.cost_usd! - cost) < 1e-12);
    assert.equal(row.trace_summary?.turns, 3);

    const log = await Deno.readTextFile(row.log_path as string);
    assert.match(log, /"type":"step_finish"/);
    assert.ok(!log.includes(API_KEY), "the API key is redacted from the log");
  },
});

Deno.test({
  name: "opencode: a model API error is an error row with the agent's own message and its log",
  ignore: opencode.ignore,
  async fn() {
    const message = "Model opencode-mock is not served by this gateway";
    await using server = startChatSseServer({ turns: [{ error: { status: 400, message } }] });
    await using run = await runOpencode(server, {
      "evals/agent.yaml": `evalcases:
  - id: refused
    expected_outcome: x
    input: Say hi
    evaluators: [{type: contains, value: hi}]
`,
    });
    const row = run.rows.refused!;
    assert.equal(row.status, "error");
    assert.equal(row.error, `opencode target 'default' reported an error: ${message}`);
    assert.ok(typeof row.log_path === "string");
    assert.match(await Deno.readTextFile(row.log_path as string), /"type":"error"/);
  },
});
