/**
 * Settings schemas of runnable providers, one per provider family: the keys every target takes,
 * the HTTP model providers (`openai`, `azure`, `anthropic`, `gemini`), the `cli` provider, the
 * agent CLIs (`codex`, `claude-code`, `gemini-cli`, `qwen-code`, `copilot-cli`, `opencode`, `pi`)
 * and `mock`. {@link targetSettingsSchema} builds a provider's
 * schema on its first use only; the resolved settings types are derived from the schemas.
 *
 * @module
 */
import { z } from "zod";
import { ToolCallsSchema } from "./tool_call_shapes.ts";
import { WorkspaceRepoSchema } from "./workspace_repo.ts";
import type { ProviderKind, RunnableProvider } from "./target_providers.ts";
import {
  bool,
  coerceNumber,
  num,
  positive,
  type SchemaMode,
  str,
  stringMap,
  url,
} from "./target_setting_values.ts";
import { sandboxShape } from "./sandbox.ts";

/** Placeholders a CLI `command_template` may use. */
export const CLI_PLACEHOLDERS = [
  "PROMPT",
  "GUIDELINES",
  "EVAL_ID",
  "ATTEMPT",
  "FILES",
  "OUTPUT_FILE",
  "WORKSPACE",
] as const;

function commonShape(mode: SchemaMode) {
  return {
    name: z.string({ error: "name must be a string" }).trim().min(1, {
      error: "name must not be empty",
    }),
    provider: z.string({ error: "provider must be a string" }).trim().min(1, {
      error: "provider must not be empty",
    }),
    description: str("description").optional(),
    judge_target: str("judge_target").min(1, { error: "judge_target must not be empty" })
      .optional(),
    workers: num(mode, "workers", { int: true, min: 1, max: 50 }),
    max_retries: num(mode, "max_retries", { int: true, min: 0, max: 100 }),
    retry_initial_delay_ms: num(mode, "retry_initial_delay_ms", { min: 0 }),
    retry_max_delay_ms: num(mode, "retry_max_delay_ms", { min: 0 }),
    retry_backoff_factor: num(mode, "retry_backoff_factor", { min: 1 }),
    retry_status_codes: z.array(
      z.preprocess(
        coerceNumber,
        z.int({ error: "retry_status_codes entries must be HTTP statuses" }).min(100).max(599),
      ),
      { error: "retry_status_codes must be a list of HTTP statuses, e.g. [429, 503]" },
    ).optional(),
    pricing: z.strictObject({
      input_per_mtok: z.number({ error: "pricing.input_per_mtok must be a number >= 0 (USD)" })
        .min(0),
      output_per_mtok: z.number({ error: "pricing.output_per_mtok must be a number >= 0 (USD)" })
        .min(0),
    }, { error: "pricing must be {input_per_mtok, output_per_mtok} in USD per million tokens" })
      .optional(),
    provider_batching: bool(mode, "provider_batching"),
    // Response cache: `false` keeps a target out of it; `cli` and agent targets need `true`.
    cache: bool(mode, "cache"),
    // A folder copied into a fresh workspace for each case (relative to the targets file).
    workspace_template: str("workspace_template").min(1, {
      error: "workspace_template must not be empty",
    }).optional(),
    // A repository checked out at a commit for each case (its url relative to the targets file).
    workspace_repo: WorkspaceRepoSchema.optional(),
  };
}

function httpShape(mode: SchemaMode) {
  return {
    base_url: url(mode, "base_url"),
    api_key: str("api_key").optional(),
    model: str("model").optional(),
    temperature: num(mode, "temperature", { min: 0, max: 2 }),
    max_tokens: num(mode, "max_tokens", { int: true, min: 1 }),
    headers: stringMap("headers").optional(),
  };
}

/**
 * Settings of agent CLI targets (`codex`, `claude-code`, `gemini-cli`, `qwen-code`,
 * `copilot-cli`, `opencode`, `pi`): the executable, model, the model endpoint (`base_url`, handed to
 * each CLI its own way), extra arguments, a system prompt, the time limit, the environment names
 * passed through and the sandbox (`sandbox.ts`).
 */
