/**
 * One invocation of an agent CLI target (`claude-code`, `codex`, `gemini-cli`, `qwen-code`,
 * `copilot-cli`, `opencode`): start the agent in the case's workspace with the prompt on stdin,
 * inside its sandbox when it has one (`sandbox_launch.ts`: the workspace and the CLI's own state
 * folders writable, the case's input files and the CLI's configuration readable, what the CLI
 * needs seeded into its private home, its model endpoint reachable), feed its stream to the
 * target's parser, and turn the trace and the process's end into a response, or a
 * {@link TargetError} carrying the trace so far.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { type AgentRunResult, runAgentCli } from "./agent_cli.ts";
import type { AgentStreamParser, AgentTrace } from "./agent_trace.ts";
import { tail } from "./shell.ts";
import { createRedactor, isSecretName } from "../text/redact.ts";
import { TargetError, type TargetRequest, type TargetResponse } from "./types.ts";
import type { CommandPermit } from "./consent.ts";
import { type OpenSandbox, openSandbox } from "./sandbox_launch.ts";
import {
  type Endpoint,
  endpointOfUrl,
  type SandboxPolicy,
  sandboxPolicy,
  SandboxUnavailableError,
} from "./sandbox_policy.ts";
import type { ProviderContext } from "./provider_context.ts";
import type { SandboxSettings } from "../schema/sandbox.ts";
import { TargetConfigError } from "../dataset/targets_errors.ts";

/** A file written into a sandbox's private home before the agent starts. */
export interface HomeFile {
  /** Its path inside the home (relative, without `..`). */
  path: string;
  /** Its text. */
  text: string;
}

/**
 * A folder a CLI unpacks itself into on its first run (Copilot CLI's package cache, ~235 MB):
 * bound read-only once it is unpacked, else writable (made first), so it is unpacked once, not in
 * every case's private home.
 */
export interface UnpackDir {
  /** The folder (absolute). */
  path: string;
  /** Whether the CLI has unpacked itself there (checked as each case starts). */
  unpacked(): boolean;
}

/** How an agent target is sandboxed. */
export interface AgentSandbox {
  /** The sandbox. */
  policy: SandboxPolicy;
  /** Its model endpoints (what `network: model-only` lets through, besides `allow_hosts`). */
  endpoints: Endpoint[];
  /** Folders the CLI keeps its own state in (e.g. `CODEX_HOME`): writable, made when missing. */
  stateDirs: string[];
  /** Files and folders of the CLI's own configuration it only reads (e.g. `OPENCODE_CONFIG`). */
  readOnly: string[];
  /** What the CLI needs in its (empty) private home to run headless (e.g. Gemini CLI's auth type). */
  homeFiles: HomeFile[];
  /** Folders the CLI unpacks itself into (see {@link UnpackDir}). */
  unpackDirs: UnpackDir[];
  /** Folder of the sandbox's private folder (default the OS temp folder). */
  tempDir?: string;
}

/** What an agent kind tells {@link agentSandbox} about its CLI. */
export interface AgentSandboxSpec {
  /** `Claude Code target 'x'`: starts warnings and errors. */
  label: string;
  /** The model endpoints the CLI would use (URLs), when `base_url` is not set. */
  endpoints: readonly (string | undefined)[];
  /** Folders of its own state, from its variables (unset ones are `undefined`). */
  stateDirs: readonly (string | undefined)[];
  /** Configuration it only reads, from its variables. */
  readOnly?: readonly (string | undefined)[];
  /** Files it needs in its private home. */
  homeFiles?: readonly HomeFile[];
  /** Folders it unpacks itself into. */
  unpackDirs?: readonly UnpackDir[];
}

const defined = (list: readonly (string | undefined)[] | undefined): string[] =>
  (list ?? []).filter((d): d is string => d !== undefined && d !== "").map((d) => resolve(d));

/**
 * The sandbox of an agent target from its settings: `undefined` when it runs without one. The
 * model endpoint is `base_url` when set, else `spec.endpoints` (what the CLI would use from the
 * environment or arguments agentv gives it, then the provider's public default). Throws a
 * `TargetConfigError` when a sandbox named explicitly cannot be given; warns when a
 * `model-only` sandbox would let nothing through (no endpoint known, no `allow_hosts`).
 */
