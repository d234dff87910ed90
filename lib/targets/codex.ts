/**
 * The `codex` provider: runs OpenAI's Codex CLI for each case as
 * `codex exec --json --skip-git-repo-check [-m MODEL] [args…] -` in the case's workspace
 * (`request.cwd`, else the eval file's folder), with the prompt on stdin (`system_prompt`, when
 * set, goes first, then a blank line). The `--json` event stream is parsed line by line as it
 * arrives (`codex_stream.ts`) into the row's `output_messages` (assistant text, every tool step
 * with its output, `status` and times), token usage and turns; `cost_usd` comes from the usage and
 * the target's `pricing`. Every line is kept, redacted, in the case's log (`request.logPath`).
 *
 * The agent gets a scrubbed environment (`PATH`, `HOME`, `LANG`, `TMPDIR`), Codex's own variables
 * (names starting with `CODEX_`, `OPENAI_API_KEY`, `OPENAI_BASE_URL`, the proxy and CA variables)
 * and the names `env` lists (e.g. a gateway's key named by a custom provider's `env_key`).
 * Codex's own sandbox and approval policy, providers and other Codex configuration go in `args`
 * (e.g. `[--sandbox, workspace-write]`, `-c key=value`); `base_url` becomes a provider `agentv`
 * at that address (Responses API, key from `OPENAI_API_KEY`), selected before those arguments
 * (which may select another).
 *
 * agentv's sandbox (`sandbox_launch.ts`; `bubblewrap` by default): the model endpoints it may reach
 * are `base_url`, else every `base_url` of a `-c model_providers…` argument and an
 * `openai_base_url` argument, else `OPENAI_BASE_URL`, else `https://api.openai.com`; `CODEX_HOME`,
 * when set, is its writable state folder.
 *
 * A run that exits non-zero, reports an error (`turn.failed`, a final `error` event), produces no
 * final answer, or passes `timeout_seconds` (the whole process group is killed) is a case error
 * with the agent's own message; the trace so far is kept on the error row. Secrets (the target's,
 * and the values of secret-named variables passed through `env`) are redacted from the log, from
 * messages and, as for every agent target, from everything the run writes.
 *
 * @module
 */
import type { CodexSettings } from "../schema/targets.ts";
import {
  type AgentInvocation,
  agentLimits,
  agentSandbox,
  agentSecrets,
  invokeAgent,
} from "./agent_target.ts";
import { agentChildEnv } from "./child_env.ts";
import { createCodexStreamParser } from "./codex_stream.ts";
import { permitOf, type ProviderContext, type TargetCore } from "./provider_context.ts";

/** Variables of Codex itself, passed on when set (besides the names listed in `env`). */
const CODEX_VARIABLES =
  /^(CODEX_\w+|OPENAI_API_KEY|OPENAI_BASE_URL|HTTPS?_PROXY|NO_PROXY|SSL_CERT_FILE|NODE_EXTRA_CA_CERTS)$/i;

/** Where Codex sends its model calls when nothing else says. */
export const CODEX_DEFAULT_ENDPOINT = "https://api.openai.com/v1";

/**
 * The model endpoints Codex would use from the arguments and environment agentv gives it: the
 * `base_url` of each `-c model_providers…` argument and an `openai_base_url` argument, else
 * `OPENAI_BASE_URL`, else {@link CODEX_DEFAULT_ENDPOINT}.
 *
 * @example
 * ```ts
 * import { codexEndpoints } from "./codex.ts";
 * codexEndpoints(["-c", 'model_providers.m={name="m",base_url="http://127.0.0.1:9/v1"}'], {});
 * // ["http://127.0.0.1:9/v1"]
 * codexEndpoints([], { OPENAI_BASE_URL: "http://gw:8080/v1" }); // ["http://gw:8080/v1"]
 * ```
 */
export function codexEndpoints(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): string[] {
  const found: string[] = [];
  for (const written of args) {
    const arg = written.replace(/^(-c|--config)=?/, "");
    const provider = /^model_providers\b/.test(arg) ? /\bbase_url\s*=\s*"([^"]+)"/.exec(arg) : null;
    const openai = /^openai_base_url\s*=\s*"?([^"\s]+)"?$/.exec(arg);
    const url = provider?.[1] ?? openai?.[1];
    if (url !== undefined) found.push(url);
  }
  if (found.length > 0) return found;
  return [env.OPENAI_BASE_URL ?? CODEX_DEFAULT_ENDPOINT];
}

