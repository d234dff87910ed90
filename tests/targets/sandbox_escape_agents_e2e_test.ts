/**
 * The sandbox against the newer real agent CLIs (Gemini CLI, Qwen Code, GitHub Copilot CLI,
 * opencode, pi; offline against their loopback mock servers), with the escape script of
 * `sandbox_escape_e2e_test.ts`: each CLI's own shell tool tries to read `~/.ssh/id_rsa`, write
 * outside its workspace, `touch /etc/…` and connect to another loopback port. Inside the default
 * sandbox every attempt fails (a failed tool call where the CLI's stream reports exit status:
 * Gemini CLI's does not) and the case still reaches its model and finishes; the same script with
 * `sandbox: none` succeeds at each attempt, so the sandbox is what stops them.
 */
import { join } from "node:path";
import { agentToolsDir, locateAgentCli } from "../_helpers/agent_clis.ts";
import { startChatSseServer } from "../_helpers/chat_sse_server.ts";
import { startGeminiSseServer } from "../_helpers/gemini_sse_server.ts";
import { bubblewrap } from "../_helpers/bubblewrap.ts";
import {
  assertBoxed,
  assertOpen,
  connectionCounter,
  escapeAttempts,
  type EscapeRun,
  escapeScene,
  etcOf,
  runEscapeCase,
  targetsYaml,
} from "../_helpers/sandbox_escape.ts";
import type { Tree } from "../_helpers/temp_tree.ts";

const gemini = await locateAgentCli("gemini");
const qwen = await locateAgentCli("qwen");
const copilot = await locateAgentCli("copilot");
const opencode = await locateAgentCli("opencode");
const pi = await locateAgentCli("pi");

type Sandbox = "default" | "none";
const noneIf = (sandbox: Sandbox) => sandbox === "none" ? { sandbox: "none" } : {};

/** The escape script through Gemini CLI (`run_shell_command`). */
async function geminiEscape(s: Tree, port: number, sandbox: Sandbox): Promise<EscapeRun> {
  await using server = startGeminiSseServer({
    turns: [
      {
        functionCalls: escapeAttempts(s, etcOf(s, sandbox), port)
          .map((command) => ({ name: "run_shell_command", args: { command } })),
      },
      { text: "Done trying." },
    ],
  });
  // Without its sandbox Gemini CLI reads its auth type from the (fake) home's settings.
  await Deno.mkdir(s.path("home/.gemini"), { recursive: true });
  const auth = { security: { auth: { selectedType: "gemini-api-key" } } };
  await Deno.writeTextFile(s.path("home/.gemini/settings.json"), JSON.stringify(auth));
  const row = await runEscapeCase(
    targetsYaml({
      provider: "gemini-cli",
      executable: gemini.require(),
      model: "gemini-mock",
      base_url: server.url,
      args: ["--skip-trust", "--approval-mode", "yolo"],
      ...noneIf(sandbox),
    }),
    { HOME: s.path("home"), TMPDIR: s.path("home"), GEMINI_API_KEY: "gk-escape" },
  );
  return { row, modelCalls: server.requests.length };
}

/**
 * A chat-completions server that asks for every escape attempt through the agent's shell tool
 * `tool` (with `extra` arguments), then says it is done.
 */
function escapeServer(
  s: Tree,
  port: number,
  sandbox: Sandbox,
  tool: string,
  extra: Record<string, string> = {},
) {
  return startChatSseServer({
    turns: [
      {
        toolCalls: escapeAttempts(s, etcOf(s, sandbox), port).map((command) => ({
          name: tool,
          arguments: { command, ...extra },
        })),
      },
      { text: "Done trying." },
    ],
  });
}

