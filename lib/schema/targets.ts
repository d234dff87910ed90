/**
 * Targets files (`.agentv/targets.yaml`): `{ $schema?, targets: [{ name, provider, ...settings }] }`
 * with flat provider settings beside the common keys. A target may `extends:` another of the file
 * and override some of its settings (`lib/dataset/target_extends.ts`; a loaded file holds its
 * targets resolved). Values may be `${{ VAR }}` references until a target is resolved; {@link checkTargetsFile} validates a whole file (errors and
 * "did you mean" warnings with document paths) and {@link parseTargetSettings} turns one resolved
 * definition into typed settings.
 *
 * This module holds the targets-file schema and re-exports the rest: provider names and aliases
 * (`target_providers.ts`), the settings value helpers' mode (`target_setting_values.ts`) and the
 * per-provider settings schemas and types (`target_settings.ts`).
 *
 * @module
 */
import { z } from "zod";

export {
  AGENT_PROVIDERS,
  canonicalProvider,
  isAgentProvider,
  isRunnableProvider,
  KNOWN_PROVIDER_NAMES,
  PROVIDER_ALIASES,
  RUNNABLE_PROVIDERS,
  SETTING_ALIASES,
  UNSUPPORTED_PROVIDERS,
  UNSUPPORTED_SETTINGS,
} from "./target_providers.ts";
export type { AgentProvider, ProviderKind, RunnableProvider } from "./target_providers.ts";
export { WHOLE_ENV_REF } from "./target_setting_values.ts";
export type { SchemaMode } from "./target_setting_values.ts";
export { CLI_PLACEHOLDERS, COMMON_SETTINGS, targetSettingsSchema } from "./target_settings.ts";
export type {
  AnthropicSettings,
  AzureSettings,
  ClaudeCodeSettings,
  CliHealthcheck,
  CliSettings,
  CodexSettings,
  CopilotCliSettings,
  GeminiCliSettings,
  GeminiSettings,
  MockSettings,
  OpenAISettings,
  OpencodeSettings,
  ParsedTargetSettings,
  ProviderSettingsMap,
  QwenCodeSettings,
} from "./target_settings.ts";

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

/** Minimal shape of a target entry (full checks: `lib/dataset/targets_check.ts`). */
export const TargetDefinitionSchema: z.ZodType<TargetDefinition> = z.looseObject({
  name: z.string().min(1),
  provider: z.string().min(1),
  judge_target: z.string().optional(),
});

/** Minimal shape of a targets file (full checks: `lib/dataset/targets_check.ts`). */
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
