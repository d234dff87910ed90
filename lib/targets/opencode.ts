/**
 * The `opencode` provider: runs opencode headless in the case's workspace,
 * `opencode run --format json [-m PROVIDER/MODEL] [args…]`, with the prompt on stdin
 * (`system_prompt`, when set, goes first, then a blank line). Providers, keys and permissions are
 * opencode's own configuration (`opencode.json`, `~/.config/opencode`, or the JSON in
 * `OPENCODE_CONFIG_CONTENT`). The stream is parsed as it arrives (`opencode_stream.ts`) into the
 * row's trace, token usage, cost, turns and duration, and kept, redacted, in the case's log.
 *
 * Environment: the scrubbed base (`PATH`, `HOME`, `LANG`, `TMPDIR`), opencode's own variables
 * (names starting with `OPENCODE_`, the proxy and CA variables) and the names the target lists
 * under `env` (the provider's key, e.g. `ANTHROPIC_API_KEY`: opencode reads many, agentv passes on
 * only the ones listed). `base_url` becomes the `baseURL` option of the model's provider (the part
 * of `model` before the `/`), merged into `OPENCODE_CONFIG_CONTENT` (see
 * {@link opencodeModelEndpoint}).
 *
 * Sandbox (`sandbox_launch.ts`; `bubblewrap` by default): the model endpoint it may reach is
 * {@link opencodeModelEndpoint}'s (one agentv cannot tell, from opencode's own files or built-in
 * providers, goes in `allow_hosts`: the run warns); its state folders are writable
 * ({@link opencodeStateDirs}), `OPENCODE_CONFIG` and `OPENCODE_MODELS_PATH` readable. Otherwise
 * its home is the sandbox's empty one: its configuration comes from `OPENCODE_CONFIG_CONTENT`.
 *
 * An agent that exits non-zero, reports an error (an `error` event), or ends without a final answer
 * fails the case with the agent's own message; the trace so far is kept on the error row.
 *
 * @module
 */
import { join } from "node:path";
import type { OpencodeSettings } from "../schema/targets.ts";
import {
  type AgentInvocation,
  agentLimits,
  agentSandbox,
  agentSecrets,
  invokeAgent,
} from "./agent_target.ts";
import { agentChildEnv } from "./child_env.ts";
import { createOpencodeStreamParser } from "./opencode_stream.ts";
import { permitOf, type ProviderContext, type TargetCore } from "./provider_context.ts";
import { TargetConfigError } from "../dataset/targets_errors.ts";

/** Variables of opencode itself, passed on when set (besides the names listed in `env`). */
const OPENCODE_VARIABLES = /^(OPENCODE_\w+|HTTPS?_PROXY|NO_PROXY|NODE_EXTRA_CA_CERTS)$/i;

/** The variable holding configuration JSON that opencode merges over its config files. */
export const OPENCODE_CONFIG_VARIABLE = "OPENCODE_CONFIG_CONTENT";

/**
 * The arguments of one run (the prompt goes to stdin).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { opencodeArgs } from "./opencode.ts";
 * assert.deepEqual(
 *   opencodeArgs({ name: "o", provider: "opencode", model: "anthropic/claude-sonnet-4-5" }),
 *   ["run", "--format", "json", "-m", "anthropic/claude-sonnet-4-5"],
 * );
 * ```
 */
export function opencodeArgs(settings: OpencodeSettings): string[] {
  return [
    "run",
    "--format",
    "json",
    ...(settings.model !== undefined && settings.model !== "" ? ["-m", settings.model] : []),
    ...(settings.args ?? []),
  ];
}

/** The provider part of an opencode model (`anthropic` of `anthropic/claude-…`). */
function modelProvider(model: string | undefined): string | undefined {
  const slash = model?.indexOf("/") ?? -1;
  return model !== undefined && slash > 0 ? model.slice(0, slash) : undefined;
}

/** Parses configuration JSON from `OPENCODE_CONFIG_CONTENT` (an object, else `undefined`). */
function configOf(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The environment opencode runs with: the scrubbed base, opencode's own variables, the names
 * listed in `env`, and `base_url` as the `baseURL` of the model's provider in
 * `OPENCODE_CONFIG_CONTENT` (merged into the configuration given there, if any). Throws a
 * `TargetConfigError` when `base_url` is set without a `provider/model` model, or when the given
 * `OPENCODE_CONFIG_CONTENT` is not a JSON object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { opencodeEnv } from "./opencode.ts";
 * const env = opencodeEnv({ PATH: "/bin" }, {
 *   name: "o",
 *   provider: "opencode",
 *   model: "local/qwen3",
 *   base_url: "http://127.0.0.1:8080/v1",
 * });
 * assert.deepEqual(env, {
 *   PATH: "/bin",
 *   OPENCODE_CONFIG_CONTENT: '{"provider":{"local":{"options":{"baseURL":"http://127.0.0.1:8080/v1"}}}}',
 * });
 * ```
 */
export function opencodeEnv(
  source: Readonly<Record<string, string>>,
  settings: OpencodeSettings,
): Record<string, string> {
  const env = agentChildEnv(source, OPENCODE_VARIABLES, settings.env);
  if (settings.base_url === undefined) return env;
  const provider = modelProvider(settings.model);
  if (provider === undefined) {
    throw new TargetConfigError(
      `Target '${settings.name}' sets base_url, but its model '${
        settings.model ?? ""
      }' names no provider`,
      {
        target: settings.name,
        hint: "write the model as PROVIDER/MODEL (e.g. local/qwen3-coder): base_url becomes " +
          "that provider's baseURL",
      },
    );
  }
  const given = env[OPENCODE_CONFIG_VARIABLE];
  const config = given === undefined ? {} : configOf(given);
  if (config === undefined) {
    throw new TargetConfigError(
      `Target '${settings.name}' sets base_url, but ${OPENCODE_CONFIG_VARIABLE} is not a JSON object`,
      { target: settings.name, hint: `fix ${OPENCODE_CONFIG_VARIABLE}, or leave base_url out` },
    );
  }
  const providers = { ...asRecord(config.provider) };
  const entry = asRecord(providers[provider]);
  providers[provider] = {
    ...entry,
    options: { ...asRecord(entry.options), baseURL: settings.base_url },
  };
  env[OPENCODE_CONFIG_VARIABLE] = JSON.stringify({ ...config, provider: providers });
  return env;
}

