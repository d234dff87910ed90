/**
 * Builds ready-to-call {@link Target}s from targets-file definitions: substitutes `${{ VAR }}`
 * references (so a missing variable fails only the targets actually used), validates the
 * resolved settings, picks the provider from a static map, and wraps it with redaction and
 * `pricing`-based cost.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import {
  canonicalProvider,
  isAgentProvider,
  isRunnableProvider,
  type ParsedTargetSettings,
  RUNNABLE_PROVIDERS,
  type RunnableProvider,
  type TargetDefinition,
  type TargetsFile,
} from "../schema/targets.ts";
import { parseTargetSettings } from "../dataset/targets_check.ts";
import { suggest } from "../text/suggest.ts";
import { ANTHROPIC_MAX_TOKENS, createAnthropicTarget } from "./anthropic.ts";
import { createAzureTarget } from "./azure.ts";
import { createClaudeCodeTarget } from "./claude_code.ts";
import { createCliTarget } from "./cli.ts";
import { createCodexTarget } from "./codex.ts";
import { createCopilotCliTarget } from "./copilot_cli.ts";
import {
  dropSecretRefs,
  interpolateEnv,
  type MissingEnvRef,
  type UsedEnvRef,
} from "../dataset/env.ts";
import { TargetConfigError } from "../dataset/targets_errors.ts";
import { createGeminiTarget } from "./gemini.ts";
import { createGeminiCliTarget } from "./gemini_cli.ts";
import { DEFAULT_RETRY_STATUS_CODES } from "./http.ts";
import { httpEndpoint } from "./endpoint.ts";
import { createMockTarget } from "./mock.ts";
import { createOpenAITarget } from "./openai.ts";
import { createOpencodeTarget } from "./opencode.ts";
import { createPiTarget } from "./pi.ts";
import { createQwenCodeTarget } from "./qwen_code.ts";
import { ConsentGrant } from "./consent.ts";
import { commandPermits, guardedFetch, sentVariables, targetNeeds } from "./target_needs.ts";
import { targetWorkspaceRepo } from "./target_workspace_repo.ts";
import type { ProviderContext, TargetCore } from "./provider_context.ts";
import { redactText, redactValue } from "../text/redact.ts";
import { callIdentityOf } from "./call_identity.ts";
import type { SandboxMode } from "../schema/sandbox.ts";
import {
  type CallIdentity,
  type RetryPolicy,
  type Target,
  TargetError,
  type TargetResponse,
} from "./types.ts";

/** Options of {@link createTarget} and {@link resolveTarget}. */
export interface CreateTargetOptions {
  /** Folder of the targets file (base of relative `cwd`). */
  targetsFileDir?: string;
  /** Variables for `${{ VAR }}` (`.env` merged with the process environment, see `env.ts`). */
  env: Readonly<Record<string, string>>;
  /** `fetch` for HTTP providers (default the global one). */
  fetch?: typeof fetch;
  /** Receives non-fatal problems (an optional setting whose variable is unset, bad CLI metrics). */
  onWarning?: (message: string) => void;
  /** Folder for temporary files (default the OS temp folder). */
  tempDir?: string;
  /**
   * The target will make no call (`--replay` answers every call from the cache): an unset
   * variable of a secret setting (`api_key`, a header, a secret-named variable) is left out
   * instead of being an error, so a replay needs no key.
   */
  offline?: boolean;
  /**
   * What the target may start and where it may send environment values (see `consent.ts`):
   * `runEval` passes the grant its trust gate fills. Default: everything (a target a library
   * caller creates and calls itself).
   */
  consent?: ConsentGrant;
  /**
   * The run's `--sandbox`: replaces the `sandbox` setting of agent and `cli` targets (see
   * `sandbox_policy.ts`). Default: each target's own setting.
   */
  sandbox?: SandboxMode;
}

type Factory = (settings: never, context: ProviderContext) => TargetCore;

/** Provider kind → factory (static so `deno compile` sees every provider). */
const FACTORIES: Record<RunnableProvider, Factory> = {
  openai: createOpenAITarget,
  azure: createAzureTarget,
  anthropic: createAnthropicTarget,
  gemini: createGeminiTarget,
  cli: createCliTarget,
  mock: createMockTarget,
  codex: createCodexTarget,
  "claude-code": createClaudeCodeTarget,
  "gemini-cli": createGeminiCliTarget,
  "qwen-code": createQwenCodeTarget,
  "copilot-cli": createCopilotCliTarget,
  opencode: createOpencodeTarget,
  pi: createPiTarget,
};

