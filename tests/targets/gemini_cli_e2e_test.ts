/**
 * The `gemini-cli` target end to end with the real Gemini CLI (the pinned version from
 * tests/_helpers/agent_clis.ts), fully offline: the target's `base_url` (handed to the CLI as
 * `GOOGLE_GEMINI_BASE_URL`) points it at a loopback server streaming scripted
 * `streamGenerateContent` events (tests/_helpers/gemini_sse_server.ts), and Gemini CLI runs the
 * scripted tools for real in each case's workspace.
 */
import assert from "node:assert/strict";
import { runAgentProject, shellAndEditCase, toolCalls as calls } from "../_helpers/agent_run.ts";
import { join } from "node:path";
import { locateAgentCli } from "../_helpers/agent_clis.ts";
import {
  functionResponses,
  type GeminiSseServer,
  type ScriptedGeminiTurn,
  startGeminiSseServer,
} from "../_helpers/gemini_sse_server.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { waitCommandGone } from "../_helpers/processes.ts";

const gemini = await locateAgentCli("gemini");
const API_KEY = "gk-gemini-e2e-SECRET-5511";
const PRICING = { input_per_mtok: 1.25, output_per_mtok: 10 };

/**
 * Gemini CLI 0.61 refuses a `GOOGLE_GEMINI_BASE_URL` without an auth type in its settings
 * ("Invalid auth method selected"): the API-key type is what a gateway takes.
 */
const GEMINI_SETTINGS = JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } });

function targets(server: GeminiSseServer, executable: string, extra = ""): string {
  return `targets:
  - name: default
    provider: gemini-cli
    executable: ${JSON.stringify(executable)}
    model: gemini-mock
    base_url: ${server.url}
    # The case's workspace is agentv's own fresh copy: trusted, tools approved.
    args: [--skip-trust, --approval-mode, yolo]
    pricing: ${JSON.stringify(PRICING)}
${extra}`;
}

/** Runs the eval files against the real gemini pointed at `server`; returns the rows by id. */
function runGemini(server: GeminiSseServer, files: Record<string, string>, targetExtra = "") {
  return runAgentProject({
    agent: "gemini",
    targets: targets(server, gemini.require(), targetExtra),
    files,
    homeFiles: { ".gemini/settings.json": GEMINI_SETTINGS },
    // Gemini CLI writes error reports to the temp folder: removed with the home.
    env: () => ({ GEMINI_API_KEY: API_KEY }),
  });
}

const USAGE = [
  { promptTokenCount: 1000, candidatesTokenCount: 30, cachedContentTokenCount: 100 },
  { promptTokenCount: 1100, candidatesTokenCount: 50, cachedContentTokenCount: 900 },
  { promptTokenCount: 1200, candidatesTokenCount: 20, cachedContentTokenCount: 1000 },
];

const SHELL_AND_EDIT: ScriptedGeminiTurn[] = [
  {
    text: "Let me read it first.",
    // The agent prints its own key (as a careless `env` would): agentv must keep it out of the
    // row and the log.
    functionCalls: [{
      name: "run_shell_command",
      args: { command: "cat greeting.txt && printenv GEMINI_API_KEY" },
    }],
    usage: USAGE[0],
  },
  {
    functionCalls: [{
      name: "replace",
      args: {
        file_path: "greeting.txt",
        instruction: "Greet the whole world",
        old_string: "hello",
        new_string: "hello, world",
      },
    }, { name: "read_file", args: { file_path: "missing.txt" } }],
    usage: USAGE[1],
  },
  {
    text: "The greeting says hello, world now.",
    usage: USAGE[2],
  },
];

const SHELL_AND_EDIT_CASE = shellAndEditCase([["run_shell_command", "ok"], ["replace", "ok"], [
  "read_file",
  "error",
]]);

