/**
 * The `copilot-cli` provider: runs GitHub Copilot CLI headless in the case's workspace,
 * `copilot --output-format json [--model MODEL] [args…]`, with the prompt on stdin
 * (`system_prompt`, when set, goes first, then a blank line). Copilot CLI runs tools headless only
 * when told to: that is the target's choice, in `args` (e.g. `[--allow-all-tools]`) or its own
 * variables (`COPILOT_ALLOW_ALL`). The stream is parsed as it arrives (`copilot_stream.ts`) into
 * the row's trace, turns and duration (Copilot CLI reports no token counts), and kept, redacted,
 * in the case's log.
 *
 * Environment: the scrubbed base (`PATH`, `HOME`, `LANG`, `TMPDIR`), Copilot CLI's own variables
 * (names starting with `COPILOT_`, among them `COPILOT_GITHUB_TOKEN` and the `COPILOT_PROVIDER_*`
 * of a custom model provider; `GH_HOST`, the proxy and CA variables) and the names the target
 * lists under `env` (`GH_TOKEN` or `GITHUB_TOKEN` only when listed). `base_url` is handed to the
 * CLI as `COPILOT_PROVIDER_BASE_URL`, the endpoint of a custom (BYOK) provider (see
 * {@link copilotCliModelEndpoint}).
 *
 * Sandbox (`sandbox_launch.ts`; `bubblewrap` by default): the model endpoint it may reach is
 * {@link copilotCliModelEndpoint}'s (a GitHub sign-in needs GitHub's hosts in `allow_hosts`);
 * `COPILOT_HOME`, when set, is its writable state folder (else `~/.copilot` in the sandbox's
 * empty home). Copilot CLI unpacks itself (~235 MB) into its package cache on its first run
 * ({@link copilotPackageCache}): that folder is bound read-only once it holds this version, else
 * writable, so it is unpacked once and not in every case's private home.
 *
 * An agent that exits non-zero, reports an error (`session.error`), or ends without a final
 * answer fails the case with the agent's own message; the trace so far is kept on the error row.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { CopilotCliSettings } from "../schema/targets.ts";
import {
  type AgentInvocation,
  agentLimits,
  agentSandbox,
  agentSecrets,
  invokeAgent,
  type UnpackDir,
} from "./agent_target.ts";
import { locateProgram, realPath } from "./sandbox_paths.ts";
import { agentChildEnv } from "./child_env.ts";
import { createCopilotStreamParser } from "./copilot_stream.ts";
import { permitOf, type ProviderContext, type TargetCore } from "./provider_context.ts";

/** Variables of Copilot CLI itself, passed on when set (besides the names listed in `env`). */
const COPILOT_CLI_VARIABLES = /^(COPILOT_\w+|GH_HOST|HTTPS?_PROXY|NO_PROXY|NODE_EXTRA_CA_CERTS)$/i;

/** The variable Copilot CLI reads a custom model provider's endpoint from. */
export const COPILOT_CLI_BASE_URL_VARIABLE = "COPILOT_PROVIDER_BASE_URL";

/** The endpoint Copilot CLI calls without a custom provider: GitHub Copilot's own API. */
export const COPILOT_API_URL = "https://api.githubcopilot.com";

/**
 * The arguments of one run (the prompt goes to stdin).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { copilotCliArgs } from "./copilot_cli.ts";
 * assert.deepEqual(
 *   copilotCliArgs({ name: "c", provider: "copilot-cli", model: "gpt-5", args: ["--allow-all-tools"] }),
 *   ["--output-format", "json", "--model", "gpt-5", "--allow-all-tools"],
 * );
 * ```
 */
export function copilotCliArgs(settings: CopilotCliSettings): string[] {
  return [
    "--output-format",
    "json",
    ...(settings.model !== undefined && settings.model !== "" ? ["--model", settings.model] : []),
    ...(settings.args ?? []),
  ];
}

/**
 * The environment Copilot CLI runs with: the scrubbed base, Copilot CLI's own variables, the
 * names listed in `env`, and `base_url` as `COPILOT_PROVIDER_BASE_URL`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { copilotCliEnv } from "./copilot_cli.ts";
 * const env = copilotCliEnv({ PATH: "/bin", COPILOT_PROVIDER_API_KEY: "k", GITHUB_TOKEN: "t" }, {
 *   name: "c",
 *   provider: "copilot-cli",
 *   base_url: "http://127.0.0.1:8080/v1",
 * });
 * assert.deepEqual(env, {
 *   PATH: "/bin",
 *   COPILOT_PROVIDER_API_KEY: "k",
 *   COPILOT_PROVIDER_BASE_URL: "http://127.0.0.1:8080/v1",
 * });
 * ```
 */
export function copilotCliEnv(
  source: Readonly<Record<string, string>>,
  settings: CopilotCliSettings,
): Record<string, string> {
  const env = agentChildEnv(source, COPILOT_CLI_VARIABLES, settings.env);
  if (settings.base_url !== undefined) env[COPILOT_CLI_BASE_URL_VARIABLE] = settings.base_url;
  return env;
}

