/**
 * `agentv validate [file|folder|glob]...` (default: the current folder): checks eval files (YAML and JSONL) and the
 * `.agentv/targets.*` and `.agentv/config.yaml` files found in or named by the arguments, each
 * inside the runtime sandbox, then every case's target against the targets file a run would use
 * (so a file `validate` accepts is one `run --dry-run` runs without a loader or target error).
 * Prints one line per file, every diagnostic and a summary.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { discoverEvalFiles, dropNamedSidecars } from "../dataset/discover.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { commandInfo } from "./commands.ts";
import {
  createPaint,
  createSourceReader,
  renderDiagnostic,
  sortDiagnostics,
} from "../render/diagnostics.ts";
import { displayPath } from "../fs/display_path.ts";
import { checkDotEnvReads } from "./validate_env.ts";
import { findSettingsFiles, settingsKind } from "./validate_files.ts";
import {
  type FileKind,
  type FileReport,
  sandboxRoot,
  type TargetCheck,
} from "../dataset/sandbox.ts";
import { type PostedRead, validateInSandboxes } from "./validate_sandboxes.ts";
import { ConsentListing } from "./validate_listing.ts";

/** Totals over all validated files. */
export interface ValidateSummary {
  /** Files validated. */
  files: number;
  /** Files without error diagnostics. */
  valid: number;
  /** Files with at least one error. */
  invalid: number;
  /** Error diagnostics over all files. */
  errors: number;
  /** Warning diagnostics over all files. */
  warnings: number;
}

/** The outcome of a validate run (what `--json` prints, with paths relative to the cwd). */
export interface ValidateResult {
  /** One report per file, in path order. */
  files: FileReport[];
  /** Arguments that named nothing (missing paths, globs without matches). */
  problems: string[];
  /** Totals. */
  summary: ValidateSummary;
}

/** Options of {@link validatePaths}. */
export interface ValidatePathsOptions {
  /** Base of relative arguments. */
  cwd: string;
  /** Dataset root for every file (default: discovered per file). */
  root?: string;
  /** Report verbose-only warnings (missing sidecar). */
  verbose?: boolean;
  /** Stops between files (rejects with the abort reason). */
  signal?: AbortSignal;
  /** Targets file (absolute) for every eval file instead of the discovered one (`--targets`). */
  targetsFile?: string;
  /** Target for every case instead of its own (`--target`). */
  targetOverride?: string | string[];
  /** Judge target for every case instead of its target's `judge_target` (`--judge-target`). */
  judgeOverride?: string;
  /**
   * Called when this thread has nothing to do but wait for the reports (see `whileWaiting` of
   * `validateInSandboxes`; maybe more than once), with the eval files being validated: what
   * comes after them can be prepared then.
   */
  whileWaiting?: (evalFiles: string[], read?: PostedRead) => void;
}

/**
 * Finds the files named by `args` (files, folders, globs) and validates each in the sandbox, one
 * worker per dataset root.
 *
 * @example
 * ```ts
 * const result = await validatePaths(["evals/"], { cwd: "/repo" });
 * console.log(result.summary.invalid === 0 ? "all valid" : "invalid files");
 * ```
 */
