/**
 * Everything a load needs before the first case: the format (by extension), the dataset root,
 * the reference resolver and the guideline matcher.
 *
 * @module
 */
import { basename, dirname, extname, resolve } from "node:path";
import type { RunConfigSettings } from "../schema/config.ts";
import type { Diagnostic, EvalCase } from "../schema/eval_case.ts";
import type { CaseSite } from "./case_pipeline.ts";
import type { FileNeeds } from "./dataset_commands.ts";
import { decodeText } from "../fs/decode.ts";
import { linearRegexLoaded, loadLinearRegex } from "../text/linear_regex.ts";
import { loadGuidelineConfig } from "./config.ts";
import { EvalLoadError } from "./errors.ts";
import { matchGlob } from "../text/glob.ts";
import type { CaseContext } from "./normalize_case.ts";
import { guidelineMatcher } from "./normalize_case.ts";
import { findDatasetRoot, isInside, ReferenceResolver } from "../fs/resolve.ts";

/** Options shared by the loading functions. */
export interface LoadOptions {
  /** Report verbose-only warnings (a missing JSONL sidecar). Default false. */
  verbose?: boolean;
  /** Dataset root; default: nearest folder with `.agentv/` or `.git` above the file. */
  root?: string;
  /** Receives every diagnostic (warnings and skipped cases) as it is found. */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /**
   * Record where each valid case names its target (`LoadedEvalFile.sites`, for `validate`).
   * Default false. A JSONL case's site has its line but no column (finding the column parses the
   * line a second time; `validate` finds it only for the sites a message points at).
   */
  sites?: boolean;
  /**
   * Receives each valid case (and its site, with `sites`) as soon as it is validated; the cases
   * are then not kept (`LoadedEvalFile.cases` is empty), so counting or checking a large JSONL
   * file holds no case in memory. A file-level failure may still come after some cases.
   */
  onCase?: (evalCase: EvalCase, site: CaseSite | undefined) => void;
}

/** The eval file formats. */
export type EvalFormat = "yaml" | "jsonl";

/** A prepared load. */
export interface LoadSetup {
  /** The file as the caller named it. */
  file: string;
  /** Absolute path of the file. */
  absFile: string;
  /** `yaml` or `jsonl`. */
  format: EvalFormat;
  /** Folder of the file (absolute). */
  evalDir: string;
  /** Dataset root (absolute). */
  root: string;
  /** File name without extension (default dataset name). */
  stem: string;
  /** Context for case normalisation. */
  ctx: CaseContext;
  /** Diagnostics found so far (config problems). */
  diagnostics: Diagnostic[];
  /** Run settings of the config file that applies (`cache`, `budget_usd`, ...), if any. */
  runConfig?: RunConfigSettings;
  /** Whether to record case sites (see {@link LoadOptions.sites}). */
  sites: boolean;
  /** Where valid cases go instead of the returned list (see {@link LoadOptions.onCase}). */
  onCase?: (evalCase: EvalCase, site: CaseSite | undefined) => void;
  /** The processes the file's evaluators start and the hashes of the text parsed. */
  needs: FileNeeds;
  /**
   * Whether the file is large enough (2 MiB) for the compiled case parser to pay for its ~40 ms:
   * the loaders then call `useCompiledCaseParser` before the first case they validate with the
   * schemas (`validate` only when a line is not a plain case).
   */
  large: boolean;
}

/**
 * The format of a path by extension (case-insensitive); throws {@link EvalLoadError} for any
 * other extension, listing the supported ones.
 */
export function formatOf(path: string): EvalFormat {
  const ext = extname(path).toLowerCase();
  if (ext === ".yaml" || ext === ".yml") return "yaml";
  if (ext === ".jsonl") return "jsonl";
  throw EvalLoadError.from([{
    severity: "error",
    file: path,
    message:
      `Unsupported file format: '${ext}'; expected one of the supported formats .yaml, .yml, .jsonl; rename the file or convert it`,
  }]);
}

