/**
 * The `claude-code` target end to end with the real Claude Code CLI (the pinned version from
 * tests/_helpers/agent_clis.ts), fully offline: `ANTHROPIC_BASE_URL` points it at a loopback
 * server streaming scripted Anthropic Messages SSE, and Claude Code runs the scripted tools for
 * real in each case's workspace.
 */
import assert from "node:assert/strict";
import { type AgentRun, runAgentProject, toolCalls as calls } from "../_helpers/agent_run.ts";
import { join } from "node:path";
import { locateAgentCli } from "../_helpers/agent_clis.ts";
import {
  type AnthropicSseServer,
  type ScriptedTurn,
  startAnthropicSseServer,
  toolResults,
} from "../_helpers/anthropic_sse_server.ts";
import { waitCommandGone } from "../_helpers/processes.ts";

const claude = await locateAgentCli("claude");
const API_KEY = "sk-ant-test-SECRET-7788";

function targets(executable: string, extra = ""): string {
  return `targets:
  - name: default
    provider: claude-code
    executable: ${JSON.stringify(executable)}
    allowed_tools: [Bash, Edit, Write, Read]
${extra}`;
}

/** Runs `evalYaml` against the real claude pointed at `server`; returns the rows by id. */
function runClaude(
  server: AnthropicSseServer,
  files: Record<string, string>,
  options: { targetExtra?: string; workers?: number; keepWorkspaces?: boolean } = {},
): Promise<AgentRun> {
  return runAgentProject({
    agent: "claude",
    targets: targets(claude.require(), options.targetExtra),
    files,
    // Claude Code keeps session notes under $TMPDIR/claude-<uid>/: removed with the home.
    env: () => ({
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: API_KEY,
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    }),
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    ...(options.keepWorkspaces ? { keepWorkspaces: true } : {}),
  });
}

/** The first line of the first tool result of a request (the `pwd` the agent ran). */
function firstLine(request: Parameters<typeof toolResults>[0]): string {
  return toolResults(request)[0]?.text.split("\n")[0] ?? "";
}

const USAGE = [
  { input_tokens: 120, output_tokens: 30 },
  { input_tokens: 200, output_tokens: 45 },
  { input_tokens: 260, output_tokens: 15 },
];

const SHELL_AND_EDIT: ScriptedTurn[] = [
  {
    text: "I'll look around first.",
    toolCalls: [{
      name: "Bash",
      input: { command: "pwd && echo hello > greeting.txt && cat greeting.txt" },
    }],
    usage: USAGE[0],
  },
  {
    toolCalls: (request) => [
      {
        name: "Edit",
        input: {
          file_path: `${firstLine(request)}/notes.txt`,
          old_string: "draft",
          new_string: "final",
        },
      },
      { name: "Bash", input: { command: "ls missing-dir" } },
    ],
    usage: USAGE[1],
  },
  {
    // Echoes the API key the agent sent: the log and the row must not keep it.
    text: (request) =>
      `Greeting written and the note is final (key ${request.headers["x-api-key"]}).`,
    usage: USAGE[2],
  },
];

const SHELL_AND_EDIT_CASE = `evalcases:
  - id: edit-notes
    expected_outcome: writes a greeting and finalises the note
    input: Write hello to greeting.txt and make the note final.
    execution:
      workspace_template: ../template
    evaluators:
      - name: steps
        type: tool_trajectory
        mode: in_order
        expected:
          - {tool: Bash, status: ok}
          - {tool: Edit, status: ok}
          - {tool: Bash, status: error}
      - name: files
        type: file_changes
        expected:
          - {path: greeting.txt, change: added, contains: hello}
          - {path: notes.txt, change: modified, contains: a final note}
`;

Deno.test({
  name:
    "claude-code runs real shell and edit steps in a template workspace: trace, tool_trajectory with status, file_changes, diff, usage, cost and log in the row",
  ignore: claude.ignore,
  sanitizeResources: true,
  async fn() {
    await using server = startAnthropicSseServer({ turns: SHELL_AND_EDIT });
    await using run = await runClaude(server, {
      "template/notes.txt": "a draft note\n",
      "evals/agent.yaml": SHELL_AND_EDIT_CASE,
    });
    const row = run.rows["edit-notes"];
    assert.equal(row.error, null, row.error ?? "");
    assert.equal(row.status, "ok");

    // The real calls, with their real outputs, paired by id; the failing step is an error.
    const got = calls(row);
    assert.deepEqual(got.map((c) => [c.tool, c.status]), [
      ["Bash", "ok"],
      ["Edit", "ok"],
      ["Bash", "error"],
    ]);
    const workspace = String(got[0].output).split("\n")[0];
    assert.equal(got[0].output, `${workspace}\nhello`);
    assert.notEqual(workspace, join(run.dir, "template"));
    assert.match(String(got[2].output), /missing-dir/);
    for (const call of got) {
      assert.equal(typeof call.id, "string");
      assert.ok(typeof call.duration_ms === "number" && call.duration_ms >= 0);
    }
    assert.equal(server.requests[2].headers["x-api-key"], API_KEY);
    assert.equal(row.candidate_answer, "Greeting written and the note is final (key ***).");

    // The checks score it; the workspace changes and diff are in the row.
    const byName = Object.fromEntries(row.evaluator_results.map((r) => [r.name, r]));
    assert.equal(byName.steps.score, 1, byName.steps.misses.join("; "));
    assert.equal(byName.files.score, 1, byName.files.misses.join("; "));
    const changes = row.workspace as { added: string[]; modified: string[]; diff: string };
    assert.deepEqual(changes.added, ["greeting.txt"]);
    assert.deepEqual(changes.modified, ["notes.txt"]);
    assert.match(changes.diff, /^-a draft note$/m);
    assert.match(changes.diff, /^\+a final note$/m);
    // The template itself is untouched.
    assert.equal(await Deno.readTextFile(join(run.dir, "template/notes.txt")), "a draft note\n");

    // Usage is the sum over the scripted turns; cost and turns are Claude Code's own figures.
    const sum = (k: "input_tokens" | "output_tokens") => USAGE.reduce((n, u) => n + u[k], 0);
    assert.equal(row.token_usage?.input, sum("input_tokens"));
    assert.equal(row.token_usage?.output, sum("output_tokens"));
    assert.equal(row.trace_summary?.error_count, 1);
    assert.equal(row.trace_summary?.event_count, 3);

    // The raw stream is logged, redacted, under .agentv/logs/<run>/<case>.jsonl, and the row
    // names it; the cost in the row is the result event's total_cost_usd.
    assert.equal(row.log_path, join(run.dir, ".agentv", "logs", row.run_id!, "edit-notes.jsonl"));
    const log = await Deno.readTextFile(row.log_path as string);
    assert.ok(!log.includes(API_KEY), "the API key is redacted from the log");
    const result = log.trimEnd().split("\n").map((l) => JSON.parse(l)).find((e) =>
      e.type === "result"
    );
    assert.ok(result.total_cost_usd > 0);
    assert.equal(row.trace_summary?.cost_usd, result.total_cost_usd);
    assert.equal(row.trace_summary?.turns, result.num_turns);
    // Claude Code got the case's prompt.
    assert.match(JSON.stringify(server.requests[0].messages), /Write hello to greeting\.txt/);
  },
});

