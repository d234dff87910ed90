/**
 * The `pi` provider: runs pi (`@mariozechner/pi-coding-agent`) headless in the case's workspace,
 * `pi --mode json -p --no-session [--provider agentv] [--model MODEL] [--append-system-prompt S]
 * [args…]`, with the prompt on stdin. pi runs its tools (`read`, `bash`, `edit`, `write`) without
 * asking. Its stream is parsed as it arrives (`pi_stream.ts`) into the row's trace, token usage,
 * cost, turns and duration, and kept, redacted, in the case's log.
 *
 * Configuration: each case gets a private, empty pi configuration folder (`PI_CODING_AGENT_DIR`,
 * made in the agent's `TMPDIR` and removed after the run), so nothing in the user's `~/.pi/agent` (settings, models, keys,
 * extensions, sessions) is read or written. With `base_url`, that folder holds a `models.json`
 * declaring the provider `agentv` that speaks the OpenAI Chat Completions API at `base_url` with
 * the target's `model`, its key read by pi from `OPENAI_API_KEY` (see {@link piModelsJson});
 * without it, `model` names one of pi's built-in providers' models (`anthropic/claude-…`), whose
 * key is a variable the target lists under `env`.
 *
 * Environment: the scrubbed base (`PATH`, `HOME`, `LANG`, `TMPDIR`), pi's own variables (names
 * starting with `PI_`, `OPENAI_API_KEY`, the proxy and CA variables), the names the target lists
 * under `env`, `PI_OFFLINE=1` and `PI_TELEMETRY=0` unless given (no start-up downloads, version
 * check or telemetry), and `PI_CODING_AGENT_DIR`, always agentv's folder.
 *
 * Sandbox (`sandbox_launch.ts`; `bubblewrap` by default): the model endpoint it may reach is
 * {@link piModelEndpoint}'s; the case's private configuration folder is bound in writable.
 * Otherwise its home is the sandbox's empty one.
 *
 * pi exits 0 even when the model call failed: a last response that stopped with an error, a
 * non-zero exit, or a run without a final answer fails the case with the agent's own message; the
 * trace so far is kept on the error row.
 *
 * @module
 */
import type { PiSettings } from "../schema/targets.ts";
import {
  type AgentInvocation,
  agentLimits,
  agentSandbox,
  agentSecrets,
  invokeAgent,
} from "./agent_target.ts";
import { agentChildEnv } from "./child_env.ts";
import { createPiStreamParser } from "./pi_stream.ts";
import { OPENAI_BASE_URL } from "./openai.ts";
import { permitOf, type ProviderContext, type TargetCore } from "./provider_context.ts";
import { TargetConfigError } from "../dataset/targets_errors.ts";

/** Variables of pi itself, passed on when set (besides the names listed in `env`). */
const PI_VARIABLES = /^(PI_\w+|OPENAI_API_KEY|HTTPS?_PROXY|NO_PROXY|NODE_EXTRA_CA_CERTS)$/i;

/** The variable pi reads its configuration folder from (default `~/.pi/agent`). */
export const PI_AGENT_DIR_VARIABLE = "PI_CODING_AGENT_DIR";

/** The provider agentv declares in pi's `models.json` for `base_url`. */
export const PI_PROVIDER = "agentv";

/** The variable pi reads the `agentv` provider's key from. */
const PI_KEY_VARIABLE = "OPENAI_API_KEY";

/**
 * The arguments of one run (the prompt goes to stdin).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { piArgs } from "./pi.ts";
 * assert.deepEqual(
 *   piArgs({ name: "p", provider: "pi", model: "m", base_url: "http://127.0.0.1:9/v1" }),
 *   ["--mode", "json", "-p", "--no-session", "--provider", "agentv", "--model", "m"],
 * );
 * ```
 */
export function piArgs(settings: PiSettings): string[] {
  return [
    "--mode",
    "json",
    "-p",
    "--no-session",
    ...(settings.base_url !== undefined ? ["--provider", PI_PROVIDER] : []),
    ...(settings.model !== undefined && settings.model !== "" ? ["--model", settings.model] : []),
    ...(settings.system_prompt !== undefined && settings.system_prompt !== ""
      ? ["--append-system-prompt", settings.system_prompt]
      : []),
    ...(settings.args ?? []),
  ];
}