export function agentSandbox(
  settings: SandboxSettings & { base_url?: string },
  context: ProviderContext,
  spec: AgentSandboxSpec,
): AgentSandbox | undefined {
  let policy: SandboxPolicy | undefined;
  try {
    policy = sandboxPolicy(settings, {
      label: spec.label,
      agent: true,
      ...(context.sandbox !== undefined ? { override: context.sandbox } : {}),
      baseDir: context.targetsFileDir ?? ".",
      ...(context.env.PATH !== undefined ? { path: context.env.PATH } : {}),
      ...(context.onWarning ? { onWarning: context.onWarning } : {}),
    });
  } catch (error) {
    if (!(error instanceof SandboxUnavailableError)) throw error;
    throw new TargetConfigError(error.message, { target: context.name });
  }
  if (policy === undefined) return undefined;
  const urls = settings.base_url !== undefined ? [settings.base_url] : spec.endpoints;
  const endpoints: Endpoint[] = [];
  for (const url of urls) {
    try {
      if (url !== undefined) endpoints.push(endpointOfUrl(url));
    } catch { /* not a URL: the CLI cannot use it either */ }
  }
  if (policy.network === "model-only" && endpoints.length + policy.allowHosts.length === 0) {
    context.onWarning?.(
      `${spec.label} runs in a sandbox with network: model-only, but agentv cannot tell its ` +
        "model endpoint (it comes from the CLI's own configuration): it can reach nothing; set " +
        "base_url, or name the endpoint in allow_hosts",
    );
  }
  return {
    policy,
    endpoints,
    stateDirs: defined(spec.stateDirs),
    readOnly: defined(spec.readOnly),
    homeFiles: [...(spec.homeFiles ?? [])],
    unpackDirs: [...(spec.unpackDirs ?? [])],
    ...(context.tempDir !== undefined ? { tempDir: context.tempDir } : {}),
  };
}

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
  /** Its sandbox (none when absent). */
  sandbox?: AgentSandbox;
  /**
   * A private folder per run, named to the agent by the variable `variable` (its configuration
   * folder when the agent writes there too): made in the agent's `TMPDIR` (its name starts with
   * `prefix`) with `files` in it, writable in the sandbox, removed after the run.
   */
  caseDir?: { variable: string; prefix: string; files: Record<string, string> };
}

/**
 * An agent target's own secrets (the values of the secret-named variables in the environment it
 * gives the agent: its API key among them) and a redactor of those and the run's secrets.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentSecrets } from "./agent_target.ts";
 * const { secrets, redact } = agentSecrets({ MY_API_KEY: "k-123456", PATH: "/bin" }, { secrets: [] });
 * assert.deepEqual(secrets, ["k-123456"]);
 * assert.equal(redact("key k-123456"), "key ***");
 * ```
 */
export function agentSecrets(
  env: Record<string, string>,
  context: { secrets: readonly string[] },
): { secrets: string[]; redact: (text: string) => string } {
  const secrets = Object.entries(env).filter(([name]) => isSecretName(name))
    .map(([, value]) => value).filter((v) => v.trim() !== "");
  return { secrets, redact: createRedactor([...context.secrets, ...secrets]).text };
}

/**
 * The limits of an agent's run from its target's settings (`timeout_seconds`,
 * `max_output_bytes`), as {@link AgentInvocation} takes them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentLimits } from "./agent_target.ts";
 * assert.deepEqual(agentLimits({ timeout_seconds: 30 }), { timeoutSeconds: 30 });
 * ```
 */
