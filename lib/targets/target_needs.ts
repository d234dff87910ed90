/**
 * The one definition of what a target needs consent for (see `dataset/dataset_commands.ts`):
 *
 * - `cli`: its `command_template` (`cli_target`), a command healthcheck (`healthcheck`), and an
 *   HTTP healthcheck whose URL carries `${{ VAR }}` values (`env_host`);
 * - agent CLIs (`claude-code`, `codex`, `gemini-cli`, `qwen-code`, `copilot-cli`, `opencode`):
 *   the agent's executable with its arguments (`agent_target`);
 * - `openai`, `azure`, `anthropic`, `gemini`: any `${{ VAR }}` value in a setting that is sent
 *   (`api_key`, `headers`, `model`, the URL itself, ...) when the endpoint is not the provider's
 *   documented default ({@link isDefaultEndpoint}): `env_host`, naming the origin and the
 *   variables. Loopback hosts are no exception.
 *
 * Each need says which variables it reads: `${{ VAR }}` references and the names listed under
 * `env:`. The registry computes the needs when it creates a target; the providers start only the
 * argv or template of their need, through a permit (`consent.ts`), and the target's `fetch`
 * sends nothing elsewhere than the need's host.
 *
 * @module
 */
import { resolve } from "node:path";
import { type DatasetCommand, type NeedIdentity, needKey } from "../dataset/dataset_commands.ts";
import type { AgentProvider, RunnableProvider } from "../schema/targets.ts";
import { type CommandPermit, type ConsentGrant, ConsentNotGivenError } from "./consent.ts";
import { TargetError } from "./types.ts";
import type { PathKey } from "../dataset/yaml_source.ts";
import { ANTHROPIC_BASE_URL } from "./anthropic.ts";
import { azureChatUrl } from "./azure.ts";
import { claudeCodeArgs } from "./claude_code.ts";
import { codexArgs } from "./codex.ts";
import { copilotCliArgs } from "./copilot_cli.ts";
import type { UsedEnvRef } from "../dataset/env.ts";
import { GEMINI_BASE_URL } from "./gemini.ts";
import { geminiCliArgs } from "./gemini_cli.ts";
import { OPENAI_BASE_URL } from "./openai.ts";
import { opencodeArgs } from "./opencode.ts";
import { qwenCodeArgs } from "./qwen_code.ts";

/** A target's need before it is placed in its targets file, with the setting it is written at. */
export interface TargetNeed {
  /** The need, without its file and position. */
  need: Omit<DatasetCommand, "file" | "line" | "column">;
  /** The setting it is written at, inside the target's definition (`["command_template"]`). */
  at: (string | number)[];
}

/** Settings agentv keeps to itself: never sent to a provider nor passed to a process. */
const NOT_SENT: ReadonlySet<string> = new Set([
  "description",
  "judge_target",
  "workers",
  "max_retries",
  "retry_initial_delay_ms",
  "retry_max_delay_ms",
  "retry_backoff_factor",
  "retry_status_codes",
  "pricing",
  "provider_batching",
  "cache",
  "workspace_template",
  "workspace_repo",
]);

/** The default origin of each HTTP provider (azure: any `https://<resource>.openai.azure.com`). */
const DEFAULT_ORIGINS: Readonly<Record<string, string>> = {
  openai: new URL(OPENAI_BASE_URL).origin,
  anthropic: new URL(ANTHROPIC_BASE_URL).origin,
  gemini: new URL(GEMINI_BASE_URL).origin,
};

/**
 * What each agent provider starts: the executable when `executable` is not set, and the arguments
 * its settings give (typed by kind, so a new agent kind without its command does not compile).
 */
const AGENT_COMMANDS: {
  readonly [K in AgentProvider]: { executable: string; args(settings: never): string[] };
} = {
  "claude-code": { executable: "claude", args: claudeCodeArgs },
  codex: { executable: "codex", args: codexArgs },
  "gemini-cli": { executable: "gemini", args: geminiCliArgs },
  "qwen-code": { executable: "qwen", args: qwenCodeArgs },
  "copilot-cli": { executable: "copilot", args: copilotCliArgs },
  opencode: { executable: "opencode", args: opencodeArgs },
};

/**
 * Whether `url` is the documented endpoint of `kind`: `https://api.openai.com`,
 * `https://api.anthropic.com`, `https://generativelanguage.googleapis.com`, or for `azure` an
 * `https://<resource>.openai.azure.com` host; always `https` on the default port. Nothing else
 * is (a loopback address included).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isDefaultEndpoint } from "./target_needs.ts";
 * assert.equal(isDefaultEndpoint("openai", new URL("https://api.openai.com/v1/chat/completions")), true);
 * assert.equal(isDefaultEndpoint("openai", new URL("http://127.0.0.1:8080/v1")), false);
 * assert.equal(isDefaultEndpoint("azure", new URL("https://my-res.openai.azure.com/openai")), true);
 * ```
 */
