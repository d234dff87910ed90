/**
 * Provider names of targets files: the kinds agentv can run, the ones it knows but cannot run,
 * their aliases, and the alternative setting names each provider accepts. Used by
 * `targets.ts` and the settings schemas of `target_settings.ts`.
 *
 * @module
 */

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
  "gemini-cli",
  "qwen-code",
  "copilot-cli",
  "opencode",
] as const;

/**
 * Providers that run a coding agent's CLI in the case's workspace: each case gets a workspace (an
 * empty one without a template), a log of the agent's stream, and no retries by default.
 */
export const AGENT_PROVIDERS = [
  "claude-code",
  "codex",
  "gemini-cli",
  "qwen-code",
  "copilot-cli",
  "opencode",
] as const satisfies readonly RunnableProvider[];

/** An agent CLI provider kind. */
export type AgentProvider = typeof AGENT_PROVIDERS[number];

/** Whether `kind` runs an agent CLI (see {@link AGENT_PROVIDERS}). */
export function isAgentProvider(kind: string): kind is AgentProvider {
  return (AGENT_PROVIDERS as readonly string[]).includes(kind);
}

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
  qwen: "qwen-code",
  copilot: "copilot-cli",
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
  "gemini-cli": { command: "executable", binary: "executable", arguments: "args" },
  "qwen-code": { command: "executable", binary: "executable", arguments: "args" },
  "copilot-cli": { command: "executable", binary: "executable", arguments: "args" },
  opencode: { command: "executable", binary: "executable", arguments: "args" },
};