export function agentLimits(
  settings: { timeout_seconds?: number; max_output_bytes?: number },
): Pick<AgentInvocation, "timeoutSeconds" | "maxOutputBytes"> {
  return {
    ...(settings.timeout_seconds !== undefined ? { timeoutSeconds: settings.timeout_seconds } : {}),
    ...(settings.max_output_bytes !== undefined
      ? { maxOutputBytes: settings.max_output_bytes }
      : {}),
  };
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
  if (agent.caseDir === undefined) return await invokeOnce(agent, request);
  const { variable, prefix, files } = agent.caseDir;
  const dir = await Deno.makeTempDir({
    prefix,
    ...(agent.env.TMPDIR !== undefined ? { dir: agent.env.TMPDIR } : {}),
  });
  try {
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(join(dir, name), text);
    }
    const sandbox = agent.sandbox &&
      { ...agent.sandbox, stateDirs: [...agent.sandbox.stateDirs, dir] };
    return await invokeOnce({
      ...agent,
      env: { ...agent.env, [variable]: dir },
      ...(sandbox !== undefined ? { sandbox } : {}),
    }, request);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** {@link invokeAgent} once its private folder, if any, is made. */
async function invokeOnce(
  agent: AgentInvocation,
  request: TargetRequest,
): Promise<TargetResponse> {
  const cwd = request.cwd ?? request.evalDir;
  const [executable, ...args] = agent.permit().argv;
  const parser = agent.parser(cwd);
  let result: AgentRunResult;
  let box: OpenSandbox | undefined;
  let boxProblem: string | undefined;
  try {
    box = agent.sandbox !== undefined
      ? await openAgentSandbox(agent.sandbox, [executable, ...args], agent.env, cwd, request)
      : undefined;
    result = await runAgentCli({
      command: executable,
      args,
      cwd,
      env: agent.env,
      ...(box !== undefined ? { sandbox: box } : {}),
      stdin: agent.prompt(request),
      timeoutMs: agent.timeoutSeconds !== undefined
        ? Math.floor(agent.timeoutSeconds * 1000)
        : 2 ** 31 - 1,
      signal: request.signal,
      ...(request.logPath !== undefined ? { logPath: request.logPath } : {}),
      redact: agent.redact,
      ...(agent.maxOutputBytes !== undefined ? { maxOutputBytes: agent.maxOutputBytes } : {}),
    }, (line) => parser.push(line));
    boxProblem = box?.problem();
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? `'${executable}' was not found (set \`executable\` in the target, or ${agent.install}), or the workspace '${cwd}' does not exist`
      : error instanceof Error
      ? error.message
      : String(error);
    throw new TargetError(agent.redact(`${agent.label} could not start: ${reason}`));
  } finally {
    await box?.close();
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
    request: {
      command: executable,
      args,
      cwd,
      ...(agent.sandbox !== undefined ? { sandbox: agent.sandbox.policy.mode } : {}),
    },
  };
  const failure = failureOf(agent, trace, result);
  if (failure !== undefined) {
    const why = boxProblem !== undefined ? ` (its sandbox: ${boxProblem})` : "";
    throw new TargetError(agent.redact(`${agent.label} ${failure.message}${why}`), {
      retryable: failure.retryable,
      partial: response,
    });
  }
  return response;
}

/**
 * Opens the sandbox of one run: the workspace and state folders writable (made when missing),
 * the input files and the CLI's read-only configuration readable, each folder it unpacks itself
 * into read-only once unpacked (else writable), its home files seeded.
 */
async function openAgentSandbox(
  sandbox: AgentSandbox,
  argv: string[],
  env: Record<string, string>,
  cwd: string,
  request: TargetRequest,
): Promise<OpenSandbox> {
  const files = request.evalCase.file_paths.map((p) => resolve(request.evalDir, p));
  const unpacked = sandbox.unpackDirs.filter((d) => d.unpacked()).map((d) => d.path);
  const unpacking = sandbox.unpackDirs.filter((d) => !unpacked.includes(d.path)).map((d) => d.path);
  for (const dir of [...sandbox.stateDirs, ...unpacking]) {
    await Deno.mkdir(dir, { recursive: true });
  }
  return openSandbox(sandbox.policy, {
    argv,
    env,
    cwd,
    writable: [cwd, ...sandbox.stateDirs, ...unpacking],
    readOnly: [...files, ...sandbox.readOnly, ...unpacked, ...(request.borrowed ?? [])],
    homeFiles: sandbox.homeFiles,
    // The dataset root holds what the agent must not see (hidden checks, expected answers).
    ...(request.root !== undefined ? { hide: [request.root] } : {}),
    endpoints: sandbox.endpoints,
    ...(sandbox.tempDir !== undefined ? { tempDir: sandbox.tempDir } : {}),
  });
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