function agentShape(mode: SchemaMode) {
  return {
    executable: str("executable").min(1, { error: "executable must not be empty" }).optional(),
    model: str("model").optional(),
    base_url: url(mode, "base_url"),
    args: z.array(z.string({ error: "args entries must be strings" }), {
      error: "args must be a list of strings, e.g. [--sandbox, workspace-write]",
    }).optional(),
    system_prompt: str("system_prompt").optional(),
    timeout_seconds: positive(mode, "timeout_seconds"),
    env: z.array(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "env entries must be variable names" }),
      {
        error: "env must list variable names passed on from the environment, e.g. [OPENAI_API_KEY]",
      },
    ).optional(),
    max_output_bytes: num(mode, "max_output_bytes", { int: true, min: 1, max: 1024 * 1024 * 1024 }),
    ...sandboxShape(),
  };
}

function healthcheckSchema(mode: SchemaMode) {
  return z.discriminatedUnion("type", [
    z.strictObject({
      type: z.literal("http"),
      url: z.string({ error: "healthcheck.url must be a URL" }).min(1),
      timeout_seconds: positive(mode, "healthcheck.timeout_seconds"),
    }),
    z.strictObject({
      type: z.literal("command"),
      command_template: z.string({ error: "healthcheck.command_template must be a string" })
        .min(1, { error: "healthcheck.command_template must not be empty" }),
      cwd: str("healthcheck.cwd").optional(),
      timeout_seconds: positive(mode, "healthcheck.timeout_seconds"),
    }),
  ], {
    error:
      "healthcheck must be {type: http, url} or {type: command, command_template} (optional timeout_seconds)",
  });
}

/**
 * Each runnable provider's settings shape, built on demand: a run or a check builds the schemas
 * of the providers it meets only (building all of them is most of this module's import cost).
 */
function providerShapes(mode: SchemaMode) {
  const common = () => commonShape(mode);
  const http = () => httpShape(mode);
  return {
    openai: () => ({ ...common(), ...http() }),
    azure: () => ({
      ...common(),
      ...http(),
      endpoint: str("endpoint").optional(),
      deployment: str("deployment").optional(),
      version: str("version").optional(),
    }),
    anthropic: () => ({
      ...common(),
      ...http(),
      thinking_budget: num(mode, "thinking_budget", { int: true, min: 1024 }),
    }),
    gemini: () => ({ ...common(), ...http() }),
    cli: () => ({
      ...common(),
      command_template: str("command_template").optional(),
      files_format: str("files_format").optional(),
      cwd: str("cwd").optional(),
      timeout_seconds: positive(mode, "timeout_seconds"),
      healthcheck: healthcheckSchema(mode).optional(),
      verbose: bool(mode, "verbose"),
      keep_temp_files: bool(mode, "keep_temp_files"),
      max_output_bytes: num(mode, "max_output_bytes", {
        int: true,
        min: 1,
        max: 256 * 1024 * 1024,
      }),
      env: z.union([
        z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), {
          error: "env must list variable names",
        }),
        stringMap("env"),
      ], {
        error:
          "env must be a list of variable names passed on from the environment, or a mapping of names to values",
      }).optional(),
      ...sandboxShape(),
    }),
    codex: () => ({ ...common(), ...agentShape(mode) }),
    "claude-code": () => ({
      ...common(),
      ...agentShape(mode),
      max_turns: num(mode, "max_turns", { int: true, min: 1 }),
      allowed_tools: z.array(z.string().min(1), {
        error: "allowed_tools must be a list of tool names, e.g. [Bash, Edit, Read]",
      }).optional(),
    }),
    "gemini-cli": () => ({ ...common(), ...agentShape(mode) }),
    "qwen-code": () => ({ ...common(), ...agentShape(mode) }),
    "copilot-cli": () => ({ ...common(), ...agentShape(mode) }),
    opencode: () => ({ ...common(), ...agentShape(mode) }),
    pi: () => ({ ...common(), ...agentShape(mode) }),
    mock: () => ({
      ...common(),
      response: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())], {
        error: "response must be a string or an object",
      }).optional(),
      echo: bool(mode, "echo"),
      judge: bool(mode, "judge"),
      delay_ms: num(mode, "delay_ms", { min: 0 }),
      tool_calls: ToolCallsSchema.optional(),
      token_usage: z.strictObject({
        input: z.number(),
        output: z.number(),
        cached: z.number().optional(),
      }, { error: "token_usage must be {input, output, cached?}" }).optional(),
      cost_usd: num(mode, "cost_usd", { min: 0 }),
    }),
  };
}

/** The settings schema of each runnable provider (the same shape in both modes). */
type ProviderSchemas = ReturnType<typeof objectSchemas>;

/** Schemas built so far, per mode and provider. */
const BUILT: Record<SchemaMode, Partial<ProviderSchemas>> = { file: {}, resolved: {} };

