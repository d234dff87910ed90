/**
 * `.agentv/config.yaml` discovery: the nearest one between the eval file's folder and the
 * dataset root sets `guideline_patterns` and the run settings (`cache`, which can only restrict
 * the cache, `cache_dir`, `budget_usd`). The config schema (zod) is imported only when there is a
 * config file to check.
 *
 * @module
 */
import type { RunConfigSettings } from "../schema/config.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import { parseYamlSource } from "./yaml_source.ts";
import { EvalLoadError, formatPath } from "./errors.ts";
import { globProblem, loadGlobs } from "../text/glob.ts";
import type { SchemaIssue } from "./issues.ts";
import { isNonFolderEntry, readConfinedText } from "../fs/read_confined.ts";
import { findUpward } from "../fs/resolve.ts";

/** Guideline patterns used when no config sets `guideline_patterns`. */
export const DEFAULT_GUIDELINE_PATTERNS: readonly string[] = [
  "**/*.instructions.md",
  "**/*.prompt.md",
  "**/SKILL.md",
];

/** The guideline settings that apply to one eval file. */
export interface GuidelineConfig {
  /** Glob patterns (defaults when no config sets them). */
  patterns: readonly string[];
  /** The config file used, when one was found. */
  file?: string;
  /** Problems found in the config file. */
  diagnostics: Diagnostic[];
  /** Its run settings (`cache`, `cache_dir`, `budget_usd`), when it is valid and sets any. */
  run?: RunConfigSettings;
}

/** Where a config file lives, relative to a folder between the eval file and the root. */
export const CONFIG_FILE = ".agentv/config.yaml";

/**
 * Finds and reads the nearest `.agentv/config.yaml` between `evalDir` and `root`. A config that
 * cannot be used is reported (error diagnostics on the config file) and the default patterns
 * apply. One that must not be read (a link leading outside the root, not a regular file, over
 * 1 MiB) throws `EvalLoadError`.
 *
 * @example
 * ```ts
 * const config = await loadGuidelineConfig("/repo/evals", "/repo");
 * config.patterns; // ["**\/*.instructions.md", ...] unless a config sets others
 * ```
 */
export async function loadGuidelineConfig(evalDir: string, root: string): Promise<GuidelineConfig> {
  // A symlink, FIFO or device is found too, and refused below with a diagnostic.
  const file = await findUpward(evalDir, root, [CONFIG_FILE], {
    accept: isNonFolderEntry,
  });
  if (!file) return { patterns: DEFAULT_GUIDELINE_PATTERNS, diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const fail = (message: string, line?: number, column?: number): GuidelineConfig => {
    diagnostics.push({ severity: "error", file, line, column, message });
    return { patterns: DEFAULT_GUIDELINE_PATTERNS, file, diagnostics };
  };
  const read = await readConfinedText(file, { label: "config file", root });
  if (!read.ok) {
    // A config that must not be read (a link out of the root, a FIFO, over 1 MiB) stops loading.
    if (read.reason === "refused") throw EvalLoadError.from([read.diagnostic]);
    const { line, column, message } = read.diagnostic;
    return fail(message, line, column);
  }
  const parsed = await parseYamlSource(read.text);
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
  const [{ parseAgentvConfig }, { reportIssues }] = await Promise.all([
    import("../schema/config.ts"),
    import("./issues.ts"),
  ]);
  const result = parseAgentvConfig(value);
  if (result.success) {
    await loadGlobs(result.data.guideline_patterns ?? []);
    const run = runSettings(file, result.data);
    const guidelines = guidelinesOf(result.data.guideline_patterns, file, parsed.source);
    if (result.data.cache === "readwrite") {
      // A dataset's config can only restrict the cache (lib/run/run_cache.ts): this one
      // restricts nothing, and whoever wrote it likely expects it to turn the cache on.
      const pos = parsed.source.locate(["cache"]);
      guidelines.diagnostics.push({
        severity: "warning",
        file,
        line: pos?.line,
        column: pos?.column,
        message:
          "cache: readwrite in a dataset's config does not turn the cache on (a dataset may only restrict it); pass --cache readwrite, or set cache: in your own config ($XDG_CONFIG_HOME/agentv/config.yaml)",
      });
    }
    return run !== undefined ? { ...guidelines, run } : guidelines;
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
        ? `${f.message}; ${
          f.path[0] === "guideline_patterns" || f.path.length === 0
            ? "the default guideline patterns apply"
            : "the setting is ignored"
        }`
        : f.message,
    });
  }
  const onlyUnknown = report.findings.every((f) => f.severity === "warning");
  const guidelinesValid = !report.findings.some((f) =>
    f.severity === "error" && (f.path[0] === "guideline_patterns" || f.path.length === 0)
  );
  if (onlyUnknown || guidelinesValid) {
    const patterns = (value as { guideline_patterns?: unknown }).guideline_patterns;
    if (Array.isArray(patterns) && patterns.every((p) => typeof p === "string" && p !== "")) {
      return { patterns, file, diagnostics };
    }
  }
  return { patterns: DEFAULT_GUIDELINE_PATTERNS, file, diagnostics };
}

/** The run settings of a valid config, or `undefined` when it sets none. */
function runSettings(
  file: string,
  config: { cache?: RunConfigSettings["cache"]; cache_dir?: string; budget_usd?: number },
): RunConfigSettings | undefined {
  if (
    config.cache === undefined && config.cache_dir === undefined && config.budget_usd === undefined
  ) {
    return undefined;
  }
  return {
    file,
    ...(config.cache !== undefined ? { cache: config.cache } : {}),
    ...(config.cache_dir !== undefined ? { cache_dir: config.cache_dir } : {}),
    ...(config.budget_usd !== undefined ? { budget_usd: config.budget_usd } : {}),
  };
}

/** The guideline settings of a valid config: its patterns, unless one is not a usable glob. */
function guidelinesOf(
  configured: readonly string[] | undefined,
  file: string,
  source: { locate(path: (string | number)[]): { line: number; column: number } | undefined },
): GuidelineConfig {
  const diagnostics: Diagnostic[] = [];
  const patterns = configured ?? DEFAULT_GUIDELINE_PATTERNS;
  patterns.forEach((pattern, i) => {
    const problem = globProblem(pattern);
    if (problem === undefined) return;
    const pos = source.locate(["guideline_patterns", i]);
    diagnostics.push({
      severity: "error",
      file,
      line: pos?.line,
      column: pos?.column,
      message: `${problem}; the default guideline patterns apply`,
    });
  });
  return {
    patterns: diagnostics.length > 0 ? DEFAULT_GUIDELINE_PATTERNS : patterns,
    file,
    diagnostics,
  };
}
