/**
 * The `gemini-cli` provider: runs Google's Gemini CLI headless in the case's workspace,
 * `gemini --output-format stream-json [-m MODEL] [args…]`, with the prompt on stdin
 * (`system_prompt`, when set, goes first, then a blank line). Gemini CLI needs a trusted folder
 * and an approval mode to run tools headless: both are the target's choice, in `args` (e.g.
 * `[--skip-trust, --approval-mode, yolo]`) or its own variables (`GEMINI_CLI_TRUST_WORKSPACE`).
 * The stream is parsed as it arrives (`gemini_cli_stream.ts`) into the row's trace, token usage
 * and duration, and kept, redacted, in the case's log.
 *
 * Environment: the scrubbed base (`PATH`, `HOME`, `LANG`, `TMPDIR`), Gemini CLI's own variables
 * (names starting with `GEMINI_` or `GOOGLE_`, the proxy and CA variables) and the names the target
 * lists under `env`. `base_url` is handed to the CLI as `GOOGLE_GEMINI_BASE_URL`, the endpoint it
 * sends model calls to (see {@link geminiCliModelEndpoint}).
 *
 * Sandbox (`sandbox_launch.ts`; `bubblewrap` by default): the model endpoint it may reach is
 * {@link geminiCliModelEndpoint}'s; `GEMINI_CLI_HOME`, when set, is its writable settings and state
 * folder. Otherwise its home is the sandbox's empty one, where agentv writes what a headless run
 * needs ({@link geminiCliHomeFiles}).
 *
 * An agent that exits non-zero, reports an error (`result.status: error`), or ends without a final
 * answer fails the case with the agent's own message; the trace so far is kept on the error row.
 *
 * @module
 */
import type { GeminiCliSettings } from "../schema/targets.ts";
import {
  type AgentInvocation,
  agentLimits,
  agentSandbox,
  agentSecrets,
  type HomeFile,
  invokeAgent,
} from "./agent_target.ts";
import { agentChildEnv } from "./child_env.ts";
import { createGeminiCliStreamParser } from "./gemini_cli_stream.ts";
import { GEMINI_BASE_URL } from "./gemini.ts";
import { permitOf, type ProviderContext, type TargetCore } from "./provider_context.ts";

/** Variables of Gemini CLI itself, passed on when set (besides the names listed in `env`). */
const GEMINI_CLI_VARIABLES = /^(GEMINI_\w+|GOOGLE_\w+|HTTPS?_PROXY|NO_PROXY|NODE_EXTRA_CA_CERTS)$/i;

/** The variable Gemini CLI reads its model endpoint from. */
export const GEMINI_CLI_BASE_URL_VARIABLE = "GOOGLE_GEMINI_BASE_URL";

/** The variable naming the folder Gemini CLI keeps `.gemini` in (default: the home). */
export const GEMINI_CLI_HOME_VARIABLE = "GEMINI_CLI_HOME";

/**
 * The arguments of one run (the prompt goes to stdin).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { geminiCliArgs } from "./gemini_cli.ts";
 * assert.deepEqual(
 *   geminiCliArgs({ name: "g", provider: "gemini-cli", model: "gemini-2.5-pro", args: ["--skip-trust"] }),
 *   ["--output-format", "stream-json", "-m", "gemini-2.5-pro", "--skip-trust"],
 * );
 * ```
 */
export function geminiCliArgs(settings: GeminiCliSettings): string[] {
  return [
    "--output-format",
    "stream-json",
    ...(settings.model !== undefined && settings.model !== "" ? ["-m", settings.model] : []),
    ...(settings.args ?? []),
  ];
}

/**
 * The environment Gemini CLI runs with: the scrubbed base, Gemini CLI's own variables, the names
 * listed in `env`, and `base_url` as `GOOGLE_GEMINI_BASE_URL`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { geminiCliEnv } from "./gemini_cli.ts";
 * const env = geminiCliEnv({ PATH: "/bin", GEMINI_API_KEY: "g", OPENAI_API_KEY: "o" }, {
 *   name: "g",
 *   provider: "gemini-cli",
 *   base_url: "http://127.0.0.1:8080",
 * });
 * assert.deepEqual(env, {
 *   PATH: "/bin",
 *   GEMINI_API_KEY: "g",
 *   GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:8080",
 * });
 * ```
 */