/**
 * The model endpoint Copilot CLI calls: `base_url`, else `COPILOT_PROVIDER_BASE_URL` from the
 * environment agentv gives it, else GitHub Copilot's API.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { copilotCliModelEndpoint } from "./copilot_cli.ts";
 * assert.equal(
 *   copilotCliModelEndpoint({ name: "c", provider: "copilot-cli" }, {}),
 *   "https://api.githubcopilot.com",
 * );
 * ```
 */
export function copilotCliModelEndpoint(
  settings: CopilotCliSettings,
  source: Readonly<Record<string, string>>,
): string {
  return copilotCliEnv(source, settings)[COPILOT_CLI_BASE_URL_VARIABLE] ?? COPILOT_API_URL;
}

/**
 * The folder Copilot CLI unpacks itself into (its `pkg` folder, one subfolder per platform and
 * version): under `COPILOT_PKG_CACHE_HOME`, else `COPILOT_CACHE_HOME`, else `copilot` in
 * `XDG_CACHE_HOME` or `~/.cache` (Linux); `undefined` without a home to put it in.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { copilotPackageCache } from "./copilot_cli.ts";
 * assert.equal(copilotPackageCache({ HOME: "/home/u" }), "/home/u/.cache/copilot/pkg");
 * assert.equal(copilotPackageCache({ HOME: "/home/u", XDG_CACHE_HOME: "/c" }), "/c/copilot/pkg");
 * ```
 */
export function copilotPackageCache(env: Readonly<Record<string, string>>): string | undefined {
  const own = env.COPILOT_PKG_CACHE_HOME || env.COPILOT_CACHE_HOME;
  if (own) return join(own, "pkg");
  const cache = env.XDG_CACHE_HOME || (env.HOME ? join(env.HOME, ".cache") : undefined);
  return cache === undefined ? undefined : join(cache, "copilot", "pkg");
}

/** The version of the Copilot CLI package `executable` belongs to (its `package.json`), if any. */
function copilotVersion(executable: string | undefined): string | undefined {
  let dir = executable === undefined ? undefined : dirname(realPath(executable));
  for (let up = 0; dir !== undefined && up < 3; up++, dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(Deno.readTextFileSync(join(dir, "package.json")));
      if (/^@github\/copilot(-|$)/.test(String(manifest?.name))) return String(manifest.version);
    } catch { /* no manifest here */ }
  }
  return undefined;
}

/**
 * The package cache as a folder the CLI unpacks itself into: unpacked when a platform folder of
 * it holds the executable's version (an executable of unknown version: never, so it may unpack).
 */
function copilotUnpackDir(
  env: Readonly<Record<string, string>>,
  executable: string,
): UnpackDir[] {
  const path = copilotPackageCache(env);
  if (path === undefined) return [];
  let version: string | undefined | null = null;
  const unpacked = () => {
    if (version === null) version = copilotVersion(locateProgram(executable, env, "/"));
    if (version === undefined) return false;
    try {
      for (const platform of Deno.readDirSync(path)) {
        if (Deno.statSync(join(path, platform.name, version, "index.js")).isFile) return true;
      }
    } catch { /* not unpacked */ }
    return false;
  };
  return [{ path, unpacked }];
}

/** Creates the `copilot-cli` provider. */
export function createCopilotCliTarget(
  settings: CopilotCliSettings,
  context: ProviderContext,
): TargetCore {
  const env = copilotCliEnv(context.env, settings);
  const label = `Copilot CLI target '${context.name}'`;
  const sandbox = agentSandbox(settings, context, {
    label,
    endpoints: [copilotCliModelEndpoint(settings, context.env)],
    stateDirs: [env.COPILOT_HOME],
    unpackDirs: copilotUnpackDir(env, settings.executable ?? "copilot"),
  });
  const { secrets: ownSecrets, redact } = agentSecrets(env, context);
  const agent: AgentInvocation = {
    label,
    permit: () => permitOf(context, "agent_target"),
    env,
    redact,
    ...agentLimits(settings),
    install: "install Copilot CLI: npm install -g @github/copilot",
    missingAnswer: "no assistant message after its last tool call",
    retryTimeouts: false,
    prompt: (request) =>
      settings.system_prompt !== undefined && settings.system_prompt !== ""
        ? `${settings.system_prompt}\n\n${request.prompt}`
        : request.prompt,
    parser: () => createCopilotStreamParser(),
    durationMs: (trace, result) => trace.duration_ms ?? result.durationMs,
    ...(sandbox !== undefined ? { sandbox } : {}),
  };
  return {
    secrets: ownSecrets,
    invoke: (request) => invokeAgent(agent, request),
    ...(sandbox !== undefined ? { sandbox: sandbox.policy } : {}),
  };
}