export function isDefaultEndpoint(kind: string, url: URL): boolean {
  if (url.protocol !== "https:" || url.port !== "" || url.username !== "" || url.password !== "") {
    return false;
  }
  if (kind === "azure") {
    const host = url.hostname.toLowerCase();
    return /^[a-z0-9][a-z0-9-]*\.openai\.azure\.com$/.test(host);
  }
  return DEFAULT_ORIGINS[kind] === url.origin;
}

/** The URL an HTTP provider sends to (origin and path), from its resolved settings. */
export function endpointOf(kind: string, settings: Record<string, unknown>): URL | undefined {
  const base = typeof settings.base_url === "string" ? settings.base_url : undefined;
  try {
    switch (kind) {
      case "openai":
        return new URL(base ?? OPENAI_BASE_URL);
      case "anthropic":
        return new URL(base ?? ANTHROPIC_BASE_URL);
      case "gemini":
        return new URL(base ?? GEMINI_BASE_URL);
      case "azure":
        return new URL(azureChatUrl(String(settings.endpoint ?? ""), "deployment", "version"));
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

/** The names of the variables whose values reach `path`-filtered settings, sorted. */
function readsOf(used: readonly UsedEnvRef[], keep: (path: readonly PathKey[]) => boolean) {
  return [...new Set(used.filter((ref) => keep(ref.path)).map((ref) => ref.name))].sort();
}

/** The variables an HTTP provider's calls carry: references in every setting that is sent. */
export function sentVariables(kind: string, used: readonly UsedEnvRef[]): string[] {
  if (kind === "cli") {
    return readsOf(used, (p) => p[0] === "healthcheck" && p[1] === "url");
  }
  if (!["openai", "azure", "anthropic", "gemini"].includes(kind)) return [];
  return readsOf(used, (p) => !NOT_SENT.has(String(p[0])));
}

function need(identity: NeedIdentity, at: PathKey[], argv?: string[]): TargetNeed {
  return { need: { ...identity, ...(argv ? { argv } : {}), key: needKey(identity) }, at };
}

/** A written setting as text (`undefined` stays absent). */
function text(value: unknown): string | undefined {
  return value === undefined ? undefined : String(value);
}

/** What one target definition needs consent for (see the module doc). */
export interface TargetNeedsSpec {
  /** Target name. */
  name: string;
  /** Provider kind. */
  kind: RunnableProvider;
  /** Resolved, checked settings (canonical names). */
  settings: Record<string, unknown>;
  /** The definition as written (aliases as written), for where a need is written. */
  written: Record<string, unknown>;
  /** The `${{ VAR }}` references substituted, with the setting each is in. */
  used: readonly UsedEnvRef[];
  /** Folder of the targets file: base of a relative `cwd` (absolute). */
  targetsFileDir?: string | undefined;
}

/**
 * Every need of one target: the one definition used by the trust gate, `agentv trust`,
 * `validate` and the providers themselves.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { targetNeeds } from "./target_needs.ts";
 * const [found] = targetNeeds({
 *   name: "local",
 *   kind: "openai",
 *   settings: { base_url: "http://127.0.0.1:8080/v1", api_key: "sk-1", model: "m" },
 *   written: { base_url: "http://127.0.0.1:8080/v1", api_key: "${{ OPENAI_API_KEY }}", model: "m" },
 *   used: [{ name: "OPENAI_API_KEY", path: ["api_key"], value: "sk-1" }],
 * });
 * assert.equal(found.need.command, "http://127.0.0.1:8080");
 * assert.deepEqual(found.need.reads, ["OPENAI_API_KEY"]);
 * ```
 */
export function targetNeeds(spec: TargetNeedsSpec): TargetNeed[] {
  const { name, kind, settings, used } = spec;
  switch (kind) {
    case "cli":
      return cliNeeds(spec);
    case "claude-code":
    case "codex":
    case "gemini-cli":
    case "qwen-code":
    case "copilot-cli":
    case "opencode": {
      const command = AGENT_COMMANDS[kind];
      const executable = typeof settings.executable === "string"
        ? settings.executable
        : command.executable;
      const args = (command.args as (settings: Record<string, unknown>) => string[])(settings);
      const executableKey = writtenKey(spec.written, ["executable", "command", "binary"]);
      const argsKey = writtenKey(spec.written, ["args", "arguments"]);
      const writtenArgs = argsKey !== undefined && Array.isArray(spec.written[argsKey])
        ? (spec.written[argsKey] as unknown[]).map(String)
        : [];
      const written = [
        (executableKey !== undefined ? text(spec.written[executableKey]) : undefined) ??
          command.executable,
        ...writtenArgs,
      ];
      const listed = Array.isArray(settings.env) ? settings.env.map(String) : [];
      return [need(
        {
          kind: "agent_target",
          name,
          command: written.join(" "),
          written,
          reads: [...new Set([...readsOf(used, (p) => !NOT_SENT.has(String(p[0]))), ...listed])]
            .sort(),
        },
        [executableKey ?? "provider"],
        [executable, ...args],
      )];
    }
    case "openai":
    case "azure":
    case "anthropic":
    case "gemini": {
      const reads = sentVariables(kind, used);
      const url = endpointOf(kind, settings);
      if (reads.length === 0 || (url !== undefined && isDefaultEndpoint(kind, url))) return [];
      const at = writtenKey(spec.written, ["base_url", "endpoint", "resource", "resource_name"]) ??
        used.find((ref) => !NOT_SENT.has(String(ref.path[0])))?.path[0] ?? "provider";
      const origin = url?.origin ?? "(an invalid URL)";
      return [need({ kind: "env_host", name, command: origin, host: origin, reads }, [at])];
    }
    case "mock":
      return [];
  }
}

function cliNeeds(spec: TargetNeedsSpec): TargetNeed[] {
  const { name, settings, used } = spec;
  const listed = Array.isArray(settings.env) ? settings.env.map(String) : [];
  const envRefs = readsOf(used, (p) => p[0] === "env");
  const out: TargetNeed[] = [];
  const template = typeof settings.command_template === "string" ? settings.command_template : "";
  const writtenTemplate = text(spec.written.command_template) ?? "";
  // A `cwd` fixes where the command runs (relative to the targets file), so what it names.
  const base = spec.targetsFileDir ?? ".";
  const cwd = typeof settings.cwd === "string" ? resolve(base, settings.cwd) : undefined;
  out.push(need(
    {
      kind: "cli_target",
      name,
      command: writtenTemplate,
      written: [writtenTemplate],
      ...(cwd !== undefined ? { cwd } : {}),
      reads: [
        ...new Set([
          ...readsOf(used, (p) => p[0] !== "healthcheck" && !NOT_SENT.has(String(p[0]))),
          ...listed,
        ]),
      ].sort(),
    },
    ["command_template"],
    [template],
  ));
  const check = settings.healthcheck as Record<string, unknown> | undefined;
  if (check?.type === "command" && typeof check.command_template === "string") {
    const writtenCheck = text(
      (spec.written.healthcheck as Record<string, unknown> | undefined)?.command_template,
    ) ?? "";
    const checkCwd = typeof check.cwd === "string" ? resolve(base, check.cwd) : cwd;
    out.push(need(
      {
        kind: "healthcheck",
        name,
        command: writtenCheck,
        written: [writtenCheck],
        ...(checkCwd !== undefined ? { cwd: checkCwd } : {}),
        reads: [
          ...new Set([...readsOf(used, (p) => p[0] === "healthcheck"), ...envRefs, ...listed]),
        ].sort(),
      },
      ["healthcheck", "command_template"],
      [check.command_template],
    ));
  }
  if (check?.type === "http" && typeof check.url === "string") {
    const reads = sentVariables("cli", used);
    let origin = "(an invalid URL)";
    try {
      origin = new URL(check.url).origin;
    } catch { /* listed as invalid: it is refused anyway */ }
    if (reads.length > 0) {
      out.push(need({ kind: "env_host", name, command: origin, host: origin, reads }, [
        "healthcheck",
        "url",
      ]));
    }
  }
  return out;
}

/** The first of `keys` written in the definition. */
function writtenKey(written: Record<string, unknown>, keys: readonly string[]): string | undefined {
  return keys.find((key) => written[key] !== undefined);
}

/**
 * The `fetch` a provider gets: when the target sends `${{ VAR }}` values, each request must go to
 * the provider's default endpoint or to the host of an `env_host` need the run's consent holds;
 * anything else is refused before it is sent.
 */
export function guardedFetch(
  kind: RunnableProvider,
  needs: readonly TargetNeed[],
  sendsVariables: boolean,
  options: { consent: ConsentGrant; fetch?: typeof fetch },
): typeof fetch | undefined {
  if (!sendsVariables) return options.fetch;
  const send = options.fetch ?? fetch;
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (kind === "cli" || !isDefaultEndpoint(kind, url)) {
      const found = needs.find((n) => n.need.kind === "env_host" && n.need.host === url.origin);
      const refused = found === undefined
        ? `Refused to send environment values to ${url.origin}: not the host listed for consent`
        : options.consent.allows(found.need)
        ? undefined
        : new ConsentNotGivenError(found.need).message;
      if (refused !== undefined) {
        return Promise.reject(new TargetError(refused, { retryable: false }));
      }
    }
    return send(input, init);
  };
}

/**
 * The `permit` a provider gets (see `ProviderContext.permit`): the permit for the target's need of
 * that kind, from the run's consent; a `TargetError` (not retried) when it does not hold it.
 */
export function commandPermits(
  name: string,
  needs: readonly TargetNeed[],
  consent: ConsentGrant,
): (kind: "cli_target" | "healthcheck" | "agent_target") => CommandPermit {
  return (kind) => {
    const found = needs.find((n) => n.need.kind === kind);
    if (found === undefined) {
      throw new TargetError(`Target '${name}' has no ${kind} to start`, { retryable: false });
    }
    try {
      return consent.permit(found.need);
    } catch (error) {
      if (error instanceof ConsentNotGivenError) {
        throw new TargetError(error.message, { retryable: false });
      }
      throw error;
    }
  };
}
