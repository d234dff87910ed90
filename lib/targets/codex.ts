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
 * Sandbox and approval policy, providers and other Codex configuration go in `args` (e.g.
 * `[--sandbox, workspace-write]`, `-c key=value`).
 *
 * A run that exits non-zero, reports an error (`turn.failed`, a final `error` event), produces no
 * final answer, or passes `timeout_seconds` (the whole process group is killed) is a case error
 * with the agent's own message; the trace so far is kept on the error row. Secrets (the target's,
 * and the values of secret-named variables passed through `env`) are redacted from the log and
 * from messages.
 *
 * @module
 */
import type { CodexSettings } from "../schema/targets.ts";
import { type AgentInvocation, invokeAgent } from "./agent_target.ts";
import { childEnv } from "./child_env.ts";
import { createCodexStreamParser } from "./codex_stream.ts";
import { permitOf, type ProviderContext, type TargetCore } from "./provider_context.ts";
import { createRedactor, isSecretName } from "../text/redact.ts";

/** Variables of Codex itself, passed on when set (besides the names listed in `env`). */
const CODEX_VARIABLES =
  /^(CODEX_\w+|OPENAI_API_KEY|OPENAI_BASE_URL|HTTPS?_PROXY|NO_PROXY|SSL_CERT_FILE|NODE_EXTRA_CA_CERTS)$/i;

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
  const own = Object.keys(source).filter((name) => CODEX_VARIABLES.test(name));
  return childEnv(source, [...own, ...listed]);
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
  const redactor = createRedactor([
    ...context.secrets,
    ...Object.entries(env).filter(([name]) => isSecretName(name)).map(([, value]) => value),
  ]);
  const agent: AgentInvocation = {
    label: `Codex target '${context.name}'`,
    permit: () => permitOf(context, "agent_target"),
    env,
    redact: redactor.text,
    ...(settings.timeout_seconds !== undefined ? { timeoutSeconds: settings.timeout_seconds } : {}),
    ...(settings.max_output_bytes !== undefined
      ? { maxOutputBytes: settings.max_output_bytes }
      : {}),
    install: "install Codex: npm install -g @openai/codex",
    missingAnswer: "no agent_message in its --json stream",
    retryTimeouts: false,
    prompt: (request) => codexPrompt(settings, request.prompt),
    parser: (cwd) => createCodexStreamParser({ cwd }),
    durationMs: (_trace, result) => result.durationMs,
  };
  return { invoke: (request) => invokeAgent(agent, request) };
}