export function geminiCliEnv(
  source: Readonly<Record<string, string>>,
  settings: GeminiCliSettings,
): Record<string, string> {
  const env = agentChildEnv(source, GEMINI_CLI_VARIABLES, settings.env);
  if (settings.base_url !== undefined) env[GEMINI_CLI_BASE_URL_VARIABLE] = settings.base_url;
  return env;
}

/**
 * The model endpoint Gemini CLI calls: `base_url`, else `GOOGLE_GEMINI_BASE_URL` from the
 * environment agentv gives it, else the public Gemini API.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { geminiCliModelEndpoint } from "./gemini_cli.ts";
 * assert.equal(
 *   geminiCliModelEndpoint({ name: "g", provider: "gemini-cli" }, {}),
 *   "https://generativelanguage.googleapis.com",
 * );
 * ```
 */
export function geminiCliModelEndpoint(
  settings: GeminiCliSettings,
  source: Readonly<Record<string, string>>,
): string {
  return geminiCliEnv(source, settings)[GEMINI_CLI_BASE_URL_VARIABLE] ?? GEMINI_BASE_URL;
}

/**
 * What Gemini CLI needs in a sandbox's empty home to run headless: unless it has its own
 * settings folder (`GEMINI_CLI_HOME`), `.gemini/settings.json` selecting the API-key auth when it
 * is given `GEMINI_API_KEY` (Gemini CLI 0.61 refuses a `GOOGLE_GEMINI_BASE_URL` without an auth
 * type in its settings, and the user's own settings are hidden with the home).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { geminiCliHomeFiles } from "./gemini_cli.ts";
 * assert.deepEqual(geminiCliHomeFiles({ GEMINI_API_KEY: "k" }), [{
 *   path: ".gemini/settings.json",
 *   text: '{"security":{"auth":{"selectedType":"gemini-api-key"}}}\n',
 * }]);
 * assert.deepEqual(geminiCliHomeFiles({ GEMINI_API_KEY: "k", GEMINI_CLI_HOME: "/srv/g" }), []);
 * ```
 */
export function geminiCliHomeFiles(env: Readonly<Record<string, string>>): HomeFile[] {
  if ((env[GEMINI_CLI_HOME_VARIABLE] ?? "") !== "" || (env.GEMINI_API_KEY ?? "") === "") return [];
  const settings = { security: { auth: { selectedType: "gemini-api-key" } } };
  return [{ path: ".gemini/settings.json", text: JSON.stringify(settings) + "\n" }];
}

/**
 * The prompt Gemini CLI reads from stdin: `system_prompt` (when set) and a blank line, then the
 * rendered prompt.
 */
export function geminiCliPrompt(settings: GeminiCliSettings, prompt: string): string {
  return settings.system_prompt !== undefined && settings.system_prompt !== ""
    ? `${settings.system_prompt}\n\n${prompt}`
    : prompt;
}

/** Creates the `gemini-cli` provider. */
export function createGeminiCliTarget(
  settings: GeminiCliSettings,
  context: ProviderContext,
): TargetCore {
  const env = geminiCliEnv(context.env, settings);
  const label = `Gemini CLI target '${context.name}'`;
  const sandbox = agentSandbox(settings, context, {
    label,
    endpoints: [geminiCliModelEndpoint(settings, context.env)],
    stateDirs: [env[GEMINI_CLI_HOME_VARIABLE]],
    homeFiles: geminiCliHomeFiles(env),
  });
  const { secrets: ownSecrets, redact } = agentSecrets(env, context);
  const agent: AgentInvocation = {
    label,
    permit: () => permitOf(context, "agent_target"),
    env,
    redact,
    ...agentLimits(settings),
    install: "install Gemini CLI: npm install -g @google/gemini-cli",
    missingAnswer: "no assistant text after its last tool call",
    retryTimeouts: false,
    prompt: (request) => geminiCliPrompt(settings, request.prompt),
    parser: () => createGeminiCliStreamParser(),
    durationMs: (trace, result) => trace.duration_ms ?? result.durationMs,
    ...(sandbox !== undefined ? { sandbox } : {}),
  };
  return {
    secrets: ownSecrets,
    invoke: (request) => invokeAgent(agent, request),
    ...(sandbox !== undefined ? { sandbox: sandbox.policy } : {}),
  };
}
