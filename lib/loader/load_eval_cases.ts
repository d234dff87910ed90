/**
 * `loadEvalCases`: the public loading function.
 *
 * @module
 */
import type { Diagnostic, EvalCase } from "../schema/eval_case.ts";
import { loadEvalFile } from "./load_eval_file.ts";

/** Options of {@link loadEvalCases}. */
export interface LoadEvalCasesOptions {
  /** Report verbose-only warnings (e.g. a missing JSONL sidecar). Default false. */
  verbose?: boolean;
  /** Dataset root; default: the nearest folder above the file holding `.agentv/` or `.git`. */
  root?: string;
  /** Receives warnings and the errors of skipped cases, as they are found. */
  onDiagnostic?: (d: Diagnostic) => void;
}

/**
 * Loads the eval cases of a `.yaml`, `.yml` or `.jsonl` file. Throws `EvalLoadError` (with
 * `.diagnostics`) for file-level failures: unsupported extension, unreadable or non-UTF-8 file,
 * YAML syntax error, malformed JSONL line, missing `evalcases`. Invalid cases are skipped and
 * reported through `onDiagnostic`.
 *
 * @example
 * ```ts
 * import { loadEvalCases } from "@agentv/agentv";
 * const cases = await loadEvalCases("evals/dataset.jsonl", {
 *   onDiagnostic: (d) => console.error(`${d.file}:${d.line}: ${d.message}`),
 * });
 * console.log(cases.length, cases[0]?.input);
 * ```
 */
export async function loadEvalCases(
  path: string,
  options: LoadEvalCasesOptions = {},
): Promise<EvalCase[]> {
  return (await loadEvalFile(path, options)).cases;
}
