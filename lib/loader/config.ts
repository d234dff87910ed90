/**
 * `.agentv/config.yaml` discovery: the nearest one between the eval file's folder and the
 * dataset root sets `guideline_patterns`.
 *
 * @module
 */
import { DEFAULT_GUIDELINE_PATTERNS, parseAgentvConfig } from "../schema/config.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import { decodeText } from "../source/decode.ts";
import { parseYamlSource } from "../source/yaml_source.ts";
import { formatPath } from "./errors.ts";
import { reportIssues, type SchemaIssue } from "./issues.ts";
import { findUpward } from "./resolve.ts";

/** The guideline settings that apply to one eval file. */
export interface GuidelineConfig {
  /** Glob patterns (defaults when no config sets them). */
  patterns: readonly string[];
  /** The config file used, when one was found. */
  file?: string;
  /** Problems found in the config file. */
  diagnostics: Diagnostic[];
}

/**
 * Finds and reads the nearest `.agentv/config.yaml` between `evalDir` and `root`. A config that
 * cannot be used is reported (error diagnostics on the config file) and the default patterns
 * apply.
 *
 * @example
 * ```ts
 * const config = await loadGuidelineConfig("/repo/evals", "/repo");
 * config.patterns; // ["**\/*.instructions.md", ...] unless a config sets others
 * ```
 */
export async function loadGuidelineConfig(evalDir: string, root: string): Promise<GuidelineConfig> {
  const file = await findUpward(evalDir, root, [".agentv/config.yaml"]);
  if (!file) return { patterns: DEFAULT_GUIDELINE_PATTERNS, diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const fail = (message: string, line?: number, column?: number): GuidelineConfig => {
    diagnostics.push({ severity: "error", file, line, column, message });
    return { patterns: DEFAULT_GUIDELINE_PATTERNS, file, diagnostics };
  };
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(file);
  } catch (e) {
    return fail(`Cannot read ${file}: ${e instanceof Error ? e.message : e}`);
  }
  const decoded = decodeText(bytes);
  if (!decoded.ok) return fail(decoded.message, decoded.position?.line, decoded.position?.column);
  const parsed = parseYamlSource(decoded.text);
  if (!parsed.ok) {
    for (const e of parsed.errors) {
      diagnostics.push({
        severity: "error",
        file,
        line: e.position?.line,
        column: e.position?.column,
        message: e.message,
      });
    }
    return { patterns: DEFAULT_GUIDELINE_PATTERNS, file, diagnostics };
  }
  const value = parsed.source.value ?? {};
  const result = parseAgentvConfig(value);
  if (result.success) {
    return {
      patterns: result.data.guideline_patterns ?? DEFAULT_GUIDELINE_PATTERNS,
      file,
      diagnostics,
    };
  }
  const report = reportIssues(result.error.issues as unknown as SchemaIssue[]);
  for (const f of report.findings) {
    const pos = parsed.source.locate(f.path, { key: f.atKey });
    diagnostics.push({
      severity: f.severity,
      file,
      line: pos?.line,
      column: pos?.column,
      path: f.path.length > 0 ? formatPath(f.path) : undefined,
      message: f.severity === "error"
        ? `${f.message}; the default guideline patterns apply`
        : f.message,
    });
  }
  const onlyUnknown = report.findings.every((f) => f.severity === "warning");
  if (onlyUnknown) {
    const patterns = (value as { guideline_patterns?: unknown }).guideline_patterns;
    if (Array.isArray(patterns) && patterns.every((p) => typeof p === "string" && p !== "")) {
      return { patterns, file, diagnostics };
    }
  }
  return { patterns: DEFAULT_GUIDELINE_PATTERNS, file, diagnostics };
}