/** Setting names every target may carry (`name`, `provider`, `judge_target`, `workers`, retries, ...). */
export const COMMON_SETTINGS: readonly string[] = Object.keys(commonShape("file"));

/** The settings schema of a runnable provider, for file checks or resolved definitions. */
export function targetSettingsSchema(
  kind: RunnableProvider,
  mode: SchemaMode,
): ProviderSchemas[RunnableProvider] {
  const built = BUILT[mode];
  return built[kind] ??= z.looseObject(providerShapes(mode)[kind]()) as never;
}

/** Every provider's schema (for types; {@link targetSettingsSchema} builds one at a time). */
function objectSchemas(mode: SchemaMode) {
  const shapes = providerShapes(mode);
  return {
    openai: z.looseObject(shapes.openai()),
    azure: z.looseObject(shapes.azure()),
    anthropic: z.looseObject(shapes.anthropic()),
    gemini: z.looseObject(shapes.gemini()),
    cli: z.looseObject(shapes.cli()),
    mock: z.looseObject(shapes.mock()),
    codex: z.looseObject(shapes.codex()),
    "claude-code": z.looseObject(shapes["claude-code"]()),
    "gemini-cli": z.looseObject(shapes["gemini-cli"]()),
    "qwen-code": z.looseObject(shapes["qwen-code"]()),
    "copilot-cli": z.looseObject(shapes["copilot-cli"]()),
    opencode: z.looseObject(shapes.opencode()),
    pi: z.looseObject(shapes.pi()),
  };
}

/** Settings of an `openai` target, resolved. */
export type OpenAISettings = z.output<ProviderSchemas["openai"]>;
/** Settings of an `azure` target, resolved. */
export type AzureSettings = z.output<ProviderSchemas["azure"]>;
/** Settings of an `anthropic` target, resolved. */
export type AnthropicSettings = z.output<ProviderSchemas["anthropic"]>;
/** Settings of a `gemini` target, resolved. */
export type GeminiSettings = z.output<ProviderSchemas["gemini"]>;
/** Settings of a `cli` target, resolved. */
export type CliSettings = z.output<ProviderSchemas["cli"]>;
/** Settings of a `mock` target, resolved. */
export type MockSettings = z.output<ProviderSchemas["mock"]>;
/** Settings of a `codex` target, resolved. */
export type CodexSettings = z.output<ProviderSchemas["codex"]>;
/** Settings of a `claude-code` target, resolved. */
export type ClaudeCodeSettings = z.output<ProviderSchemas["claude-code"]>;
/** Settings of a `gemini-cli` target, resolved. */
export type GeminiCliSettings = z.output<ProviderSchemas["gemini-cli"]>;
/** Settings of a `qwen-code` target, resolved. */
export type QwenCodeSettings = z.output<ProviderSchemas["qwen-code"]>;
/** Settings of a `copilot-cli` target, resolved. */
export type CopilotCliSettings = z.output<ProviderSchemas["copilot-cli"]>;
/** Settings of an `opencode` target, resolved. */
export type OpencodeSettings = z.output<ProviderSchemas["opencode"]>;
/** Settings of a `pi` target, resolved. */
export type PiSettings = z.output<ProviderSchemas["pi"]>;
/** A CLI healthcheck. */
export type CliHealthcheck = NonNullable<CliSettings["healthcheck"]>;

/** Resolved settings by provider. */
export interface ProviderSettingsMap {
  /** `openai` */
  openai: OpenAISettings;
  /** `azure` */
  azure: AzureSettings;
  /** `anthropic` */
  anthropic: AnthropicSettings;
  /** `gemini` */
  gemini: GeminiSettings;
  /** `cli` */
  cli: CliSettings;
  /** `mock` */
  mock: MockSettings;
  /** `codex` */
  codex: CodexSettings;
  /** `claude-code` */
  "claude-code": ClaudeCodeSettings;
  /** `gemini-cli` */
  "gemini-cli": GeminiCliSettings;
  /** `qwen-code` */
  "qwen-code": QwenCodeSettings;
  /** `copilot-cli` */
  "copilot-cli": CopilotCliSettings;
  /** `opencode` */
  opencode: OpencodeSettings;
  /** `pi` */
  pi: PiSettings;
}

/** Result of checking one target definition: typed settings, by provider. */
export type ParsedTargetSettings =
  | { [K in RunnableProvider]: { provider: K; settings: ProviderSettingsMap[K] } }[RunnableProvider]
  | { provider: Exclude<ProviderKind, RunnableProvider>; settings: Record<string, unknown> };
