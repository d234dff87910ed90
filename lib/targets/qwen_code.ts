/**
 * The `qwen-code` provider: runs Qwen Code headless in the case's workspace,
 * `qwen --output-format stream-json [-m MODEL] [--append-system-prompt S] [args…]`, with the
 * prompt on stdin. Qwen Code needs an auth type and an approval mode to run tools headless: both
 * are the target's choice, in `args` (e.g. `[--auth-type, openai, --approval-mode, yolo]`) or
 * Qwen Code's own settings. Its stream is Claude Code's `stream-json` without timestamps, parsed
 * as it arrives (`claude_stream.ts`, timed by arrival) into the row's trace, token usage, turns
 * and duration, and kept, redacted, in the case's log.
 *
 * Environment: the scrubbed base (`PATH`, `HOME`, `LANG`, `TMPDIR`), Qwen Code's own variables
 * (names starting with `QWEN_`, `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `OPENAI_MODEL`, the proxy and
 * CA variables) and the names the target lists under `env`. `base_url` is handed to the CLI as
 * `OPENAI_BASE_URL`, the OpenAI-compatible endpoint its `openai` auth type calls (see
 * {@link qwenCodeModelEndpoint}).
 *
 * Sandbox (`sandbox_launch.ts`; `bubblewrap` by default): the model endpoint it may reach is
 * {@link qwenCodeModelEndpoint}'s; `QWEN_HOME` (its settings and state, default `~/.qwen`) and
 * `QWEN_RUNTIME_DIR`, when set, are writable. Otherwise its home is the sandbox's empty one: the
 * auth type goes in `args` (`--auth-type openai`).
 *
 * An agent that exits non-zero, reports an error (`is_error`), or ends without a final answer
 * fails the case with the agent's own message; the trace so far is kept on the error row.
 *
 * @module
 */
import type { QwenCodeSettings } from "../schema/targets.ts";
import {
  type AgentInvocation,
  agentLimits,
  agentSandbox,
  agentSecrets,
  invokeAgent,
} from "./agent_target.ts";
import { agentChildEnv } from "./child_env.ts";
import { createClaudeStreamParser } from "./claude_stream.ts";
import { OPENAI_BASE_URL } from "./openai.ts";
import { permitOf, type ProviderContext, type TargetCore } from "./provider_context.ts";

/** Variables of Qwen Code itself, passed on when set (besides the names listed in `env`). */
const QWEN_CODE_VARIABLES =
  /^(QWEN_\w+|OPENAI_API_KEY|OPENAI_BASE_URL|OPENAI_MODEL|HTTPS?_PROXY|NO_PROXY|NODE_EXTRA_CA_CERTS)$/i;

/** The variable Qwen Code's `openai` auth type reads its model endpoint from. */
export const QWEN_CODE_BASE_URL_VARIABLE = "OPENAI_BASE_URL";

/**
 * The arguments of one run (the prompt goes to stdin).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qwenCodeArgs } from "./qwen_code.ts";
 * assert.deepEqual(
 *   qwenCodeArgs({ name: "q", provider: "qwen-code", model: "qwen3-coder-plus", args: ["--auth-type", "openai"] }),
 *   ["--output-format", "stream-json", "-m", "qwen3-coder-plus", "--auth-type", "openai"],
 * );
 * ```
 */
export function qwenCodeArgs(settings: QwenCodeSettings): string[] {
  return [
    "--output-format",
    "stream-json",
    ...(settings.model !== undefined && settings.model !== "" ? ["-m", settings.model] : []),
    ...(settings.system_prompt !== undefined && settings.system_prompt !== ""
      ? ["--append-system-prompt", settings.system_prompt]
      : []),
    ...(settings.args ?? []),
  ];
}

/**
 * The environment Qwen Code runs with: the scrubbed base, Qwen Code's own variables, the names
 * listed in `env`, and `base_url` as `OPENAI_BASE_URL`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qwenCodeEnv } from "./qwen_code.ts";
 * const env = qwenCodeEnv({ PATH: "/bin", OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "a" }, {
 *   name: "q",
 *   provider: "qwen-code",
 *   base_url: "http://127.0.0.1:8080/v1",
 * });
 * assert.deepEqual(env, {
 *   PATH: "/bin",
 *   OPENAI_API_KEY: "k",
 *   OPENAI_BASE_URL: "http://127.0.0.1:8080/v1",
 * });
 * ```
 */
export function qwenCodeEnv(
  source: Readonly<Record<string, string>>,
  settings: QwenCodeSettings,
): Record<string, string> {
  const env = agentChildEnv(source, QWEN_CODE_VARIABLES, settings.env);
  if (settings.base_url !== undefined) env[QWEN_CODE_BASE_URL_VARIABLE] = settings.base_url;
  return env;
}

/**
 * The model endpoint Qwen Code's `openai` auth type calls: `base_url`, else `OPENAI_BASE_URL`
 * from the environment agentv gives it, else OpenAI's API. (Its other auth types, chosen in
 * `args` or its settings, call their own providers.)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qwenCodeModelEndpoint } from "./qwen_code.ts";
 * const endpoint = qwenCodeModelEndpoint({ name: "q", provider: "qwen-code" }, {
 *   OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
 * });
 * assert.equal(endpoint, "http://127.0.0.1:9/v1");
 * ```
 */
export function qwenCodeModelEndpoint(
  settings: QwenCodeSettings,
  source: Readonly<Record<string, string>>,
): string {
  return qwenCodeEnv(source, settings)[QWEN_CODE_BASE_URL_VARIABLE] ?? OPENAI_BASE_URL;
}

/** Creates the `qwen-code` provider. */
export function createQwenCodeTarget(
  settings: QwenCodeSettings,
  context: ProviderContext,
): TargetCore {
  const env = qwenCodeEnv(context.env, settings);
  const label = `Qwen Code target '${context.name}'`;
  const sandbox = agentSandbox(settings, context, {
    label,
    endpoints: [qwenCodeModelEndpoint(settings, context.env)],
    stateDirs: [env.QWEN_HOME, env.QWEN_RUNTIME_DIR],
  });
  const { secrets: ownSecrets, redact } = agentSecrets(env, context);
  const agent: AgentInvocation = {
    label,
    permit: () => permitOf(context, "agent_target"),
    env,
    redact,
    ...agentLimits(settings),
    install: "install Qwen Code: npm install -g @qwen-code/qwen-code",
    missingAnswer: "no result event",
    retryTimeouts: false,
    prompt: (request) => request.prompt,
    parser: () =>
      createClaudeStreamParser({ now: Date.now, groupBy: "turn", agentName: "Qwen Code" }),
    durationMs: (trace, result) => trace.duration_ms ?? result.durationMs,
    ...(sandbox !== undefined ? { sandbox } : {}),
  };
  return {
    secrets: ownSecrets,
    invoke: (request) => invokeAgent(agent, request),
    ...(sandbox !== undefined ? { sandbox: sandbox.policy } : {}),
  };
}
