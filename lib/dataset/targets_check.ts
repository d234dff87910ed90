/**
 * Checks of targets files and target definitions against the schemas of `lib/schema/targets.ts`:
 * unknown providers and settings ("did you mean"), setting types, required settings, CLI
 * placeholders, duplicate names and `judge_target` references. Issues carry document paths;
 * `targets_file.ts` turns them into `file:line:col` diagnostics.
 *
 * @module
 */
import {
  canonicalProvider,
  CLI_PLACEHOLDERS,
  type CliHealthcheck,
  COMMON_SETTINGS,
  isRunnableProvider,
  KNOWN_PROVIDER_NAMES,
  type ParsedTargetSettings,
  RUNNABLE_PROVIDERS,
  type RunnableProvider,
  type SchemaMode,
  SETTING_ALIASES,
  targetSettingsSchema,
  type TargetsIssue,
  UNSUPPORTED_SETTINGS,
} from "../schema/targets.ts";
import { suggest } from "../text/suggest.ts";
import { invalidEnvRefs } from "./env.ts";

/**
 * Checks one target definition (unresolved in `file` mode, or with every `${{ }}` already
 * substituted in `resolved` mode). Paths in issues are relative to the definition.
 */
export function checkTargetDefinition(
  raw: unknown,
  mode: SchemaMode = "file",
): { issues: TargetsIssue[]; parsed?: ParsedTargetSettings } {
  const issues: TargetsIssue[] = [];
  const error = (path: (string | number)[], message: string) =>
    issues.push({ severity: "error", path, message });
  const warning = (path: (string | number)[], message: string, atKey = false) =>
    issues.push({ severity: "warning", path, message, ...(atKey ? { atKey } : {}) });
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    error([], "a target must be a mapping with at least `name` and `provider`");
    return { issues };
  }
  const def = raw as Record<string, unknown>;
  const targetName = typeof def.name === "string" ? def.name : "?";
  if (typeof def.provider !== "string" || def.provider.trim() === "") {
    error(
      def.provider === undefined ? [] : ["provider"],
      `target '${targetName}' is missing a valid provider; add \`provider:\` (one of ${
        RUNNABLE_PROVIDERS.join(", ")
      })`,
    );
  }
  if (typeof def.name !== "string" || def.name.trim() === "") {
    error(def.name === undefined ? [] : ["name"], "target is missing a valid name; add `name:`");
  }
  if (issues.length > 0) return { issues };
  const kind = canonicalProvider(def.provider as string);
  if (kind === undefined) {
    const guess = suggest(def.provider as string, KNOWN_PROVIDER_NAMES);
    error(
      ["provider"],
      `unknown provider '${def.provider}'; expected one of ${RUNNABLE_PROVIDERS.join(", ")}${
        guess ? `; did you mean '${guess}'?` : ""
      }`,
    );
    return { issues };
  }
  if (!isRunnableProvider(kind)) {
    const known = [...COMMON_SETTINGS, ...UNSUPPORTED_SETTINGS[kind]];
    for (const key of Object.keys(def)) {
      if (!known.includes(key)) warnUnknown(warning, key, kind, known);
    }
    return { issues, parsed: { provider: kind, settings: def } };
  }
  const aliases = SETTING_ALIASES[kind];
  const schema = targetSettingsSchema(kind, mode);
  const known = Object.keys(schema.shape);
  const normalised: Record<string, unknown> = {};
  const origin: Record<string, string> = {};
  for (const [key, value] of Object.entries(def)) {
    const canonical = canonicalKey(key, known, aliases);
    if (canonical === undefined) {
      warnUnknown(warning, key, kind, [...known, ...Object.keys(aliases)]);
      continue;
    }
    if (canonical in normalised) {
      error([key], `'${key}' and '${origin[canonical]}' both set ${canonical}; keep one of them`);
      continue;
    }
    normalised[canonical] = value;
    origin[canonical] = key;
  }
  const result = schema.safeParse(normalised);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const [head, ...rest] = issue.path as (string | number)[];
      const path = head === undefined ? [] : [origin[head as string] ?? head, ...rest];
      error(path, issue.message);
    }
  }
  const settings = (result.success ? result.data : normalised) as Record<string, unknown>;
  checkProviderRules(kind, settings, origin, error, warning, mode);
  if (issues.some((i) => i.severity === "error")) return { issues };
  return { issues, parsed: { provider: kind, settings } as ParsedTargetSettings };
}

