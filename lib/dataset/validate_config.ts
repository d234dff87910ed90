/**
 * Validation of `.agentv/config.yaml` for `agentv validate`: UTF-8, YAML syntax, a mapping, and
 * the config schema (`guideline_patterns`: a list of glob patterns), with positions.
 *
 * @module
 */
import { formatPath } from "./errors.ts";
import { readConfinedText } from "../fs/read_confined.ts";
import { AgentvConfigSchema, parseAgentvConfig } from "../schema/config.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import { parseYamlSource, type PathKey } from "./yaml_source.ts";
import { suggest } from "../text/suggest.ts";

/** The keys a config file may hold. */
const CONFIG_KEYS = Object.keys(AgentvConfigSchema.shape);

/**
 * Validates a `.agentv/config.yaml` file. Never throws for problems in the file: unreadable,
 * refused (a link leading outside `options.root`, not a regular file, over 1 MiB) or invalid
 * files come back with error diagnostics; unknown keys and an empty
 * `guideline_patterns` are warnings.
 *
 * @example
 * ```ts
 * const report = await validateConfigFile(".agentv/config.yaml");
 * // { file: ".agentv/config.yaml", valid: true, diagnostics: [] }
 * ```
 */
export async function validateConfigFile(
  path: string,
  options: { root?: string } = {},
): Promise<{ file: string; valid: boolean; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const done = () => ({
    file: path,
    valid: !diagnostics.some((d) => d.severity === "error"),
    diagnostics,
  });
  // Links leading outside `options.root`, FIFOs, devices and files over 1 MiB are refused.
  const read = await readConfinedText(path, {
    label: "config file",
    ...(options.root !== undefined ? { root: options.root } : {}),
  });
  if (!read.ok) {
    diagnostics.push(read.diagnostic);
    return done();
  }
  const parsed = await parseYamlSource(read.text);
  if (!parsed.ok) {
    for (const problem of parsed.errors) {
      diagnostics.push({
        severity: "error",
        file: path,
        ...problem.position,
        message: problem.message,
      });
    }
    return done();
  }
  const { source } = parsed;
  const at = (keyPath: PathKey[], key = false) => ({
    ...source.locate(keyPath, { key }),
    ...(keyPath.length > 0 ? { path: formatPath(keyPath) } : {}),
  });
  for (const problem of source.warnings) {
    diagnostics.push({
      severity: "warning",
      file: path,
      ...problem.position,
      message: problem.message,
    });
  }
  const value = source.value ?? {};
  if (typeof value !== "object" || Array.isArray(value)) {
    diagnostics.push({
      severity: "error",
      file: path,
      ...at([]),
      message:
        "The config file is not a mapping; expected keys such as `guideline_patterns:`; write `guideline_patterns:` followed by a list of glob patterns",
    });
    return done();
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record).filter((k) => !CONFIG_KEYS.includes(k))) {
    const guess = suggest(key, CONFIG_KEYS);
    diagnostics.push({
      severity: "warning",
      file: path,
      ...at([key], true),
      message: `Unknown key '${key}' in the config file; ${
        guess ? `did you mean '${guess}'?` : `expected ${CONFIG_KEYS.join(" or ")};`
      } the key is ignored; remove or rename it`,
    });
  }
  const known = Object.fromEntries(Object.entries(record).filter(([k]) => CONFIG_KEYS.includes(k)));
  const result = parseAgentvConfig(known);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const issuePath = issue.path.filter((k): k is PathKey =>
        typeof k === "string" || typeof k === "number"
      );
      diagnostics.push({
        severity: "error",
        file: path,
        ...at(issuePath),
        message: `${issue.message}; fix the value at ${formatPath(issuePath) || "the top"}`,
      });
    }
  } else if (result.data.guideline_patterns?.length === 0) {
    diagnostics.push({
      severity: "warning",
      file: path,
      ...at(["guideline_patterns"]),
      message:
        "guideline_patterns is empty, so no referenced file is treated as a guideline; add patterns such as '**/*.instructions.md' or remove the key to use the defaults",
    });
  }
  return done();
}
