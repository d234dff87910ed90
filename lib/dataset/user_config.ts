/**
 * The user's own config, `config.yaml` in the user's agentv folder (`$XDG_CONFIG_HOME/agentv`,
 * else `$HOME/.config/agentv`): settings only the user decides, outside every dataset. It sets
 * `cache:`, the cache mode of runs without `--cache` (a dataset's `.agentv/config.yaml` can only
 * restrict it).
 *
 * @module
 */
import { join } from "node:path";
import { parseUserConfig, type UserConfig, UserConfigSchema } from "../schema/config.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import { parseYamlSource } from "./yaml_source.ts";
import { suggest } from "../text/suggest.ts";
import { userConfigDir } from "../fs/user_config_dir.ts";
import { EvalLoadError, formatPath } from "./errors.ts";
import { reportIssues, type SchemaIssue } from "./issues.ts";
import { readConfinedText } from "../fs/read_confined.ts";

/** File name of the user config in the user's agentv folder. */
export const USER_CONFIG_FILE = "config.yaml";

/** A user config that was found. */
export interface LoadedUserConfig extends UserConfig {
  /** The file (absolute). */
  file: string;
}

/**
 * Reads the user's config for `env`; `undefined` when there is none (or no user folder is
 * known). A config that cannot be used (not a regular file, not YAML, an unknown key or a bad
 * value) throws `EvalLoadError` with the problem at its line and column: a user's own setting
 * is never ignored silently.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadUserConfig } from "./user_config.ts";
 * const home = await Deno.makeTempDir();
 * assert.equal(await loadUserConfig({ XDG_CONFIG_HOME: home }), undefined);
 * await Deno.mkdir(`${home}/agentv`);
 * await Deno.writeTextFile(`${home}/agentv/config.yaml`, "cache: readwrite\n");
 * assert.equal((await loadUserConfig({ XDG_CONFIG_HOME: home }))?.cache, "readwrite");
 * await Deno.remove(home, { recursive: true });
 * ```
 */
export async function loadUserConfig(
  env: Readonly<Record<string, string>>,
): Promise<LoadedUserConfig | undefined> {
  const dir = userConfigDir((name) => env[name]);
  if (dir === undefined) return undefined;
  const file = join(dir, USER_CONFIG_FILE);
  const read = await readConfinedText(file, { label: "user config file" });
  if (!read.ok) {
    if (read.reason === "missing") return undefined;
    throw EvalLoadError.from([read.diagnostic]);
  }
  const fail = (diagnostics: Diagnostic[]) => EvalLoadError.from(diagnostics);
  const parsed = await parseYamlSource(read.text);
  if (!parsed.ok) {
    throw fail(parsed.errors.map((e) => ({
      severity: "error" as const,
      file,
      line: e.position?.line,
      column: e.position?.column,
      message: e.message,
    })));
  }
  const result = parseUserConfig(parsed.source.value ?? {});
  if (result.success) return { file, ...result.data };
  // Unknown keys are errors here too: a misspelt setting of the user's must not be dropped.
  const report = reportIssues(result.error.issues as unknown as SchemaIssue[]);
  throw fail(report.findings.map((f) => {
    const pos = parsed.source.locate(f.path, { key: f.atKey });
    return {
      severity: "error" as const,
      file,
      line: pos?.line,
      column: pos?.column,
      ...(f.path.length > 0 ? { path: formatPath(f.path) } : {}),
      message: f.atKey ? unknownKey(String(f.path.at(-1))) : f.message,
    };
  }));
}

/** The message for an unknown key of the user config. */
function unknownKey(key: string): string {
  const known = Object.keys(UserConfigSchema.shape).filter((k) => k !== "$schema");
  const guess = suggest(key, known);
  return `Unknown key '${key}'; ${guess ? `did you mean '${guess}'? ` : ""}a user config sets ${
    known.join(", ")
  } only; rename or remove the key`;
}
