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
 * `CLAUDE_CODE_ENTRYPOINT` are removed, so agentv can itself run inside Claude Code.
 *
 * An agent that exits non-zero, reports an error (`is_error`), or ends without a final answer
 * fails the case with the agent's own message; the trace so far is kept on the error row. With
 * `timeout_seconds` the whole process group is killed when it passes.
 *
 * @module
 */
import { resolve } from "node:path";
import type { ClaudeCodeSettings } from "../schema/targets.ts";
import { runAgentCli } from "./agent_cli.ts";
import type { AgentRunResult } from "./agent_cli.ts";
import type { AgentTrace } from "./agent_trace.ts";
import { childEnv } from "./child_env.ts";
import { createClaudeStreamParser } from "./claude_stream.ts";
import type { ProviderContext, TargetCore } from "./provider_context.ts";
import { createRedactor, isSecretName } from "./redact.ts";
import { tail } from "./shell.ts";
import { TargetError, type TargetRequest, type TargetResponse } from "./types.ts";

/** Variables of Claude Code itself, passed on when set (besides the names listed in `env`). */
const CLAUDE_VARIABLES =
  /^(ANTHROPIC_\w+|CLAUDE_CODE_\w+|CLAUDE_CONFIG_DIR|DISABLE_TELEMETRY|DISABLE_ERROR_REPORTING|DISABLE_AUTOUPDATER|IS_SANDBOX|HTTPS?_PROXY|NO_PROXY|NODE_EXTRA_CA_CERTS)$/i;

/** Variables that make Claude Code think it runs nested inside another session: removed. */
const NESTED_SESSION_VARIABLES = ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT"];

/**
 * The argument list for one run (the prompt goes to stdin).
 *
 * @example
 * ```ts
 * import { claudeCodeArgs } from "./claude_code.ts";
 * claudeCodeArgs({ name: "a", provider: "claude-code", model: "sonnet", allowed_tools: ["Bash", "Edit"] });
 * // ["-p", "--output-format", "stream-json", "--verbose", "--model", "sonnet",
 * //  "--allowedTools", "Bash,Edit"]
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
 * names listed in `env`, minus the nested-session variables.
 *
 * @example
 * ```ts
 * import { claudeCodeEnv } from "./claude_code.ts";
 * claudeCodeEnv({ PATH: "/bin", ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "o", CLAUDECODE: "1" }, []);
 * // { PATH: "/bin", ANTHROPIC_API_KEY: "k" }
 * ```
 */
export function claudeCodeEnv(
  source: Readonly<Record<string, string>>,
  listed: readonly string[],
): Record<string, string> {
  const own = Object.keys(source).filter((name) => CLAUDE_VARIABLES.test(name));
  const env = childEnv(source, [...own, ...listed]);
  for (const name of NESTED_SESSION_VARIABLES) delete env[name];
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
  const label = `Claude Code target '${context.name}'`;
  const executable = settings.executable ?? "claude";
  const env = claudeCodeEnv(context.env, settings.env ?? []);
  // The API key (and any other secret-named variable) Claude Code gets is a secret of the target.
  const ownSecrets = Object.entries(env).filter(([name]) => isSecretName(name))
    .map(([, value]) => value).filter((v) => v.trim() !== "");
  const redactor = createRedactor([...context.secrets, ...ownSecrets]);
  const timeoutMs = settings.timeout_seconds !== undefined
    ? Math.floor(settings.timeout_seconds * 1000)
    : 2 ** 31 - 1;
  const args = claudeCodeArgs(settings);

  return {
    secrets: ownSecrets,
    async invoke(request: TargetRequest): Promise<TargetResponse> {
      const cwd = request.cwd ?? request.evalDir;
      const parser = createClaudeStreamParser();
      let result: AgentRunResult;
      try {
        result = await runAgentCli({
          command: executable,
          args,
          cwd,
          env,
          stdin: claudeCodePrompt(request),
          timeoutMs,
          signal: request.signal,
          ...(request.logPath !== undefined ? { logPath: request.logPath } : {}),
          redact: redactor.text,
          ...(settings.max_output_bytes !== undefined
            ? { maxOutputBytes: settings.max_output_bytes }
            : {}),
        }, (line) => parser.push(line));
      } catch (error) {
        const reason = error instanceof Deno.errors.NotFound
          ? `'${executable}' was not found (set \`executable\` in the target, or install Claude Code: npm install -g @anthropic-ai/claude-code), or the workspace '${cwd}' does not exist`
          : error instanceof Error
          ? error.message
          : String(error);
        throw new TargetError(redactor.text(`${label} could not start: ${reason}`));
      }
      const trace = parser.finish();
      const response = toResponse(trace, request, { executable, args, cwd });
      const failure = failureOf(trace, result, settings.timeout_seconds);
      if (failure !== undefined) {
        throw new TargetError(redactor.text(`${label} ${failure.message}`), {
          retryable: failure.retryable,
          partial: response,
        });
      }
      return response;
    },
  };
}

function toResponse(
  trace: AgentTrace,
  request: TargetRequest,
  recorded: { executable: string; args: string[]; cwd: string },
): TargetResponse {
  return {
    output_messages: trace.output_messages,
    ...(trace.usage !== undefined ? { token_usage: trace.usage } : {}),
    ...(trace.cost_usd !== undefined ? { cost_usd: trace.cost_usd } : {}),
    ...(trace.duration_ms !== undefined ? { duration_ms: trace.duration_ms } : {}),
    ...(trace.turns !== undefined ? { turns: trace.turns } : {}),
    ...(request.logPath !== undefined ? { log_path: request.logPath } : {}),
    request: { command: recorded.executable, args: recorded.args, cwd: recorded.cwd },
  };
}

/** Why a finished run is a failure, or undefined when it produced an answer. */
function failureOf(
  trace: AgentTrace,
  result: AgentRunResult,
  timeoutSeconds: number | undefined,
): { message: string; retryable: boolean } | undefined {
  const stderr = tail(result.stderr);
  if (result.aborted) return { message: "was aborted", retryable: false };
  if (result.timedOut) {
    return {
      message: `timed out after ${timeoutSeconds}s (timeout_seconds); its process group was killed`,
      retryable: true,
    };
  }
  if (result.outputOverflow) {
    return {
      message:
        "wrote more than max_output_bytes to stdout and was stopped; raise max_output_bytes in the target",
      retryable: false,
    };
  }
  if (trace.error !== undefined) {
    return { message: `reported an error: ${trace.error}`, retryable: false };
  }
  if (result.exitCode !== 0) {
    const how = result.exitCode === null
      ? "was killed by a signal"
      : `exited with code ${result.exitCode}`;
    return { message: `${how}${stderr ? `: ${stderr}` : ""}`, retryable: false };
  }
  if (trace.final_text === undefined) {
    return {
      message: `ended without a final answer (no result event)${stderr ? `: ${stderr}` : ""}`,
      retryable: false,
    };
  }
  return undefined;
}