/**
 * Time an agent gets past its `timeout_seconds` before the runner gives up on it, in ms. Agent
 * CLI providers (`isAgentProvider`) are not retried unless `max_retries` says so (an attempt is
 * expensive and changes its workspace), and their `timeout_seconds` replaces the runner's
 * `--timeout` plus this grace, so the agent's own timeout, which keeps the trace so far, fires
 * first.
 */
const AGENT_KILL_GRACE_MS = 5000;

/**
 * Settings that fall back to their default (with a warning) when their whole value is a
 * reference to an unset variable; any other unset reference is an error.
 */
const OPTIONAL_WHEN_UNSET = new Set([
  "version",
  "temperature",
  "max_tokens",
  "timeout_seconds",
  "workers",
  "max_retries",
  "retry_initial_delay_ms",
  "retry_max_delay_ms",
  "retry_backoff_factor",
  "thinking_budget",
  "delay_ms",
  "verbose",
  "keep_temp_files",
  "max_output_bytes",
]);

/** Variable names whose values are treated as secrets wherever they are used. */
const SECRET_VAR = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;

/**
 * Creates a target from one definition of a targets file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createTarget } from "./registry.ts";
 * const target = createTarget(
 *   { name: "default", provider: "openai", model: "gpt-4o-mini", api_key: "${{ OPENAI_API_KEY }}" },
 *   { env: { OPENAI_API_KEY: "sk-..." } },
 * );
 * assert.equal(target.provider, "openai");
 * assert.deepEqual(target.secrets, ["sk-..."]); // redacted from everything the run writes
 * ```
 */