Deno.test({
  name:
    "gemini-cli runs a real shell command and file edit offline: trace with status and duration, tool_trajectory, file_changes, diff, usage, cost and a redacted log",
  ignore: gemini.ignore,
  async fn() {
    await using server = startGeminiSseServer({ turns: SHELL_AND_EDIT });
    await using run = await runGemini(server, {
      "template/greeting.txt": "hello\n",
      "evals/agent.yaml": SHELL_AND_EDIT_CASE,
    });
    const row = run.rows["edit-greeting"]!;
    assert.equal(row.error, null, row.error ?? "");
    assert.equal(row.status, "ok");

    // The real calls with what the tools really did; each is timed by Gemini CLI's own events.
    const got = calls(row);
    assert.deepEqual(got.map((c) => [c.tool, c.status]), [
      ["run_shell_command", "ok"],
      ["replace", "ok"],
      ["read_file", "error"],
    ]);
    assert.equal(got[0]!.output, "hello\n***");
    assert.match(String(got[2]!.error), /File not found: .*missing\.txt/);
    for (const call of got) {
      assert.equal(typeof call.id, "string");
      assert.ok(typeof call.started_at === "string" && typeof call.ended_at === "string");
      assert.ok(typeof call.duration_ms === "number" && call.duration_ms >= 0);
    }
    // Gemini CLI sent the command's real output back to the model, and asked for nothing else.
    // What the command really printed went back to the model, the key included.
    const printed = String(functionResponses(server.requests[1]!)[0]!.response.output);
    assert.match(printed, new RegExp(`Output: hello\n${API_KEY}`));
    assert.equal(server.requests.length, 3);
    assert.deepEqual(server.otherRequests, []);
    assert.match(JSON.stringify(server.requests[0]!.contents), /Read greeting\.txt/);
    assert.equal(server.requests[0]!.headers["x-goog-api-key"], API_KEY);
    assert.equal(row.candidate_answer, "The greeting says hello, world now.");
    assert.ok(!JSON.stringify(row).includes(API_KEY), "the API key is redacted from the row");

    const byName = Object.fromEntries(row.evaluator_results.map((r) => [r.name, r]));
    assert.equal(byName.steps!.score, 1, byName.steps!.misses.join("; "));
    assert.equal(byName.files!.score, 1, byName.files!.misses.join("; "));
    const changes = row.workspace as { modified: string[]; diff: string };
    assert.deepEqual(changes.modified, ["greeting.txt"]);
    assert.match(changes.diff, /^\+hello, world$/m);
    assert.equal(await Deno.readTextFile(join(run.dir, "template/greeting.txt")), "hello\n");

    // Usage is what the model server reported, summed by Gemini CLI; cost is usage × pricing.
    const sum = (k: keyof typeof USAGE[number]) => USAGE.reduce((n, u) => n + u[k], 0);
    assert.deepEqual(row.token_usage, {
      input: sum("promptTokenCount"),
      output: sum("candidatesTokenCount"),
      cached: sum("cachedContentTokenCount"),
    });
    const cost = (sum("promptTokenCount") * PRICING.input_per_mtok +
      sum("candidatesTokenCount") * PRICING.output_per_mtok) / 1e6;
    assert.ok(Math.abs(row.trace_summary!.cost_usd! - cost) < 1e-12);
    assert.equal(row.trace_summary?.error_count, 1);

    assert.equal(
      row.log_path,
      join(run.dir, ".agentv", "logs", row.run_id!, "edit-greeting.jsonl"),
    );
    const log = await Deno.readTextFile(row.log_path as string);
    assert.match(log, /"type":"tool_result"/);
    assert.ok(!log.includes(API_KEY), "the API key is redacted from the log");
  },
});

Deno.test({
  name: "gemini-cli: a model API error is an error row with the agent's own message and its log",
  ignore: gemini.ignore,
  async fn() {
    const message = "Model gemini-mock is not served by this gateway";
    await using server = startGeminiSseServer({ turns: [{ error: { status: 400, message } }] });
    await using run = await runGemini(server, {
      "evals/agent.yaml": `evalcases:
  - id: refused
    expected_outcome: x
    input: Say hi
    evaluators: [{type: contains, value: hi}]
`,
    });
    const row = run.rows.refused!;
    assert.equal(row.status, "error");
    assert.equal(row.error, `Gemini CLI target 'default' reported an error: ${message}`);
    assert.ok(typeof row.log_path === "string");
    assert.match(await Deno.readTextFile(row.log_path as string), /"status":"error"/);
  },
});

Deno.test({
  name:
    "gemini-cli: past timeout_seconds the agent (which relaunches itself as a child) and the command its tool started are killed, and the row keeps the trace so far",
  ignore: gemini.ignore || Deno.build.os !== "linux",
  async fn() {
    await using tmp = await tempTree({}, { prefix: "agentv-gemini-pid-" });
    const pidFile = tmp.path("command.pid");
    // A command line no other process has: the pid the command sees may be its sandbox's own.
    const command = `sleep 3600.${crypto.getRandomValues(new Uint32Array(1))[0]}`;
    await using server = startGeminiSseServer({
      turns: [{
        functionCalls: [{
          name: "run_shell_command",
          args: { command: `echo $$ > '${pidFile}'; exec ${command}` },
        }],
      }],
    });
    await using run = await runGemini(server, {
      "evals/agent.yaml": `evalcases:
  - id: slow-agent
    expected_outcome: anything
    input: Wait
    evaluators: [{type: contains, value: x}]
`,
      // Long enough for Gemini CLI to start and run the command on a busy machine.
      // The pid file's folder is outside the workspace: the sandbox lets the agent write there.
    }, `    timeout_seconds: 20\n    writable: [${JSON.stringify(tmp.dir)}]\n`);
    const row = run.rows["slow-agent"]!;
    assert.equal(row.status, "error");
    assert.match(
      row.error ?? "",
      /timed out after 20s \(timeout_seconds\); its process group was killed/,
    );
    assert.deepEqual(calls(row).map((c) => c.tool), ["run_shell_command"]);
    const pid = Number.parseInt(await Deno.readTextFile(pidFile).catch(() => ""), 10);
    assert.ok(pid > 1, "the command had not started when the timeout fired; raise timeout_seconds");
    assert.ok(await waitCommandGone(command), `the command's process ${pid} outlived the agent`);
  },
});