/** The escape script through Qwen Code (`run_shell_command`). */
async function qwenEscape(s: Tree, port: number, sandbox: Sandbox): Promise<EscapeRun> {
  await using server = escapeServer(s, port, sandbox, "run_shell_command", { description: "Try" });
  const row = await runEscapeCase(
    targetsYaml({
      provider: "qwen-code",
      executable: qwen.require(),
      model: "qwen-mock",
      base_url: server.url,
      args: ["--auth-type", "openai", "--approval-mode", "yolo"],
      ...noneIf(sandbox),
    }),
    {
      HOME: s.path("home"),
      TMPDIR: s.path("home"),
      OPENAI_API_KEY: "sk-escape",
      QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
    },
  );
  return { row, modelCalls: server.requests.length };
}

/** The escape script through Copilot CLI (`bash`), its own path checks off. */
async function copilotEscape(s: Tree, port: number, sandbox: Sandbox): Promise<EscapeRun> {
  await using server = escapeServer(s, port, sandbox, "bash", { description: "Try", mode: "sync" });
  const row = await runEscapeCase(
    targetsYaml({
      provider: "copilot-cli",
      executable: copilot.require(),
      model: "copilot-mock",
      base_url: server.url,
      args: ["--allow-all-tools", "--allow-all-paths"],
      env: ["XDG_CACHE_HOME"],
      ...noneIf(sandbox),
    }),
    {
      HOME: s.path("home"),
      TMPDIR: s.path("home"),
      XDG_CACHE_HOME: join(agentToolsDir(), "cache"),
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_API_KEY: "sk-escape",
    },
  );
  return { row, modelCalls: server.requests.length };
}

/** The escape script through opencode (`bash`), its own permission to leave the project given. */
async function opencodeEscape(s: Tree, port: number, sandbox: Sandbox): Promise<EscapeRun> {
  await using server = escapeServer(s, port, sandbox, "bash", { description: "Try" });
  const config = {
    permission: { external_directory: "allow" },
    provider: {
      mock: {
        npm: "@ai-sdk/openai-compatible",
        options: { apiKey: "{env:MOCK_KEY}" },
        models: { "opencode-mock": { name: "opencode-mock" } },
      },
    },
  };
  const row = await runEscapeCase(
    targetsYaml({
      provider: "opencode",
      executable: opencode.require(),
      model: "mock/opencode-mock",
      base_url: server.url,
      env: ["MOCK_KEY"],
      ...noneIf(sandbox),
    }),
    {
      HOME: s.path("home"),
      TMPDIR: s.path("home"),
      MOCK_KEY: "sk-escape",
      OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
    },
  );
  return { row, modelCalls: server.requests.length };
}

/** The escape script through pi (`bash`). */
async function piEscape(s: Tree, port: number, sandbox: Sandbox): Promise<EscapeRun> {
  await using server = escapeServer(s, port, sandbox, "bash");
  const row = await runEscapeCase(
    targetsYaml({
      provider: "pi",
      executable: pi.require(),
      model: "pi-mock",
      base_url: server.url,
      ...noneIf(sandbox),
    }),
    { HOME: s.path("home"), TMPDIR: s.path("home"), OPENAI_API_KEY: "sk-escape" },
  );
  return { row, modelCalls: server.requests.length };
}

for (
  const [name, cli, escape, exitStatus] of [
    ["gemini-cli", gemini, geminiEscape, false],
    ["qwen-code", qwen, qwenEscape, true],
    ["copilot-cli", copilot, copilotEscape, true],
    ["opencode", opencode, opencodeEscape, true],
    ["pi", pi, piEscape, true],
  ] as const
) {
  Deno.test({
    name:
      `${name}: in its sandbox, reading ~/.ssh, writing outside the workspace, touching /etc and reaching another loopback port all fail, and the case finishes; with sandbox: none each succeeds`,
    ignore: cli.ignore || bubblewrap.ignore,
    async fn() {
      bubblewrap.require();
      await using s = await escapeScene();
      await using counter = connectionCounter();
      await assertBoxed(await escape(s, counter.port, "default"), s, counter, { exitStatus });
      await assertOpen(await escape(s, counter.port, "none"), s, counter);
    },
  });
}