export function createTarget(definition: TargetDefinition, options: CreateTargetOptions): Target {
  const name = String(definition.name);
  const kind = canonicalProvider(String(definition.provider ?? ""));
  if (kind === undefined) {
    throw new TargetConfigError(`Target '${name}' has unknown provider '${definition.provider}'`, {
      target: name,
      hint: `use one of ${RUNNABLE_PROVIDERS.join(", ")}`,
    });
  }
  if (!isRunnableProvider(kind)) {
    throw new TargetConfigError(
      `Target '${name}' uses provider '${kind}', which agentv cannot run`,
      {
        target: name,
        hint:
          `wrap the agent in a \`provider: cli\` target (command_template with {PROMPT} and {OUTPUT_FILE}), or use one of ${
            RUNNABLE_PROVIDERS.join(", ")
          }`,
      },
    );
  }
  const { name: _n, provider: _p, ...rest } = definition;
  const { value, missing, used } = interpolateEnv(rest, options.env);
  const resolved: Record<string, unknown> = { name, provider: kind, ...value };
  applyMissing(
    resolved,
    kind,
    name,
    options.offline ? dropSecretRefs(resolved, missing, SECRET_VAR) : missing,
    options.onWarning,
  );
  let parsed: ParsedTargetSettings;
  try {
    parsed = parseTargetSettings(resolved);
  } catch (error) {
    throw new TargetConfigError(
      `Target '${name}' is invalid${
        used.length > 0 ? " after substituting ${{ }} variables" : ""
      }: ${redactText((error as Error).message, secretValues(resolved, used))}`,
      { target: name, hint: "fix the setting in the targets file (or the variable it reads)" },
    );
  }
  const settings = parsed.settings as Record<string, unknown>;
  const secrets = secretValues(settings, used);
  // What it starts and where it sends variables: computed once, and the only thing it may do.
  const { targetsFileDir } = options;
  const repo = targetWorkspaceRepo(name, settings, used, targetsFileDir);
  const needs = [
    ...targetNeeds({ name, kind, settings, written: rest, used, targetsFileDir }),
    ...repo.needs,
  ];
  const consent = options.consent ?? ConsentGrant.everything();
  const context: ProviderContext = {
    name,
    secrets,
    fetch: guardedFetch(kind, needs, sentVariables(kind, used).length > 0, {
      consent,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
    targetsFileDir: options.targetsFileDir,
    env: options.env,
    onWarning: options.onWarning,
    tempDir: options.tempDir,
    permit: commandPermits(name, needs, consent),
    ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
  };
  const core = (FACTORIES[kind] as (s: unknown, c: ProviderContext) => TargetCore)(
    settings,
    context,
  );
  // Secrets the provider itself holds (an agent's API key passed through its environment).
  const targetSecrets = core.secrets ? [...new Set([...secrets, ...core.secrets])] : secrets;
  const pricing = settings.pricing as
    | { input_per_mtok: number; output_per_mtok: number }
    | undefined;
  const outputLimit = maxOutputTokens(kind, settings);
  let identity: CallIdentity | undefined;
  return {
    name,
    provider: kind,
    needs,
    callIdentity: () => identity ??= callIdentityOf(kind, settings, targetSecrets),
    judgeTarget: settings.judge_target as string | undefined,
    workers: settings.workers as number | undefined,
    endpoint: httpEndpoint(kind, settings),
    retry: isAgentProvider(kind)
      ? retryPolicy({ ...settings, max_retries: settings.max_retries ?? 0 })
      : retryPolicy(settings),
    secrets: targetSecrets,
    ...(pricing !== undefined ? { pricing } : {}),
    ...(outputLimit !== undefined ? { maxOutputTokens: outputLimit } : {}),
    ...(isAgentProvider(kind) && typeof settings.timeout_seconds === "number"
      ? { timeoutMs: Math.floor(settings.timeout_seconds * 1000) + AGENT_KILL_GRACE_MS }
      : {}),
    ...(typeof settings.workspace_template === "string"
      ? {
        workspaceTemplate: resolve(options.targetsFileDir ?? ".", settings.workspace_template),
      }
      : {}),
    ...(repo.workspaceRepo !== undefined ? { workspaceRepo: repo.workspaceRepo } : {}),
    ...(core.sandbox !== undefined ? { sandbox: core.sandbox } : {}),
    ...(core.healthcheck
      ? {
        healthcheck: (signal: AbortSignal, options?: { evalDir?: string }) =>
          guard(() => core.healthcheck!(signal, options), targetSecrets),
      }
      : {}),
    invoke: async (request) => {
      const response = await guard(() => core.invoke(request), targetSecrets);
      return finishResponse(response, pricing, targetSecrets);
    },
  };
}

/**
 * Creates the target called `name` from a targets file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * import { loadTargetsFile } from "../dataset/targets_file.ts";
 * import { resolveTarget } from "./registry.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const path = join(dir, "targets.yaml");
 * await Deno.writeTextFile(path, "targets:\n  - name: default\n    provider: mock\n    response: hi\n");
 * const file = await loadTargetsFile(path);
 * const target = resolveTarget(file, "default", { env: {} });
 * assert.equal(target.provider, "mock");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function resolveTarget(
  targetsFile: TargetsFile & { path?: string },
  name: string,
  options: CreateTargetOptions,
): Target {
  const definition = targetsFile.targets.find((t) => t.name === name);
  if (definition === undefined) {
    const names = targetsFile.targets.map((t) => t.name);
    const guess = suggest(name, names);
    const where = targetsFile.path ? ` in ${targetsFile.path}` : "";
    throw new TargetConfigError(
      `Unknown target '${name}'${where}${guess ? `; did you mean '${guess}'?` : ""}`,
      {
        target: name,
        hint: names.length > 0
          ? `defined targets: ${names.join(", ")}`
          : "the targets file defines no targets",
      },
    );
  }
  const targetsFileDir = options.targetsFileDir ??
    (targetsFile.path ? dirname(targetsFile.path) : undefined);
  return createTarget(definition, { ...options, targetsFileDir });
}

/**
 * The output token limit a provider sends with every call: `max_tokens` of an HTTP model target
 * (anthropic always sends one: {@link ANTHROPIC_MAX_TOKENS} by default); none for other kinds.
 */
function maxOutputTokens(
  kind: RunnableProvider,
  settings: Record<string, unknown>,
): number | undefined {
  if (!["openai", "azure", "anthropic", "gemini"].includes(kind)) return undefined;
  const limit = settings.max_tokens;
  if (typeof limit === "number") return limit;
  return kind === "anthropic" ? ANTHROPIC_MAX_TOKENS : undefined;
}

/** The retry policy of resolved settings, with the documented defaults. */
export function retryPolicy(settings: Record<string, unknown>): RetryPolicy {
  return {
    maxRetries: (settings.max_retries as number | undefined) ?? 3,
    initialDelayMs: (settings.retry_initial_delay_ms as number | undefined) ?? 1000,
    maxDelayMs: (settings.retry_max_delay_ms as number | undefined) ?? 60_000,
    backoffFactor: (settings.retry_backoff_factor as number | undefined) ?? 2,
    retryStatusCodes: (settings.retry_status_codes as number[] | undefined) ??
      [...DEFAULT_RETRY_STATUS_CODES],
  };
}

function applyMissing(
  resolved: Record<string, unknown>,
  kind: RunnableProvider,
  name: string,
  missing: MissingEnvRef[],
  onWarning?: (message: string) => void,
): void {
  const fatal: MissingEnvRef[] = [];
  for (const ref of missing) {
    const key = ref.path[0];
    const optional = ref.whole && ref.path.length === 1 && typeof key === "string" &&
      (OPTIONAL_WHEN_UNSET.has(key) || (kind === "gemini" && key === "model"));
    if (optional) {
      delete resolved[key as string];
      onWarning?.(
        `Target '${name}': environment variable '${ref.name}' (setting '${key}') is not set; using the default`,
      );
    } else fatal.push(ref);
  }
  if (fatal.length === 0) return;
  const list = fatal.map((r) => `'${r.name}' (setting '${r.path.join(".")}')`).join(", ");
  throw new TargetConfigError(
    `Target '${name}' needs environment variable${fatal.length > 1 ? "s" : ""} ${list}, which ${
      fatal.length > 1 ? "are" : "is"
    } not set or empty`,
    { target: name, hint: "set it in the environment or in a .env file at the project root" },
  );
}

/** `api_key`, authorization-like headers, and values of secret-named variables. */
function secretValues(settings: Record<string, unknown>, used: UsedEnvRef[]): string[] {
  const secrets = new Set<string>();
  if (typeof settings.api_key === "string" && settings.api_key !== "") {
    secrets.add(settings.api_key);
  }
  for (const ref of used) {
    if (ref.path[0] === "api_key" || ref.path[0] === "headers" || SECRET_VAR.test(ref.name)) {
      secrets.add(ref.value);
    }
  }
  const headers = settings.headers;
  if (headers && typeof headers === "object") {
    for (const [header, v] of Object.entries(headers as Record<string, unknown>)) {
      if (typeof v === "string" && /auth|key|token|secret|cookie/i.test(header)) {
        secrets.add(v.replace(/^(Bearer|Basic)\s+/i, ""));
      }
    }
  }
  return [...secrets].filter((s) => s.trim() !== "");
}

async function guard<T>(call: () => Promise<T>, secrets: readonly string[]): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof TargetError) {
      const message = redactText(error.message, secrets);
      if (message === error.message) throw error;
      throw new TargetError(message, {
        status: error.status,
        retryable: error.retryable,
        retryAfterMs: error.retryAfterMs,
        partial: error.partial,
      });
    }
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    const message = error instanceof Error ? error.message : String(error);
    const safe = redactText(message, secrets);
    throw new TargetError(safe, safe === message ? { cause: error } : {});
  }
}

function finishResponse(
  response: TargetResponse,
  pricing: { input_per_mtok: number; output_per_mtok: number } | undefined,
  secrets: readonly string[],
): TargetResponse {
  const out: TargetResponse = { ...response };
  if (out.request !== undefined) {
    // Redacted on first read: most callers never look at the recorded request, and redacting
    // (a deep copy of the whole prompt) is the largest per-call cost on the runner's hot path.
    const raw = out.request;
    let safe: unknown;
    Object.defineProperty(out, "request", {
      enumerable: true,
      configurable: true,
      get: () => (safe ??= redactValue(raw, secrets)),
    });
  }
  if (out.cost_usd === undefined && pricing && out.token_usage) {
    out.cost_usd = (out.token_usage.input * pricing.input_per_mtok +
      out.token_usage.output * pricing.output_per_mtok) / 1_000_000;
  }
  return out;
}
