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
import { type AgentRunResult, runAgentCli } from "./agent_cli.ts";
import type { AgentTrace } from "./agent_trace.ts";
import { childEnv } from "./child_env.ts";
import { createCodexStreamParser } from "./codex_stream.ts";
import type { ProviderContext, TargetCore } from "./provider_context.ts";
import { createRedactor, isSecretName } from "./redact.ts";
import { tail } from "./shell.ts";
import { TargetError, type TargetRequest, type TargetResponse } from "./types.ts";

/** Variables of Codex itself, passed on when set (besides the names listed in `env`). */
const CODEX_VARIABLES =
  /^(CODEX_\w+|OPENAI_API_KEY|OPENAI_BASE_URL|HTTPS?_PROXY|NO_PROXY|SSL_CERT_FILE|NODE_EXTRA_CA_CERTS)$/i;

/**
 * The environment Codex runs with: the scrubbed base, Codex's own variables and the names
 * listed in `env`.
 *
 * @example
 * ```ts
 * import { codexEnv } from "./codex.ts";
 * codexEnv({ PATH: "/bin", OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "a", GW_KEY: "g" }, ["GW_KEY"]);
 * // { PATH: "/bin", OPENAI_API_KEY: "k", GW_KEY: "g" }
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
 * import { codexPrompt } from "./codex.ts";
 * codexPrompt({ name: "c", provider: "codex", system_prompt: "Be brief." }, "Fix the bug.");
 * // "Be brief.\n\nFix the bug."
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
  const label = `Codex target '${context.name}'`;
  const executable = settings.executable ?? "codex";
  const env = codexEnv(context.env, settings.env ?? []);
  const redactor = createRedactor([
    ...context.secrets,
    ...Object.entries(env).filter(([name]) => isSecretName(name)).map(([, value]) => value),
  ]);
  const timeoutMs = settings.timeout_seconds !== undefined
    ? Math.floor(settings.timeout_seconds * 1000)
    : 2 ** 31 - 1;
  const args = codexArgs(settings);

  return {
    async invoke(request: TargetRequest): Promise<TargetResponse> {
      const cwd = request.cwd ?? request.evalDir;
      const parser = createCodexStreamParser({ cwd });
      let result: AgentRunResult;
      try {
        result = await runAgentCli({
          command: executable,
          args,
          cwd,
          env,
          stdin: codexPrompt(settings, request.prompt),
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
          ? `'${executable}' was not found (set \`executable\` in the target, or install Codex: npm install -g @openai/codex), or the workspace '${cwd}' does not exist`
          : error instanceof Error
          ? error.message
          : String(error);
        throw new TargetError(redactor.text(`${label} could not start: ${reason}`));
      }
      const trace = parser.finish();
      const response: TargetResponse = {
        output_messages: trace.output_messages,
        ...(trace.usage !== undefined ? { token_usage: trace.usage } : {}),
        ...(result.durationMs !== undefined ? { duration_ms: result.durationMs } : {}),
        ...(trace.turns !== undefined ? { turns: trace.turns } : {}),
        ...(request.logPath !== undefined ? { log_path: request.logPath } : {}),
        request: { command: executable, args, cwd },
      };
      const failure = failureOf(trace, result, settings.timeout_seconds);
      if (failure !== undefined) {
        throw new TargetError(redactor.text(`${label} ${failure}`), { partial: response });
      }
      return response;
    },
  };
}

/** Why a finished run is a case error (the agent's own words when it gave some), if it is. */
function failureOf(
  trace: AgentTrace,
  result: AgentRunResult,
  timeoutSeconds: number | undefined,
): string | undefined {
  const stderr = tail(result.stderr);
  if (result.aborted) return "was aborted";
  if (result.timedOut) {
    return `timed out after ${timeoutSeconds}s (timeout_seconds); its process group was killed`;
  }
  if (result.outputOverflow) {
    return "wrote more than max_output_bytes to stdout and was stopped; raise max_output_bytes in the target";
  }
  if (trace.error !== undefined) return `reported an error: ${trace.error}`;
  if (result.exitCode !== 0) {
    const how = result.exitCode === null
      ? "was killed by a signal"
      : `exited with code ${result.exitCode}`;
    return `${how}${stderr ? `: ${stderr}` : ""}`;
  }
  if (trace.final_text === undefined) {
    return `ended without a final answer (no agent_message in its --json stream)${
      stderr ? `: ${stderr}` : ""
    }`;
  }
  return undefined;
}
