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
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * import { loadEvalCases } from "@agentv/agentv";
 *
 * const dir = await Deno.makeTempDir(); // `root` bounds what the dataset may reference
 * const file = join(dir, "dataset.jsonl");
 * await Deno.writeTextFile(file, '{"id": "a", "expected_outcome": "Says hi", "input": "Hi"}\n');
 * const cases = await loadEvalCases(file, {
 *   root: dir,
 *   onDiagnostic: (d) => console.error(`${d.file}:${d.line}: ${d.message}`),
 * });
 * assert.deepEqual(cases[0].input, [{ role: "user", content: "Hi" }]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadEvalCases(
  path: string,
  options: LoadEvalCasesOptions = {},
): Promise<EvalCase[]> {
  return (await loadEvalFile(path, options)).cases;
}