/**
 * Checks a whole targets file value (as parsed from YAML/JSONC): shape, every target, duplicate
 * names and `judge_target` references.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkTargetsFile } from "./targets_check.ts";
 * const issues = checkTargetsFile({ targets: [{ name: "default", provider: "opnai" }] });
 * assert.deepEqual(issues.map((i) => [i.severity, i.path]), [["error", ["targets", 0, "provider"]]]);
 * assert.match(issues[0].message, /did you mean 'openai'\?/);
 * ```
 */
export function checkTargetsFile(value: unknown): TargetsIssue[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return [{
      severity: "error",
      path: [],
      message: "a targets file must be a mapping with a `targets:` list",
    }];
  }
  const file = value as Record<string, unknown>;
  const issues: TargetsIssue[] = [];
  for (const key of Object.keys(file)) {
    if (key !== "$schema" && key !== "targets") {
      const guess = suggest(key, ["targets", "$schema"]);
      issues.push({
        severity: "warning",
        atKey: true,
        path: [key],
        message: `unknown key '${key}' is ignored${guess ? `; did you mean '${guess}'?` : ""}`,
      });
    }
  }
  if (file.$schema !== undefined && typeof file.$schema !== "string") {
    issues.push({ severity: "error", path: ["$schema"], message: "$schema must be a string" });
  }
  if (!Array.isArray(file.targets)) {
    issues.push({
      severity: "error",
      path: file.targets === undefined ? [] : ["targets"],
      message: file.targets === undefined
        ? "missing `targets:`; add a list of targets, e.g. `targets: [{name: default, provider: openai, model: gpt-4o-mini}]`"
        : "targets must be a list of target mappings",
    });
    return issues;
  }
  const seen = new Map<string, number>();
  const names = [
    ...new Set(
      file.targets
        .map((t) => (t && typeof t === "object" ? (t as Record<string, unknown>).name : undefined))
        .filter((n): n is string => typeof n === "string"),
    ),
  ];
  file.targets.forEach((target, index) => {
    const { issues: own } = checkTargetDefinition(target, "file");
    for (const issue of own) issues.push({ ...issue, path: ["targets", index, ...issue.path] });
    for (const ref of invalidEnvRefs(target)) {
      issues.push({
        severity: "error",
        path: ["targets", index, ...ref.path],
        message:
          `'${ref.text}' is not a valid variable reference: a name starts with a letter or _ and holds only letters, digits and _; fix the name (it would be sent literally)`,
      });
    }
    if (!target || typeof target !== "object") return;
    const def = target as Record<string, unknown>;
    if (typeof def.name === "string") {
      const first = seen.get(def.name);
      if (first !== undefined) {
        issues.push({
          severity: "error",
          path: ["targets", index, "name"],
          message:
            `duplicate target name '${def.name}' (first defined at targets[${first}]); rename one of them`,
        });
      } else seen.set(def.name, index);
    }
    if (typeof def.judge_target === "string" && !names.includes(def.judge_target)) {
      const guess = suggest(def.judge_target, names);
      issues.push({
        severity: "error",
        path: ["targets", index, "judge_target"],
        message:
          `judge_target '${def.judge_target}' is not defined in this file; defined targets: ${
            names.join(", ")
          }${guess ? `; did you mean '${guess}'?` : ""}`,
      });
    }
  });
  return issues;
}

/**
 * Parses one resolved target definition (every `${{ }}` substituted) into typed settings;
 * throws an `Error` listing the problems when it is invalid.
 */
export function parseTargetSettings(definition: Record<string, unknown>): ParsedTargetSettings {
  const { issues, parsed } = checkTargetDefinition(definition, "resolved");
  const errors = issues.filter((i) => i.severity === "error");
  if (parsed === undefined || errors.length > 0) {
    throw new Error(
      errors.map((e) => {
        const where = e.path.join(".");
        return where === "" || e.message.startsWith(where) ? e.message : `${where}: ${e.message}`;
      }).join("; "),
    );
  }
  return parsed;
}