/**
 * The environment pi runs with (before agentv's configuration folder is added): the scrubbed
 * base, pi's own variables, the names listed in `env`, and `PI_OFFLINE=1`, `PI_TELEMETRY=0`
 * unless given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { piEnv } from "./pi.ts";
 * const env = piEnv({ PATH: "/bin", OPENAI_API_KEY: "k", PI_CODING_AGENT_DIR: "/home/u/.pi", A: "a" }, {
 *   name: "p",
 *   provider: "pi",
 * });
 * assert.deepEqual(env, { PATH: "/bin", OPENAI_API_KEY: "k", PI_OFFLINE: "1", PI_TELEMETRY: "0" });
 * ```
 */
export function piEnv(
  source: Readonly<Record<string, string>>,
  settings: PiSettings,
): Record<string, string> {
  const env = agentChildEnv(source, PI_VARIABLES, settings.env);
  delete env[PI_AGENT_DIR_VARIABLE];
  env.PI_OFFLINE ??= "1";
  env.PI_TELEMETRY ??= "0";
  return env;
}

/**
 * The `models.json` agentv writes into pi's configuration folder for `base_url`: the provider
 * `agentv` (OpenAI Chat Completions at `base_url`, its key named, not written: pi reads the
 * value of `OPENAI_API_KEY`) with the target's `model`; `undefined` without `base_url`. Throws a
 * `TargetConfigError` when `base_url` is set without a `model`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { piModelsJson } from "./pi.ts";
 * const json = piModelsJson({ name: "p", provider: "pi", model: "m", base_url: "http://127.0.0.1:9/v1" });
 * assert.deepEqual(JSON.parse(json!).providers.agentv, {
 *   baseUrl: "http://127.0.0.1:9/v1",
 *   api: "openai-completions",
 *   apiKey: "OPENAI_API_KEY",
 *   models: [{ id: "m" }],
 * });
 * ```
 */
export function piModelsJson(settings: PiSettings): string | undefined {
  if (settings.base_url === undefined) return undefined;
  if (settings.model === undefined || settings.model.trim() === "") {
    throw new TargetConfigError(
      `Target '${settings.name}' sets base_url but no model`,
      {
        target: settings.name,
        hint: "name the model the endpoint serves (model: …): pi calls it at base_url",
      },
    );
  }
  const provider = {
    baseUrl: settings.base_url,
    api: "openai-completions",
    apiKey: PI_KEY_VARIABLE,
    models: [{ id: settings.model }],
  };
  return JSON.stringify({ providers: { [PI_PROVIDER]: provider } }, null, 2);
}

/**
 * The model endpoint pi calls, when agentv can tell: `base_url`, else OpenAI's API when `model`
 * names an `openai/…` model; `undefined` for pi's other built-in providers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { piModelEndpoint } from "./pi.ts";
 * assert.equal(
 *   piModelEndpoint({ name: "p", provider: "pi", model: "m", base_url: "http://127.0.0.1:9/v1" }, {}),
 *   "http://127.0.0.1:9/v1",
 * );
 * ```
 */
export function piModelEndpoint(
  settings: PiSettings,
  _source: Readonly<Record<string, string>>,
): string | undefined {
  if (settings.base_url !== undefined) return settings.base_url;
  return settings.model?.startsWith("openai/") ? OPENAI_BASE_URL : undefined;
}

/** Creates the `pi` provider. */
export function createPiTarget(settings: PiSettings, context: ProviderContext): TargetCore {
  const env = piEnv(context.env, settings);
  const modelsJson = piModelsJson(settings);
  const label = `pi target '${context.name}'`;
  const sandbox = agentSandbox(settings, context, {
    label,
    endpoints: [piModelEndpoint(settings, context.env)],
    stateDirs: [],
  });
  const { secrets: ownSecrets, redact } = agentSecrets(env, context);
  const agent: AgentInvocation = {
    label,
    permit: () => permitOf(context, "agent_target"),
    env,
    redact,
    ...agentLimits(settings),
    install: "install pi: npm install -g @mariozechner/pi-coding-agent",
    missingAnswer: "no text after its last tool call",
    retryTimeouts: false,
    prompt: (request) => request.prompt,
    parser: () => createPiStreamParser(),
    durationMs: (_trace, result) => result.durationMs,
    ...(sandbox !== undefined ? { sandbox } : {}),
    // A private configuration folder per case: pi writes its auth.json there too.
    caseDir: {
      variable: PI_AGENT_DIR_VARIABLE,
      prefix: "agentv-pi-",
      files: modelsJson !== undefined ? { "models.json": modelsJson } : {},
    },
  };
  return {
    secrets: ownSecrets,
    ...(sandbox !== undefined ? { sandbox: sandbox.policy } : {}),
    invoke: (request) => invokeAgent(agent, request),
  };
}