/**
 * The public endpoints of opencode's built-in providers agentv knows (by the provider part of
 * `model`): where their models are called when nothing else says.
 */
const PROVIDER_DEFAULTS: Readonly<Record<string, string>> = {
  anthropic: "https://api.anthropic.com/v1",
  openai: "https://api.openai.com/v1",
  google: "https://generativelanguage.googleapis.com/v1beta",
  openrouter: "https://openrouter.ai/api/v1",
  groq: "https://api.groq.com/openai/v1",
  mistral: "https://api.mistral.ai/v1",
  deepseek: "https://api.deepseek.com",
  xai: "https://api.x.ai/v1",
};

/**
 * The model endpoint opencode calls, when agentv can tell: `base_url`, else the `baseURL` given
 * for the model's provider in `OPENCODE_CONFIG_CONTENT`, else the public endpoint of a built-in
 * provider agentv knows (`anthropic`, `openai`, `google`, `openrouter`, `groq`, `mistral`,
 * `deepseek`, `xai`); `undefined` for another provider (one from opencode's config files).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { opencodeModelEndpoint } from "./opencode.ts";
 * const endpoint = opencodeModelEndpoint({ name: "o", provider: "opencode", model: "local/m" }, {
 *   OPENCODE_CONFIG_CONTENT: '{"provider":{"local":{"options":{"baseURL":"http://127.0.0.1:9/v1"}}}}',
 * });
 * assert.equal(endpoint, "http://127.0.0.1:9/v1");
 * const builtIn = { name: "o", provider: "opencode", model: "anthropic/claude-sonnet-4-5" };
 * assert.equal(opencodeModelEndpoint(builtIn, {}), "https://api.anthropic.com/v1");
 * ```
 */
export function opencodeModelEndpoint(
  settings: OpencodeSettings,
  source: Readonly<Record<string, string>>,
): string | undefined {
  const provider = modelProvider(settings.model);
  if (provider === undefined) return undefined;
  const config = configOf(opencodeEnv(source, settings)[OPENCODE_CONFIG_VARIABLE]);
  const url = asRecord(asRecord(asRecord(config?.provider)[provider]).options).baseURL;
  if (typeof url === "string") return url;
  return Object.hasOwn(PROVIDER_DEFAULTS, provider) ? PROVIDER_DEFAULTS[provider] : undefined;
}

/**
 * The folders opencode keeps its state in, as the environment agentv gives it names them:
 * `OPENCODE_CONFIG_DIR`, and the `opencode` folder of each `XDG_*_HOME` given (listed under
 * `env`); the rest is in the sandbox's private home.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { opencodeStateDirs } from "./opencode.ts";
 * assert.deepEqual(
 *   opencodeStateDirs({ XDG_DATA_HOME: "/srv/data", OPENCODE_CONFIG_DIR: "/srv/oc" }),
 *   ["/srv/oc", "/srv/data/opencode"],
 * );
 * ```
 */
export function opencodeStateDirs(env: Readonly<Record<string, string>>): string[] {
  const xdg = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"];
  return [
    ...(env.OPENCODE_CONFIG_DIR ? [env.OPENCODE_CONFIG_DIR] : []),
    ...xdg.flatMap((name) => env[name] ? [join(env[name], "opencode")] : []),
  ];
}

/** Creates the `opencode` provider. */
export function createOpencodeTarget(
  settings: OpencodeSettings,
  context: ProviderContext,
): TargetCore {
  const env = opencodeEnv(context.env, settings);
  const label = `opencode target '${context.name}'`;
  const sandbox = agentSandbox(settings, context, {
    label,
    endpoints: [opencodeModelEndpoint(settings, context.env)],
    stateDirs: opencodeStateDirs(env),
    readOnly: [env.OPENCODE_CONFIG, env.OPENCODE_MODELS_PATH],
  });
  const { secrets: ownSecrets, redact } = agentSecrets(env, context);
  const agent: AgentInvocation = {
    label,
    permit: () => permitOf(context, "agent_target"),
    env,
    redact,
    ...agentLimits(settings),
    install: "install opencode: npm install -g opencode-ai",
    missingAnswer: "no text after its last tool call",
    retryTimeouts: false,
    prompt: (request) =>
      settings.system_prompt !== undefined && settings.system_prompt !== ""
        ? `${settings.system_prompt}\n\n${request.prompt}`
        : request.prompt,
    parser: () => createOpencodeStreamParser(),
    durationMs: (_trace, result) => result.durationMs,
    ...(sandbox !== undefined ? { sandbox } : {}),
  };
  return {
    secrets: ownSecrets,
    invoke: (request) => invokeAgent(agent, request),
    ...(sandbox !== undefined ? { sandbox: sandbox.policy } : {}),
  };
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}