export async function validatePaths(
  args: string[],
  options: ValidatePathsOptions,
): Promise<ValidateResult> {
  const { cwd } = options;
  const kinds = new Map<string, FileKind>();
  const problems: string[] = [];
  for (const arg of args) {
    const path = resolve(cwd, arg);
    const info = await statOrUndefined(path);
    // A FIFO or device named like a settings file is validated too (and refused by the reader).
    const kind = info !== undefined && !info.isDirectory
      ? settingsKind(path, { explicit: true })
      : undefined;
    if (kind) {
      kinds.set(path, kind);
      continue;
    }
    const settings = info?.isDirectory
      ? await findSettingsFiles(path)
      : new Map<string, FileKind>();
    const discovered = await discoverEvalFiles([arg], { cwd });
    for (const file of discovered.files) kinds.set(resolve(cwd, file), "eval");
    for (const [file, fileKind] of settings) kinds.set(file, fileKind);
    // A folder holding only `.agentv/` files is not a mistake.
    if (discovered.files.length > 0 || settings.size === 0) problems.push(...discovered.problems);
  }
  // A sidecar named next to its JSONL (e.g. a shell-expanded `evals/*`) is validated with it.
  dropNamedSidecars(kinds);
  const files = [...kinds.keys()].sort();

  // One sandbox worker per dataset root; a few roots are validated at the same time because
  // starting a worker (loading the loader's modules) costs more than validating a file.
  const byRoot = new Map<string, string[]>();
  const rootOfDir = new Map<string, string>();
  for (const file of files) {
    // Files of one folder share a dataset root.
    const dir = dirname(file);
    let root = rootOfDir.get(dir);
    if (root === undefined) {
      root = await sandboxRoot(file, { root: options.root });
      rootOfDir.set(dir, root);
    }
    const group = byRoot.get(root);
    if (group) group.push(file);
    else byRoot.set(root, [file]);
  }
  const check: TargetCheck = {
    cwd,
    ...(options.targetsFile !== undefined ? { targetsFile: options.targetsFile } : {}),
    ...(options.targetOverride !== undefined ? { targetOverride: options.targetOverride } : {}),
    ...(options.judgeOverride !== undefined ? { judgeOverride: options.judgeOverride } : {}),
  };
  const reports = await validateInSandboxes(byRoot, {
    kinds,
    check,
    alsoRead: options.targetsFile !== undefined ? [options.targetsFile] : [],
    ...(options.verbose !== undefined ? { verbose: options.verbose } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    ...(options.whileWaiting !== undefined
      ? {
        whileWaiting: (read?: PostedRead) =>
          options.whileWaiting!(files.filter((f) => kinds.get(f) === "eval"), read),
      }
      : {}),
  });
  const ordered = files.map((file) => reports.get(file)!);
  // A `.env` that `run` would refuse to read is reported too (readable ones are not listed).
  const envReports = await checkDotEnvReads(ordered, {
    rootOf: (file) => rootOfDir.get(dirname(file))!,
  });
  if (envReports.length > 0) {
    ordered.push(...envReports);
    ordered.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  }
  return { files: ordered, problems, summary: summarize(ordered) };
}

/** Identity of a diagnostic, to show one reported by several files (a broken config) once. */
function diagnosticKey(d: Diagnostic): string {
  return [d.file, d.line, d.column, d.severity, d.message].join("\0");
}

/** Every distinct diagnostic of the reports. */
function distinctDiagnostics(reports: FileReport[]): Diagnostic[] {
  const seen = new Map<string, Diagnostic>();
  for (const d of reports.flatMap((r) => r.diagnostics)) seen.set(diagnosticKey(d), d);
  return [...seen.values()];
}

/** Counts valid and invalid files, and distinct errors and warnings. */
function summarize(reports: FileReport[]): ValidateSummary {
  const all = distinctDiagnostics(reports);
  return {
    files: reports.length,
    valid: reports.filter((r) => r.valid).length,
    invalid: reports.filter((r) => !r.valid).length,
    errors: all.filter((d) => d.severity === "error").length,
    warnings: all.filter((d) => d.severity === "warning").length,
  };
}

async function statOrUndefined(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.stat(path);
  } catch {
    return undefined;
  }
}

/**
 * Human-readable text of a validate run: per file a ✓/✗ line with counts, its diagnostics (with
 * source excerpts), then a summary line.
 *
 * @example
 * ```ts
 * const result = await validatePaths(["evals/"], { cwd: "/repo" });
 * console.log(formatValidateResult(result, { cwd: "/repo", color: false }));
 * ```
 */
