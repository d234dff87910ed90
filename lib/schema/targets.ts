/**
 * Targets files (`.agentv/targets.yaml`): `{ $schema?, targets: [{ name, provider, ...settings }] }`
 * with flat provider settings beside the common keys. Values may be `${{ VAR }}` references
 * until a target is resolved; {@link checkTargetsFile} validates a whole file (errors and
 * "did you mean" warnings with document paths) and {@link parseTargetSettings} turns one resolved
 * definition into typed settings.
 *
 * @module
 */
import { z } from "zod";
import { ToolCallsSchema } from "./tool_call_shapes.ts";

/** Providers agentv can run. */
export const RUNNABLE_PROVIDERS = [
  "openai",
  "azure",
  "anthropic",
  "gemini",
  "cli",
  "mock",
  "codex",
  "claude-code",
] as const;

/** Providers of the original tool that agentv knows but cannot run (validation passes). */
export const UNSUPPORTED_PROVIDERS = [
  "pi-coding-agent",
  "pi-agent-sdk",
  "vscode",
  "vscode-insiders",
  "bedrock",
  "vertex",
] as const;

/** A runnable provider kind. */
export type RunnableProvider = typeof RUNNABLE_PROVIDERS[number];

/** Any known provider kind. */
export type ProviderKind = RunnableProvider | typeof UNSUPPORTED_PROVIDERS[number];

/** Alternative provider names, mapped to their kind. */
export const PROVIDER_ALIASES: Readonly<Record<string, ProviderKind>> = {
  "azure-openai": "azure",
  google: "gemini",
  "google-gemini": "gemini",
  "codex-cli": "codex",
  pi: "pi-coding-agent",
};

/** Every provider name accepted in a targets file (kinds and aliases). */
export const KNOWN_PROVIDER_NAMES: readonly string[] = [
  ...RUNNABLE_PROVIDERS,
  ...UNSUPPORTED_PROVIDERS,
  ...Object.keys(PROVIDER_ALIASES),
];

/** The provider kind for a name as written (case-insensitive, aliases resolved). */
export function canonicalProvider(name: string): ProviderKind | undefined {
  const lower = name.trim().toLowerCase();
  if ((RUNNABLE_PROVIDERS as readonly string[]).includes(lower)) return lower as ProviderKind;
  if ((UNSUPPORTED_PROVIDERS as readonly string[]).includes(lower)) return lower as ProviderKind;
  return PROVIDER_ALIASES[lower];
}

/** Whether agentv can run targets of this kind. */
export function isRunnableProvider(kind: ProviderKind): kind is RunnableProvider {
  return (RUNNABLE_PROVIDERS as readonly string[]).includes(kind);
}

/** A whole-value `${{ VAR }}` reference. */
export const WHOLE_ENV_REF = /^\s*\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}\s*$/;

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

// ---------------------------------------------------------------------------------------------
// Value helpers: in "file" mode a `${{ VAR }}` string stands for any value; numbers and booleans
// also accept numeric / boolean strings (values from the environment are strings).

/** `file`: values may still be `${{ VAR }}` references; `resolved`: every reference substituted. */
export type SchemaMode = "file" | "resolved";

function coerceNumber(v: unknown): unknown {
  return typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
}

function coerceBoolean(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const s = v.trim().toLowerCase();
  return s === "true" || s === "1" ? true : s === "false" || s === "0" ? false : v;
}

/** In `file` mode `schema` or a `${{ VAR }}` string (typed as `schema`: resolved values are). */
function withEnv<T extends z.ZodType>(mode: SchemaMode, schema: T, message: string): T {
  if (mode === "resolved") return schema;
  const envRef = z.string({ error: message }).regex(WHOLE_ENV_REF, { error: message });
  return z.union([schema, envRef], { error: message }) as unknown as T;
}

function num(
  mode: SchemaMode,
  what: string,
  opts: { min?: number; max?: number; int?: boolean } = {},
) {
  const range = opts.min !== undefined && opts.max !== undefined
    ? ` between ${opts.min} and ${opts.max}`
    : opts.min !== undefined
    ? ` >= ${opts.min}`
    : "";
  const message = `${what} must be ${opts.int ? "an integer" : "a number"}${range}`;
  let schema = opts.int ? z.int({ error: message }) : z.number({ error: message });
  if (opts.min !== undefined) schema = schema.min(opts.min, { error: message });
  if (opts.max !== undefined) schema = schema.max(opts.max, { error: message });
  return z.preprocess(coerceNumber, withEnv(mode, schema, message)).optional();
}

function positive(mode: SchemaMode, what: string) {
  const message = `${what} must be a number > 0`;
  return z.preprocess(
    coerceNumber,
    withEnv(mode, z.number({ error: message }).positive({ error: message }), message),
  ).optional();
}

function bool(mode: SchemaMode, what: string) {
  const message = `${what} must be true or false`;
  return z.preprocess(coerceBoolean, withEnv(mode, z.boolean({ error: message }), message))
    .optional();
}

