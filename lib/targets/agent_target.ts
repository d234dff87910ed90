/**
 * One invocation of an agent CLI target (`claude-code`, `codex`): start the agent in the case's
 * workspace with the prompt on stdin, feed its stream to the target's parser, and turn the trace
 * and the process's end into a response, or a {@link TargetError} carrying the trace so far.
 *
 * @module
 */
import { type AgentRunResult, runAgentCli } from "./agent_cli.ts";
import type { AgentStreamParser, AgentTrace } from "./agent_trace.ts";
import { tail } from "./shell.ts";
import { TargetError, type TargetRequest, type TargetResponse } from "./types.ts";
import type { CommandPermit } from "./consent.ts";

/** What differs between agent targets. */
export interface AgentInvocation {
  /** `Claude Code target 'name'`: starts every message. */
  label: string;
  /**
   * The permit to start the agent (its argv: the executable, then its arguments), asked for at
   * each run: nothing else is started.
   */
  permit(): CommandPermit;
  /** Its (scrubbed) environment. */
  env: Record<string, string>;
  /** Masks the target's secrets in messages and the log. */
  redact(text: string): string;
  /** `timeout_seconds` of the target (no limit when absent). */
  timeoutSeconds?: number;
  /** `max_output_bytes` of the target. */
  maxOutputBytes?: number;
  /** How to install the CLI, for a "not found" message (e.g. `npm install -g @openai/codex`). */
  install: string;
  /** What the stream lacked when there is no final answer (e.g. `no result event`). */
  missingAnswer: string;
  /** Whether a timed-out run may be retried. */
  retryTimeouts: boolean;
  /** The text written to the agent's stdin. */
  prompt(request: TargetRequest): string;
  /** A fresh parser of the agent's stream for a run in `cwd`. */
  parser(cwd: string): AgentStreamParser;
  /** The run's duration: the agent's own figure or the process's. */
  durationMs(trace: AgentTrace, result: AgentRunResult): number | undefined;
}

/**
 * Runs the agent once for `request` (in `request.cwd`, else the eval file's folder).
 *
 * @example
 * ```ts ignore
 * const response = await invokeAgent({ label, permit: () => context.permit("agent_target"), env, ... }, request);
 * ```
 */
export async function invokeAgent(
  agent: AgentInvocation,
  request: TargetRequest,
): Promise<TargetResponse> {
  const cwd = request.cwd ?? request.evalDir;
  const [executable, ...args] = agent.permit().argv;
  const parser = agent.parser(cwd);
  let result: AgentRunResult;
  try {
    result = await runAgentCli({
      command: executable,
      args,
      cwd,
      env: agent.env,
      stdin: agent.prompt(request),
      timeoutMs: agent.timeoutSeconds !== undefined
        ? Math.floor(agent.timeoutSeconds * 1000)
        : 2 ** 31 - 1,
      signal: request.signal,
      ...(request.logPath !== undefined ? { logPath: request.logPath } : {}),
      redact: agent.redact,
      ...(agent.maxOutputBytes !== undefined ? { maxOutputBytes: agent.maxOutputBytes } : {}),
    }, (line) => parser.push(line));
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? `'${executable}' was not found (set \`executable\` in the target, or ${agent.install}), or the workspace '${cwd}' does not exist`
      : error instanceof Error
      ? error.message
      : String(error);
    throw new TargetError(agent.redact(`${agent.label} could not start: ${reason}`));
  }
  const trace = parser.finish();
  const duration = agent.durationMs(trace, result);
  const response: TargetResponse = {
    output_messages: trace.output_messages,
    ...(trace.usage !== undefined ? { token_usage: trace.usage } : {}),
    ...(trace.cost_usd !== undefined ? { cost_usd: trace.cost_usd } : {}),
    ...(duration !== undefined ? { duration_ms: duration } : {}),
    ...(trace.turns !== undefined ? { turns: trace.turns } : {}),
    ...(request.logPath !== undefined ? { log_path: request.logPath } : {}),
    request: { command: executable, args, cwd },
  };
  const failure = failureOf(agent, trace, result);
  if (failure !== undefined) {
    throw new TargetError(agent.redact(`${agent.label} ${failure.message}`), {
      retryable: failure.retryable,
      partial: response,
    });
  }
  return response;
}

/** Why a finished run is a case error (the agent's own words when it gave some), if it is. */
function failureOf(
  agent: AgentInvocation,
  trace: AgentTrace,
  result: AgentRunResult,
): { message: string; retryable: boolean } | undefined {
  const stderr = tail(result.stderr);
  const fail = (message: string, retryable = false) => ({ message, retryable });
  if (result.aborted) return fail("was aborted");
  if (result.timedOut) {
    return fail(
      `timed out after ${agent.timeoutSeconds}s (timeout_seconds); its process group was killed`,
      agent.retryTimeouts,
    );
  }
  if (result.outputOverflow) {
    return fail(
      "wrote more than max_output_bytes to stdout and was stopped; raise max_output_bytes in the target",
    );
  }
  if (trace.error !== undefined) return fail(`reported an error: ${trace.error}`);
  if (result.exitCode !== 0) {
    const how = result.exitCode === null
      ? "was killed by a signal"
      : `exited with code ${result.exitCode}`;
    return fail(`${how}${stderr ? `: ${stderr}` : ""}`);
  }
  if (trace.final_text === undefined) {
    return fail(
      `ended without a final answer (${agent.missingAnswer})${stderr ? `: ${stderr}` : ""}`,
    );
  }
  return undefined;
}