function checkProviderRules(
  kind: RunnableProvider,
  s: Record<string, unknown>,
  origin: Record<string, string>,
  error: (path: (string | number)[], message: string) => void,
  warning: (path: (string | number)[], message: string) => void,
  mode: SchemaMode,
): void {
  const name = s.name as string;
  const requireKey = (key: string, hint: string) => {
    if (s[key] === undefined || s[key] === "") {
      error([], `${kind} target '${name}' needs \`${key}\`; ${hint}`);
    }
  };
  switch (kind) {
    case "openai":
      requireKey("model", "add e.g. `model: gpt-4o-mini`");
      break;
    case "azure":
      requireKey("endpoint", "add `endpoint:` (a URL or the Azure resource name)");
      requireKey("api_key", "add `api_key: ${{ AZURE_OPENAI_API_KEY }}`");
      if (s.model === undefined && s.deployment === undefined) {
        error(
          [],
          `azure target '${name}' needs \`model\` (the deployment name); add \`model: \${{ AZURE_DEPLOYMENT_NAME }}\``,
        );
      }
      break;
    case "anthropic":
      requireKey("api_key", "add `api_key: ${{ ANTHROPIC_API_KEY }}`");
      requireKey("model", "add e.g. `model: claude-sonnet-4-5`");
      if (
        typeof s.thinking_budget === "number" && typeof s.max_tokens === "number" &&
        s.thinking_budget >= s.max_tokens
      ) {
        error([origin.thinking_budget], "thinking_budget must be less than max_tokens");
      }
      break;
    case "gemini":
      requireKey("api_key", "add `api_key: ${{ GOOGLE_GENERATIVE_AI_API_KEY }}`");
      break;
    case "cli": {
      requireKey(
        "command_template",
        "add e.g. `command_template: ./agent.sh {PROMPT} {OUTPUT_FILE}`",
      );
      const templates: [(string | number)[], unknown][] = [
        [[origin.command_template], s.command_template],
      ];
      const hc = s.healthcheck as CliHealthcheck | undefined;
      if (hc?.type === "command") {
        templates.push([[origin.healthcheck, "command_template"], hc.command_template]);
      }
      for (const [path, template] of templates) {
        if (typeof template !== "string") continue;
        const withoutEnv = template.replace(/\$\{\{[^}]*\}\}/g, "");
        for (const match of withoutEnv.matchAll(/\{([A-Z][A-Z0-9_]*)\}/g)) {
          if (!(CLI_PLACEHOLDERS as readonly string[]).includes(match[1])) {
            const guess = suggest(match[1], CLI_PLACEHOLDERS);
            error(
              path,
              `unsupported placeholder '{${match[1]}}'; supported: ${
                CLI_PLACEHOLDERS.map((p) => `{${p}}`).join(", ")
              }${guess ? `; did you mean '{${guess}}'?` : ""}`,
            );
          }
        }
      }
      if (s.provider_batching === true && mode === "file") {
        warning(
          [origin.provider_batching],
          "provider_batching is not supported by agentv; the command runs once per case",
        );
      }
      break;
    }
    case "mock":
      break;
  }
}

function canonicalKey(
  key: string,
  known: readonly string[],
  aliases: Record<string, string>,
): string | undefined {
  for (const candidate of [key, toSnake(key)]) {
    if (known.includes(candidate)) return candidate;
    if (candidate in aliases) return aliases[candidate];
  }
  return undefined;
}

function warnUnknown(
  warning: (path: (string | number)[], message: string, atKey?: boolean) => void,
  key: string,
  kind: string,
  known: readonly string[],
): void {
  const guess = suggest(key, known);
  warning(
    [key],
    `unknown setting '${key}' for the ${kind} provider is ignored${
      guess ? `; did you mean '${guess}'?` : ""
    }`,
    true,
  );
}

function toSnake(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}
