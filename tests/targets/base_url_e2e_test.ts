/**
 * `base_url` on agent targets, with the real CLIs offline: Claude Code gets it as
 * `ANTHROPIC_BASE_URL`, Codex as a provider override (key from `OPENAI_API_KEY`); nothing else
 * names the endpoint, and the default sandbox lets exactly that address through.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval } from "../../lib/run/run_eval.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { locateAgentCli } from "../_helpers/agent_clis.ts";
import { startAnthropicSseServer } from "../_helpers/anthropic_sse_server.ts";
import { execCommand, startResponsesSseServer } from "../_helpers/responses_sse_server.ts";
import { bubblewrap } from "../_helpers/bubblewrap.ts";
import { project } from "../_helpers/run_project.ts";

const claude = await locateAgentCli("claude");
const codex = await locateAgentCli("codex");

async function runOne(target: string, env: Record<string, string>): Promise<ResultRow> {
  await using p = await project({
    ".agentv/targets.yaml": `targets:\n  - name: default\n${target}`,
    "evals/a.yaml": `evalcases:
  - id: a
    expected_outcome: says done
    input: Run echo hi, then say Done.
    evaluators: [{type: contains, value: Done}]
`,
    "home/.keep": "",
  });
  const { rows } = await runEval({
    files: [join(p.dir, "evals")],
    cwd: p.dir,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: p.path("home"), ...env },
    timeoutMs: 120_000,
    allowRun: true,
  });
  return rows[0];
}

Deno.test({
  name: "claude-code: base_url is the endpoint Claude Code calls, reached from its sandbox",
  ignore: claude.ignore || bubblewrap.ignore,
  async fn() {
    await using server = startAnthropicSseServer({
      turns: [{ toolCalls: [{ name: "Bash", input: { command: "echo hi" } }] }, { text: "Done" }],
    });
    const row = await runOne(
      `    provider: claude-code
    executable: ${JSON.stringify(claude.require())}
    allowed_tools: [Bash]
    base_url: ${server.url}
`,
      {
        ANTHROPIC_API_KEY: "sk-ant-base-url",
        DISABLE_TELEMETRY: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      },
    );
    assert.equal(row.status, "ok", row.error ?? "");
    assert.equal(row.score, 1);
    assert.equal(server.requests.length, 2);
  },
});

Deno.test({
  name: "codex: base_url is its provider's address, with OPENAI_API_KEY, reached from its sandbox",
  ignore: codex.ignore || bubblewrap.ignore,
  async fn() {
    await using server = startResponsesSseServer({
      turns: [{ toolCalls: [execCommand("echo hi")] }, { text: "Done" }],
    });
    const row = await runOne(
      `    provider: codex
    executable: ${JSON.stringify(codex.require())}
    model: gpt-5-mock
    base_url: ${server.url}
    args: [--sandbox, danger-full-access, -c, analytics.enabled=false]
`,
      { OPENAI_API_KEY: "sk-codex-base-url" },
    );
    assert.equal(row.status, "ok", row.error ?? "");
    assert.equal(row.score, 1);
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[0].headers.authorization, "Bearer sk-codex-base-url");
  },
});
