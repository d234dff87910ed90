/**
 * The `pi` target end to end with the real pi CLI (the pinned version from
 * tests/_helpers/agent_clis.ts), fully offline: the target's `base_url` becomes the provider
 * `agentv` in the `models.json` of the case's private pi configuration folder, pointing pi at a
 * loopback server streaming scripted Chat Completions chunks (tests/_helpers/chat_sse_server.ts),
 * and pi runs the scripted tools for real in each case's workspace.
 */
import assert from "node:assert/strict";
import { runAgentProject, shellAndEditCase, toolCalls as calls } from "../_helpers/agent_run.ts";
import { join } from "node:path";
import { locateAgentCli } from "../_helpers/agent_clis.ts";
import {
  type ChatSseServer,
  chatToolResults,
  type ScriptedChatTurn,
  startChatSseServer,
} from "../_helpers/chat_sse_server.ts";

const pi = await locateAgentCli("pi");
const API_KEY = "sk-pi-e2e-SECRET-7311";
const PRICING = { input_per_mtok: 0.5, output_per_mtok: 2 };

function targets(server: ChatSseServer, executable: string): string {
  return `targets:
  - name: default
    provider: pi
    executable: ${JSON.stringify(executable)}
    model: pi-mock
    base_url: ${server.url}
    pricing: ${JSON.stringify(PRICING)}
`;
}

/**
 * Runs the eval files against the real pi pointed at `server`, with a home folder holding a
 * `~/.pi/agent` that must stay untouched; returns the rows by id.
 */
function runPi(server: ChatSseServer, files: Record<string, string>) {
  return runAgentProject({
    agent: "pi",
    targets: targets(server, pi.require()),
    files,
    homeFiles: { ".pi/agent/settings.json": '{"defaultProvider":"nowhere"}' },
    env: () => ({ OPENAI_API_KEY: API_KEY }),
  });
}

const USAGE = [
  { prompt_tokens: 1000, completion_tokens: 30, cached_tokens: 100 },
  { prompt_tokens: 1100, completion_tokens: 40, cached_tokens: 900 },
  { prompt_tokens: 1150, completion_tokens: 50, cached_tokens: 950 },
  { prompt_tokens: 1200, completion_tokens: 20, cached_tokens: 1000 },
];

const SHELL_AND_EDIT: ScriptedChatTurn[] = [
  {
    text: "Let me read it first.",
    toolCalls: [{
      name: "bash",
      // The agent prints its own key (as a careless `env` would): agentv must keep it out of the
      // row and the log.
      // It also shows its configuration folder.
      arguments: {
        command: "pwd && cat greeting.txt && printenv OPENAI_API_KEY && " +
          'echo "$PI_CODING_AGENT_DIR" && ls "$PI_CODING_AGENT_DIR"',
      },
    }],
    usage: USAGE[0],
  },
  { toolCalls: [{ name: "read", arguments: { path: "greeting.txt" } }], usage: USAGE[1] },
  {
    toolCalls: [{
      name: "edit",
      arguments: { path: "greeting.txt", edits: [{ oldText: "hello", newText: "hello, world" }] },
    }, { name: "bash", arguments: { command: "ls missing-dir" } }],
    usage: USAGE[2],
  },
  { text: "The greeting says hello, world now.", usage: USAGE[3] },
];

const SHELL_AND_EDIT_CASE = shellAndEditCase([["bash", "ok"], ["read", "ok"], ["edit", "ok"], [
  "bash",
  "error",
]]);

Deno.test({
  name:
    "pi runs a real shell command and file edit offline: trace with status, exit code and duration, tool_trajectory, file_changes, diff, usage, cost, turns and a redacted log; the user's ~/.pi is untouched",
  ignore: pi.ignore,
  async fn() {
    await using server = startChatSseServer({ turns: SHELL_AND_EDIT });
    await using run = await runPi(server, {
      "template/greeting.txt": "hello\n",
      "evals/agent.yaml": SHELL_AND_EDIT_CASE,
    });
    const row = run.rows["edit-greeting"]!;
    assert.equal(row.error, null, row.error ?? "");
    assert.equal(row.status, "ok");

    // The real calls with what the tools really did; each is timed as its events arrived.
    const got = calls(row);
    assert.deepEqual(got.map((c) => [c.tool, c.status, c.exit_code]), [
      ["bash", "ok", undefined],
      ["read", "ok", undefined],
      ["edit", "ok", undefined],
      ["bash", "error", 2],
    ], JSON.stringify(got));
    const [workspace, , , configDir] = String(got[0]!.output).split("\n");
    assert.equal(
      got[0]!.output,
      `${workspace}\nhello\n***\n${configDir}\nauth.json\nmodels.json\n`,
    );
    // The private configuration folder was made in the agent's TMPDIR (the home here).
    assert.match(configDir!, new RegExp(`^${run.home}/agentv-pi-[^/]+$`));
    assert.notEqual(workspace, join(run.dir, "template"));
    // The result pi sent back to the model is the command's real output, key included.
    assert.ok(
      chatToolResults(server.requests[1]!)[0]!.content.startsWith(
        `${workspace}\nhello\n${API_KEY}\n`,
      ),
    );
    assert.match(String(got[3]!.output), /Command exited with code 2$/);
    for (const call of got) {
      assert.equal(typeof call.id, "string");
      assert.ok(typeof call.duration_ms === "number" && call.duration_ms >= 0);
    }
    assert.equal(server.requests.length, 4);
    assert.deepEqual([server.sideRequests.length, server.otherRequests], [0, []]);
    assert.equal(server.requests[0]!.model, "pi-mock");
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

    // Usage is what the model server reported, summed; cost is usage × pricing.
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
    assert.match(log, /"type":"agent_end"/);
    assert.ok(!log.includes(API_KEY), "the API key is redacted from the log");

    // pi read and wrote its private folder only: the home's ~/.pi is as it was, and the private
    // folder (in TMPDIR) is gone.
    const home = [...Deno.readDirSync(run.home)].map((e) => e.name).sort();
    assert.deepEqual([...Deno.readDirSync(join(run.home, ".pi/agent"))].map((e) => e.name), [
      "settings.json",
    ]);
    assert.ok(!home.some((name) => name.startsWith("agentv-pi-")), home.join(", "));
  },
});

Deno.test({
  name:
    "pi: a model API error (pi exits 0) is an error row with the agent's own message and its log",
  ignore: pi.ignore,
  async fn() {
    const message = "Model pi-mock is not served by this gateway";
    await using server = startChatSseServer({ turns: [{ error: { status: 400, message } }] });
    await using run = await runPi(server, {
      "evals/agent.yaml": `evalcases:
  - id: refused
    expected_outcome: x
    input: Say hi
    evaluators: [{type: contains, value: hi}]
`,
    });
    const row = run.rows.refused!;
    assert.equal(row.status, "error");
    assert.equal(row.error, `pi target 'default' reported an error: 400 ${message}`);
    assert.ok(typeof row.log_path === "string");
    assert.match(await Deno.readTextFile(row.log_path as string), /"stopReason":"error"/);
  },
});
