/**
 * The `claude-code` provider: runs Claude Code headless in the case's workspace,
 * `claude -p --output-format stream-json --verbose [--model M] [--append-system-prompt S]
 * [--max-turns N] [--allowedTools T,…] [args…]`, with the rendered prompt (guidelines first, then
 * the case's input files listed as `[File: <absolute path>]` under `## Input Files`, as the
 * original tool does) written to stdin. The stream is parsed as it arrives
 * (`claude_stream.ts`) into the row's trace, token usage, `total_cost_usd`, turns and duration,
 * and kept, redacted, in the case's log.
 *
 * Environment: the scrubbed base (`PATH`, `HOME`, `LANG`, `TMPDIR`), Claude Code's own variables
 * (names starting with `ANTHROPIC_` or `CLAUDE_CODE_`, `CLAUDE_CONFIG_DIR`, `DISABLE_TELEMETRY`,
 * `DISABLE_ERROR_REPORTING`, `DISABLE_AUTOUPDATER`, `IS_SANDBOX`, the proxy variables), and the
 * names the target lists under `env`. The nested-session variables `CLAUDECODE` and
 * `CLAUDE_CODE_ENTRYPOINT` are removed, so agentv can itself run inside Claude Code. `base_url`
 * becomes `ANTHROPIC_BASE_URL`.
 *
 * Sandbox (`sandbox_launch.ts`; `bubblewrap` by default): the model endpoint it may reach is
 * `base_url`, else `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com`; `CLAUDE_CONFIG_DIR`,
 * when set, is its writable state folder.
 *
 * An agent that exits non-zero, reports an error (`is_error`), or ends without a final answer
 * fails the case with the agent's own message; the trace so far is kept on the error row. With
 * `timeout_seconds` the whole process group is killed when it passes.
 *
 * @module
 */
import { resolve } from "node:path";
import type { ClaudeCodeSettings } from "../schema/targets.ts";
import {
  type AgentInvocation,
  agentLimits,
  agentSandbox,
  agentSecrets,
  invokeAgent,
} from "./agent_target.ts";
import { agentChildEnv } from "./child_env.ts";
import { createClaudeStreamParser } from "./claude_stream.ts";
import { permitOf, type ProviderContext, type TargetCore } from "./provider_context.ts";
import type { TargetRequest } from "./types.ts";

/** Variables of Claude Code itself, passed on when set (besides the names listed in `env`). */
const CLAUDE_VARIABLES =
  /^(ANTHROPIC_\w+|CLAUDE_CODE_\w+|CLAUDE_CONFIG_DIR|DISABLE_TELEMETRY|DISABLE_ERROR_REPORTING|DISABLE_AUTOUPDATER|IS_SANDBOX|HTTPS?_PROXY|NO_PROXY|NODE_EXTRA_CA_CERTS)$/i;

/** Where Claude Code sends its model calls when nothing else says. */
export const CLAUDE_CODE_DEFAULT_ENDPOINT = "https://api.anthropic.com";

/** Variables that make Claude Code think it runs nested inside another session: removed. */
const NESTED_SESSION_VARIABLES = ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT"];

/**
 * The argument list for one run (the prompt goes to stdin).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claudeCodeArgs } from "./claude_code.ts";
 * assert.deepEqual(
 *   claudeCodeArgs({ name: "a", provider: "claude-code", model: "sonnet", allowed_tools: ["Bash", "Edit"] }),
 *   ["-p", "--output-format", "stream-json", "--verbose", "--model", "sonnet", "--allowedTools", "Bash,Edit"],
 * );
 * ```
 */
export function claudeCodeArgs(settings: ClaudeCodeSettings): string[] {
  const args = ["-p", "--output-format", "stream-json", "--verbose"];
  if (settings.model) args.push("--model", settings.model);
  if (settings.system_prompt) args.push("--append-system-prompt", settings.system_prompt);
  if (settings.max_turns !== undefined) args.push("--max-turns", String(settings.max_turns));
  if (settings.allowed_tools && settings.allowed_tools.length > 0) {
    args.push("--allowedTools", settings.allowed_tools.join(","));
  }
  args.push(...(settings.args ?? []));
  return args;
}

/**
 * The environment Claude Code runs with: the scrubbed base, Claude Code's own variables, the
 * names listed in `env`, minus the nested-session variables; `baseUrl` (the target's `base_url`)
 * as `ANTHROPIC_BASE_URL`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claudeCodeEnv } from "./claude_code.ts";
 * assert.deepEqual(
 *   claudeCodeEnv({ PATH: "/bin", ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "o", CLAUDECODE: "1" }, []),
 *   { PATH: "/bin", ANTHROPIC_API_KEY: "k" },
 * );
 * ```
 */
export function claudeCodeEnv(
  source: Readonly<Record<string, string>>,
  listed: readonly string[],
  baseUrl?: string,
): Record<string, string> {
  const env = agentChildEnv(source, CLAUDE_VARIABLES, listed);
  for (const name of NESTED_SESSION_VARIABLES) delete env[name];
  if (baseUrl !== undefined) env.ANTHROPIC_BASE_URL = baseUrl;
  return env;
}

/** The prompt Claude Code gets: the rendered prompt, then the input files by absolute path. */
export function claudeCodePrompt(request: TargetRequest): string {
  const files = [...new Set(request.evalCase.file_paths.map((p) => resolve(request.evalDir, p)))];
  if (files.length === 0) return request.prompt;
  return `${request.prompt}\n\n## Input Files\n${files.map((f) => `[File: ${f}]`).join("\n")}\n`;
}

/** Creates the `claude-code` provider. */
export function createClaudeCodeTarget(
  settings: ClaudeCodeSettings,
  context: ProviderContext,
): TargetCore {
  const env = claudeCodeEnv(context.env, settings.env ?? [], settings.base_url);
  const label = `Claude Code target '${context.name}'`;
  const sandbox = agentSandbox(settings, context, {
    label,
    endpoints: [env.ANTHROPIC_BASE_URL ?? CLAUDE_CODE_DEFAULT_ENDPOINT],
    stateDirs: [env.CLAUDE_CONFIG_DIR],
  });
  const { secrets: ownSecrets, redact } = agentSecrets(env, context);
  const agent: AgentInvocation = {
    label,
    permit: () => permitOf(context, "agent_target"),
    env,
    redact,
    ...agentLimits(settings),
    install: "install Claude Code: npm install -g @anthropic-ai/claude-code",
    missingAnswer: "no result event",
    retryTimeouts: true,
    prompt: claudeCodePrompt,
    parser: () => createClaudeStreamParser(),
    durationMs: (trace) => trace.duration_ms,
    ...(sandbox !== undefined ? { sandbox } : {}),
  };
  return {
    secrets: ownSecrets,
    invoke: (request) => invokeAgent(agent, request),
    ...(sandbox !== undefined ? { sandbox: sandbox.policy } : {}),
  };
}