/**
 * The environment Codex runs with: the scrubbed base, Codex's own variables and the names
 * listed in `env`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { codexEnv } from "./codex.ts";
 * assert.deepEqual(
 *   codexEnv({ PATH: "/bin", OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "a", GW_KEY: "g" }, ["GW_KEY"]),
 *   { PATH: "/bin", OPENAI_API_KEY: "k", GW_KEY: "g" },
 * );
 * ```
 */
export function codexEnv(
  source: Readonly<Record<string, string>>,
  listed: readonly string[],
): Record<string, string> {
  return agentChildEnv(source, CODEX_VARIABLES, listed);
}

/**
 * The provider override `base_url` becomes: a provider `agentv` at that address (Responses API,
 * `Authorization: Bearer $OPENAI_API_KEY`), selected. (Codex's built-in provider at another
 * address, `openai_base_url`, sends no key from the environment.)
 *
 * @example
 * ```ts
 * import { baseUrlArgs } from "./codex.ts";
 * baseUrlArgs("http://127.0.0.1:8080/v1");
 * // ["-c", 'model_providers.agentv={name="agentv",base_url="http://127.0.0.1:8080/v1",
 * //   wire_api="responses",env_key="OPENAI_API_KEY"}', "-c", "model_provider=agentv"]
 * ```
 */
export function baseUrlArgs(baseUrl: string): string[] {
  const provider = `{name="agentv",base_url=${
    JSON.stringify(baseUrl)
  },wire_api="responses",env_key="OPENAI_API_KEY"}`;
  return ["-c", `model_providers.agentv=${provider}`, "-c", "model_provider=agentv"];
}

/**
 * The arguments of one `codex exec` run (ending with the `-` that makes Codex read stdin).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { codexArgs } from "./codex.ts";
 * assert.deepEqual(
 *   codexArgs({ name: "c", provider: "codex", model: "o4-mini", args: ["--sandbox", "workspace-write"] }),
 *   ["exec", "--json", "--skip-git-repo-check", "-m", "o4-mini", "--sandbox", "workspace-write", "-"],
 * );
 * ```
 */
export function codexArgs(settings: CodexSettings): string[] {
  return [
    "exec",
    "--json",
    "--skip-git-repo-check",
    ...(settings.model !== undefined && settings.model !== "" ? ["-m", settings.model] : []),
    ...(settings.base_url !== undefined ? baseUrlArgs(settings.base_url) : []),
    ...(settings.args ?? []),
    "-",
  ];
}

/**
 * The prompt Codex reads from stdin: `system_prompt` (when set) and a blank line, then the
 * rendered prompt.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { codexPrompt } from "./codex.ts";
 * assert.equal(
 *   codexPrompt({ name: "c", provider: "codex", system_prompt: "Be brief." }, "Fix the bug."),
 *   "Be brief.\n\nFix the bug.",
 * );
 * ```
 */
export function codexPrompt(settings: CodexSettings, prompt: string): string {
  return settings.system_prompt !== undefined && settings.system_prompt !== ""
    ? `${settings.system_prompt}\n\n${prompt}`
    : prompt;
}

/**
 * Creates the `codex` provider.
 *
 * @example
 * ```ts
 * import { createCodexTarget } from "./codex.ts";
 * const core = createCodexTarget({ name: "agent", provider: "codex", model: "o4-mini" }, {
 *   name: "agent",
 *   secrets: [],
 *   env: { PATH: "/usr/bin" },
 * });
 * ```
 */
export function createCodexTarget(settings: CodexSettings, context: ProviderContext): TargetCore {
  const env = codexEnv(context.env, settings.env ?? []);
  const label = `Codex target '${context.name}'`;
  const sandbox = agentSandbox(settings, context, {
    label,
    endpoints: codexEndpoints(settings.args ?? [], env),
    stateDirs: [env.CODEX_HOME],
  });
  const { secrets: ownSecrets, redact } = agentSecrets(env, context);
  const agent: AgentInvocation = {
    label,
    permit: () => permitOf(context, "agent_target"),
    env,
    redact,
    ...agentLimits(settings),
    install: "install Codex: npm install -g @openai/codex",
    missingAnswer: "no agent_message in its --json stream",
    retryTimeouts: false,
    prompt: (request) => codexPrompt(settings, request.prompt),
    parser: (cwd) => createCodexStreamParser({ cwd }),
    durationMs: (_trace, result) => result.durationMs,
    ...(sandbox !== undefined ? { sandbox } : {}),
  };
  return {
    secrets: ownSecrets,
    invoke: (request) => invokeAgent(agent, request),
    ...(sandbox !== undefined ? { sandbox: sandbox.policy } : {}),
  };
}