export function formatValidateResult(
  result: ValidateResult,
  options: { cwd: string; color: boolean },
): string {
  const paint = createPaint(options.color);
  const sourceLines = createSourceReader();
  const printed = new Set<string>();
  const out: string[] = [];
  for (const report of result.files) {
    const errors = report.diagnostics.filter((d) => d.severity === "error").length;
    const warnings = report.diagnostics.length - errors;
    const parts = [
      report.kind === "eval"
        ? plural(report.cases, "case")
        : report.kind === "env"
        ? ".env file"
        : `${report.kind} file`,
    ];
    if (errors) parts.push(plural(errors, "error"));
    if (warnings) parts.push(plural(warnings, "warning"));
    const mark = report.valid ? paint.green("✓") : paint.red("✗");
    out.push(`${mark} ${displayPath(report.file, options.cwd)} (${parts.join(", ")})`);
    for (const diagnostic of sortDiagnostics(report.diagnostics)) {
      // A problem in a shared file (e.g. a broken `.agentv/config.yaml`) is shown once.
      const key = diagnosticKey(diagnostic);
      if (diagnostic.file !== report.file && printed.has(key)) continue;
      printed.add(key);
      out.push(
        renderDiagnostic(diagnostic, { cwd: options.cwd, color: options.color, sourceLines }),
      );
    }
  }
  const s = result.summary;
  const counts = [plural(s.errors, "error"), plural(s.warnings, "warning")].join(", ");
  const verdict = s.invalid === 0
    ? paint.green(`${plural(s.files, "file")} valid`)
    : paint.red(`${s.invalid} of ${plural(s.files, "file")} invalid`);
  out.push(`${verdict} (${counts})`);
  return out.join("\n") + "\n";
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** A copy of the result with every path relative to `cwd` (for `--json`). */
function relativeResult(result: ValidateResult, cwd: string): ValidateResult {
  const rel = (d: Diagnostic): Diagnostic => ({
    severity: d.severity,
    file: displayPath(d.file, cwd),
    line: d.line,
    column: d.column,
    path: d.path,
    message: d.message,
  });
  return {
    ...result,
    files: result.files.map((r) => ({
      file: displayPath(r.file, cwd),
      kind: r.kind,
      valid: r.valid,
      cases: r.cases,
      diagnostics: sortDiagnostics(r.diagnostics).map(rel),
    })),
  };
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  // No path: the current folder, as `agentv run` does.
  const paths = args.positionals.length > 0 ? args.positionals : ["."];
  let root: string | undefined;
  if (typeof args.values.root === "string") {
    root = resolve(io.cwd, args.values.root);
    const info = await statOrUndefined(root);
    if (!info?.isDirectory) {
      throw new UsageError(
        `--root '${args.values.root}' is not a folder`,
        "pass the folder that contains your eval files and everything they reference",
      );
    }
  }
  const targetOverride = await targetOverrideOf(args.values.target);
  const judgeOverride = typeof args.values["judge-target"] === "string"
    ? args.values["judge-target"]
    : undefined;
  const targetsFile = typeof args.values.targets === "string"
    ? await (await import("./validate_targets.ts")).explicitTargetsFile(args.values.targets, io.cwd)
    : undefined;
  const consent = new ConsentListing({
    ...(root !== undefined ? { root } : {}),
    ...(targetsFile !== undefined ? { targetsFile } : {}),
  });
  let result: ValidateResult;
  try {
    result = await validatePaths(paths, {
      cwd: io.cwd,
      root,
      ...(targetsFile !== undefined ? { targetsFile } : {}),
      ...(targetOverride !== undefined ? { targetOverride } : {}),
      ...(judgeOverride !== undefined ? { judgeOverride } : {}),
      verbose: args.values.verbose === true,
      signal: io.signal,
      whileWaiting: (evalFiles, read) => consent.prepare(evalFiles, read),
    });
  } catch (error) {
    if (io.signal.aborted) {
      io.stderr("Interrupted\n");
      return 130;
    }
    throw error;
  }
  const paint = createPaint(io.color);
  for (const problem of result.problems) {
    io.stderr(`${paint.red(paint.bold("error"))}: ${problem}\n`);
  }
  if (result.files.length === 0 && result.problems.length === 0) {
    throw new UsageError(
      `No eval files found in ${paths.map((p) => `'${p}'`).join(", ")}`,
      "eval files end in .yaml, .yml or .jsonl",
    );
  }
  // What the roots ask consent for: the same listing as `agentv trust --list`.
  const { module, found } = await consent.of(result.files, io.envAll());
  if (args.values.json === true) {
    const json = {
      ...relativeResult(result, io.cwd),
      consent: await module.jsonValidateConsent(found, io),
    };
    io.stdout(JSON.stringify(json, null, 2) + "\n");
  } else if (result.files.length > 0) {
    io.stdout(
      formatValidateResult(result, { cwd: io.cwd, color: io.color }) +
        await module.formatValidateConsent(found, io),
    );
  }
  if (result.problems.length > 0) return 2;
  return result.summary.invalid > 0 ? 1 : 0;
}

/** The `validate` command. */
export const validateCommand: Command = {
  ...commandInfo("validate"),
  usage:
    "agentv validate [file|folder|glob]... [--target NAME[,NAME...]] [--judge-target NAME] [--targets FILE] [--root DIR] [--verbose] [--json]",
  options: {
    target: {
      type: "string",
      valueName: "NAME[,NAME...]",
      description: "Check every case against this target (or each of a,b,c), as run --target does",
    },
    "judge-target": {
      type: "string",
      valueName: "NAME",
      description: "Check every judged case against this judge, as run --judge-target does",
    },
    targets: {
      type: "string",
      valueName: "FILE",
      description: "Targets file (default: nearest .agentv/targets.yaml), as run --targets does",
    },
    root: {
      type: "string",
      valueName: "DIR",
      description:
        "Dataset root: files may reference only files inside it (default: nearest folder with .agentv/ or .git)",
    },
    verbose: {
      type: "boolean",
      short: "v",
      description: "Also show verbose-only warnings (e.g. a JSONL file without a sidecar)",
    },
    json: { type: "boolean", description: "Print the reports as JSON" },
  },
  run,
};

/** `--target NAME` or `--target a,b,c`, read as `run --target` reads it. */
async function targetOverrideOf(value: unknown): Promise<string | string[] | undefined> {
  if (typeof value !== "string") return undefined;
  const { targetNamesText } = await import("../schema/run_option.ts");
  const read = targetNamesText(value);
  if (!read.ok) throw new UsageError(read.message, read.hint);
  return read.value;
}
