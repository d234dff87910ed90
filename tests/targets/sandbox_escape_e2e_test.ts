/**
 * The sandbox against the real agent CLIs (Claude Code and Codex, offline against their loopback
 * mock servers): a scripted agent tries to read `~/.ssh/id_rsa` (a fake key in a temp home),
 * write outside its workspace, `touch /etc/…`, and connect to another loopback port (a server that
 * counts connections). Inside the default sandbox every attempt fails and is a failed tool call
 * in the trace, and the case still reaches its model and finishes; the same script with
 * `sandbox: none` succeeds at each attempt (harmless stand-ins: the fake home, a temp folder
 * instead of `/etc`), so the sandbox is what stops them.
 */
import { locateAgentCli } from "../_helpers/agent_clis.ts";
import { startAnthropicSseServer } from "../_helpers/anthropic_sse_server.ts";
import {
  codexMockArgs,
  execCommand,
  startResponsesSseServer,
} from "../_helpers/responses_sse_server.ts";
import { bubblewrap } from "../_helpers/bubblewrap.ts";
import {
  assertBoxed,
  assertOpen,
  connectionCounter,
  escapeAttempts,
  escapeScene,
  etcOf,
  runEscapeCase,
  targetsYaml,
} from "../_helpers/sandbox_escape.ts";
import type { Tree } from "../_helpers/temp_tree.ts";

const claude = await locateAgentCli("claude");
const codex = await locateAgentCli("codex");

/** Runs the escape script through Claude Code, in the default sandbox or with `sandbox: none`. */
async function claudeEscape(s: Tree, port: number, sandbox: "default" | "none") {
  await using server = startAnthropicSseServer({
    turns: [
      {
        toolCalls: escapeAttempts(s, etcOf(s, sandbox), port).map((command) => ({
          name: "Bash",
          input: { command },
        })),
      },
      { text: "Done trying." },
    ],
  });
  const row = await runEscapeCase(
    targetsYaml({
      provider: "claude-code",
      executable: claude.require(),
      allowed_tools: ["Bash"],
      ...(sandbox === "none" ? { sandbox: "none" } : {}),
    }),
    {
      HOME: s.path("home"),
      TMPDIR: s.path("home"),
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: "sk-ant-escape-test",
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    },
  );
  return { row, modelCalls: server.requests.length };
}

/** The same through Codex. */
async function codexEscape(s: Tree, port: number, sandbox: "default" | "none") {
  await using server = startResponsesSseServer({
    turns: [
      { toolCalls: escapeAttempts(s, etcOf(s, sandbox), port).map((cmd) => execCommand(cmd)) },
      { text: "Done trying." },
    ],
  });
  await Deno.mkdir(s.path("codex-home"), { recursive: true });
  const row = await runEscapeCase(
    targetsYaml({
      provider: "codex",
      executable: codex.require(),
      model: "gpt-5-mock",
      args: ["--sandbox", "danger-full-access", ...codexMockArgs(server.url)],
      env: ["MOCK_KEY"],
      ...(sandbox === "none" ? { sandbox: "none" } : {}),
    }),
    { HOME: s.path("home"), CODEX_HOME: s.path("codex-home"), MOCK_KEY: "sk-mock-escape" },
  );
  await Deno.remove(s.path("codex-home"), { recursive: true });
  return { row, modelCalls: server.requests.length };
}

for (
  const [name, cli, escape] of [
    ["claude-code", claude, claudeEscape],
    ["codex", codex, codexEscape],
  ] as const
) {
  Deno.test({
    name:
      `${name}: in its sandbox, reading ~/.ssh, writing outside the workspace, touching /etc and reaching another loopback port all fail as failed tool calls, and the case finishes; with sandbox: none each succeeds`,
    ignore: cli.ignore || bubblewrap.ignore,
    async fn() {
      bubblewrap.require();
      await using s = await escapeScene();
      await using counter = connectionCounter();
      await assertBoxed(await escape(s, counter.port, "default"), s, counter, { exitStatus: true });
      await assertOpen(await escape(s, counter.port, "none"), s, counter);
    },
  });
}