function str(what: string) {
  return z.string({ error: `${what} must be a string` });
}

function url(mode: SchemaMode, what: string) {
  const message = `${what} must be an http(s) URL, e.g. http://127.0.0.1:8000/v1`;
  return withEnv(
    mode,
    z.string({ error: message }).regex(/^https?:\/\/\S+$/i, { error: message }),
    message,
  )
    .optional();
}

const stringMap = (what: string) =>
  z.record(z.string(), z.string({ error: `values of ${what} must be strings` }), {
    error: `${what} must be a mapping of names to strings`,
  });

// ---------------------------------------------------------------------------------------------
// Schemas

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
 * Settings of agent CLI targets (`codex`, `claude-code`): the executable, model, extra arguments,
 * a system prompt, the time limit and the environment names passed through.
 */
function agentShape(mode: SchemaMode) {
  return {
    executable: str("executable").min(1, { error: "executable must not be empty" }).optional(),
    model: str("model").optional(),
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
    mock: () => ({
      ...common(),
      response: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())], {
        error: "response must be a string or an object",
      }).optional(),
      echo: bool(mode, "echo"),
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

/** Known setting names of providers agentv cannot run (checked for typos only). */
export const UNSUPPORTED_SETTINGS: Readonly<Record<string, readonly string[]>> = {
  "pi-coding-agent": words(
    "executable pi_provider llm_provider model pi_model api_key tools pi_tools thinking pi_thinking args cwd timeout_seconds log_dir log_format system_prompt",
  ),
  "pi-agent-sdk": words("pi_provider model api_key timeout_seconds system_prompt"),
  vscode: words("vscode_cmd command wait dry_run subagent_root workspace_template"),
  "vscode-insiders": words("vscode_cmd command wait dry_run subagent_root workspace_template"),
  bedrock: words("model region api_key temperature max_tokens"),
  vertex: words("model project location api_key temperature max_tokens"),
};

function words(text: string): readonly string[] {
  return text.split(" ");
}

/** Alternative setting names (the original tool's), mapped to the canonical name. */
export const SETTING_ALIASES: Readonly<Record<RunnableProvider, Record<string, string>>> = {
  azure: {
    resource: "endpoint",
    resource_name: "endpoint",
    deployment_name: "deployment",
    api_version: "version",
    max_output_tokens: "max_tokens",
  },
  anthropic: { deployment: "model", variant: "model", max_output_tokens: "max_tokens" },
  gemini: { deployment: "model", variant: "model", max_output_tokens: "max_tokens" },
  openai: { max_output_tokens: "max_tokens" },
  cli: {
    attachments_format: "files_format",
    keep_output_files: "keep_temp_files",
    cli_verbose: "verbose",
  },
  mock: {},
  codex: { command: "executable", binary: "executable", arguments: "args" },
  "claude-code": { command: "executable", binary: "executable", arguments: "args" },
};

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
/** A CLI healthcheck. */
export type CliHealthcheck = NonNullable<CliSettings["healthcheck"]>;

/** One entry of `targets:` as written: settings sit beside the common keys, unresolved. */
export interface TargetDefinition {
  /** Target name (unique in the file). */
  name: string;
  /** Provider kind or alias, case-insensitive. */
  provider: string;
  /** Name of the target that judges this one's answers. */
  judge_target?: string;
  /** Every other setting, as written (`${{ VAR }}` references unresolved). */
  [setting: string]: unknown;
}

/** A targets file: `{ $schema?, targets: [...] }`. */
export interface TargetsFile {
  /** Optional schema marker. */
  $schema?: string;
  /** The targets, in file order. */
  targets: TargetDefinition[];
}

/** Minimal shape of a target entry (full checks: `lib/targets/check.ts`). */
export const TargetDefinitionSchema: z.ZodType<TargetDefinition> = z.looseObject({
  name: z.string().min(1),
  provider: z.string().min(1),
  judge_target: z.string().optional(),
});

/** Minimal shape of a targets file (full checks: `lib/targets/check.ts`). */
export const TargetsFileSchema: z.ZodType<TargetsFile> = z.looseObject({
  $schema: z.string().optional(),
  targets: z.array(TargetDefinitionSchema),
});

/** A problem in a targets file, located by its document path. */
export interface TargetsIssue {
  /** `error` invalidates the file; `warning` does not. */
  severity: "error" | "warning";
  /** Path in the document, e.g. `["targets", 2, "timeout_seconds"]`. */
  path: (string | number)[];
  /** What is wrong and how to fix it. */
  message: string;
  /** Whether the position is that of the key itself (unknown keys). */
  atKey?: boolean;
}

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
}

/** Result of checking one target definition: typed settings, by provider. */
export type ParsedTargetSettings =
  | { [K in RunnableProvider]: { provider: K; settings: ProviderSettingsMap[K] } }[RunnableProvider]
  | { provider: Exclude<ProviderKind, RunnableProvider>; settings: Record<string, unknown> };