Deno.test({
  name: "claude-code: a model API error is an error row with the agent's own message and its log",
  ignore: claude.ignore,
  async fn() {
    await using server = startAnthropicSseServer({
      turns: [{
        error: { status: 400, type: "invalid_request_error", message: "mock refuses this model" },
      }],
    });
    await using run = await runClaude(server, {
      "evals/agent.yaml": `evalcases:
  - id: refused
    expected_outcome: x
    input: Say hi
    evaluators: [{type: contains, value: hi}]
`,
    });
    const row = run.rows.refused;
    assert.equal(row.status, "error");
    assert.match(row.error ?? "", /reported an error: .*mock refuses this model/);
    assert.ok(typeof row.log_path === "string");
    assert.match(await Deno.readTextFile(row.log_path as string), /"type":"result"/);
  },
});

Deno.test({
  name:
    "claude-code: past timeout_seconds the agent and the processes its tools started are killed, and the row keeps the trace so far",
  ignore: claude.ignore || Deno.build.os !== "linux",
  async fn() {
    // A command line no other process has: the pid the agent sees may be its sandbox's own.
    const watcher = `timeout 86400.${
      crypto.getRandomValues(new Uint32Array(1))[0]
    } tail -f /dev/null`;
    await using server = startAnthropicSseServer({
      turns: [
        {
          // A background process in the Bash tool's own session, then a model that never answers.
          toolCalls: [{
            name: "Bash",
            input: { command: `${watcher} > /dev/null 2>&1 & echo $!` },
          }],
        },
        { hang: true },
      ],
    });
    await using run = await runClaude(server, {
      "evals/agent.yaml": `evalcases:
  - id: stuck
    expected_outcome: x
    input: Start a watcher
    evaluators: [{type: contains, value: x}]
`,
    }, { targetExtra: "    timeout_seconds: 8\n" });
    const row = run.rows.stuck;
    assert.equal(row.status, "error");
    assert.match(row.error ?? "", /timed out after 8s/);
    const [step] = calls(row);
    assert.equal(step?.tool, "Bash");
    const background = Number(String(step.output).trim());
    assert.ok(background > 0, `pid in ${JSON.stringify(step.output)}`);
    assert.ok(await waitCommandGone(watcher), `background process ${background} still runs`);
  },
});

Deno.test({
  name: "claude-code: 4 cases in parallel each run in a workspace of their own",
  ignore: claude.ignore,
  async fn() {
    const ids = ["p1", "p2", "p3", "p4"];
    await using server = startAnthropicSseServer({
      turns: [
        {
          toolCalls: (request) => {
            const id = JSON.stringify(request.messages[0].content).match(/case (p\d)/)?.[1];
            return [{ name: "Bash", input: { command: `pwd; ls; echo ${id} > mine.txt` } }];
          },
        },
        { text: "written" },
      ],
    });
    await using run = await runClaude(server, {
      "template/shared.txt": "from the template\n",
      "evals/agent.yaml": "evalcases:\n" + ids.map((id) =>
        `  - id: ${id}
    expected_outcome: x
    input: This is case ${id}; write it to mine.txt
    execution: {workspace_template: ../template}
    evaluators:
      - type: file_changes
        expected: [{path: mine.txt, change: added, contains: ${id}}]
`
      ).join(""),
    }, { workers: 4 });
    const folders = new Set<string>();
    for (const id of ids) {
      const row = run.rows[id];
      assert.equal(row.status, "ok", row.error ?? "");
      assert.equal(row.score, 1, row.misses.join("; "));
      const [pwd, ...listing] = String(calls(row)[0].output).split("\n");
      folders.add(pwd);
      // Each workspace is a fresh copy: only the template's file, nothing of the others.
      assert.deepEqual(listing, ["shared.txt"]);
      assert.deepEqual((row.workspace as { added: string[] }).added, ["mine.txt"]);
    }
    assert.equal(folders.size, 4);
  },
});