/** Checks the format, finds the root and the guideline config. Throws for file-level problems. */
export async function prepareLoad(path: string, options: LoadOptions = {}): Promise<LoadSetup> {
  const format = formatOf(path);
  const absFile = resolve(path);
  const evalDir = dirname(absFile);
  const root = await findDatasetRoot(absFile, { root: options.root });
  if (!isInside(absFile, root)) {
    throw EvalLoadError.from([{
      severity: "error",
      file: path,
      message:
        `File is outside the dataset root '${root}'; expected a file inside the root; pass a root that contains it`,
    }]);
  }
  const large = await isLargeFile(absFile);
  const config = await loadGuidelineConfig(evalDir, root);
  const resolver = new ReferenceResolver(root);
  const ext = extname(absFile);
  return {
    file: path,
    absFile,
    format,
    evalDir,
    root,
    stem: basename(absFile, ext),
    ctx: { evalDir, resolver, isGuideline: guidelineMatcher(root, config.patterns, matchGlob) },
    diagnostics: config.diagnostics,
    ...(config.run !== undefined ? { runConfig: config.run } : {}),
    sites: options.sites ?? false,
    ...(options.onCase ? { onCase: options.onCase } : {}),
    needs: { sources: [], commands: new Map() },
    large,
  };
}

/**
 * Reads a whole file as UTF-8 text (a byte order mark removed); throws {@link EvalLoadError}
 * when it is unreadable, binary or not UTF-8.
 */
export async function readSourceText(path: string, displayPath = path): Promise<string> {
  const fail = (message: string, line?: number, column?: number): EvalLoadError =>
    EvalLoadError.from([{
      severity: "error",
      file: displayPath,
      ...(line !== undefined ? { line } : {}),
      ...(column !== undefined ? { column } : {}),
      message,
    }]);
  let text: string;
  try {
    // Fast path: the platform's decoder; only a suspicious result is decoded again strictly.
    text = await Deno.readTextFile(path);
  } catch (e) {
    throw fail(
      `Cannot read the file: ${
        e instanceof Error ? e.message : e
      }; expected a readable eval file; check the path and permissions`,
    );
  }
  if (text.includes("\uFFFD") || text.includes("\0")) {
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(path);
    } catch (e) {
      throw fail(`Cannot read the file: ${e instanceof Error ? e.message : e}`);
    }
    const decoded = decodeText(bytes);
    if (!decoded.ok) {
      throw fail(decoded.message, decoded.position?.line, decoded.position?.column);
    }
    await loadPatternEngineFor(decoded.text);
    return decoded.text;
  }
  await loadPatternEngineFor(text);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Loads the linear-time regex engine before text that may hold patterns (a `regex` evaluator, a
 * JSON Schema `pattern`, a `file_changes` regex) is validated, so the schema checks each pattern
 * with the engine that will run it. Text without those words needs no engine; a pattern that
 * still slips through (a key spelt with JSON escapes) is checked without it, and compiled when
 * it runs.
 *
 * @example
 * ```ts ignore
 * await loadPatternEngineFor(text);
 * ```
 */
export async function loadPatternEngineFor(text: string): Promise<void> {
  // One regex scan is several times faster than two `includes` over a 1 MiB chunk.
  if (!linearRegexLoaded() && MAY_HOLD_PATTERNS.test(text)) await loadLinearRegex();
}

/** Words of the keys and types that hold patterns. */
const MAY_HOLD_PATTERNS = /regex|pattern/;

/** File size from which the compiled case parser is worth building (about 5,000 cases). */
const LARGE_FILE_BYTES = 2 * 1024 * 1024;

/** Whether the compiled case parser pays for itself on this file (see `LoadSetup.large`). */
async function isLargeFile(absFile: string): Promise<boolean> {
  try {
    return (await Deno.stat(absFile)).size >= LARGE_FILE_BYTES;
  } catch {
    return false; // unreadable: the reader reports it
  }
}
