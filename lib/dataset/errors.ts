/**
 * Loader errors and diagnostics: {@link EvalLoadError} for file-level failures, and helpers to
 * build and render {@link Diagnostic}s.
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";
import type { PathKey } from "./yaml_source.ts";
import { AgentvError } from "../errors/agentv_error.ts";

export type { Diagnostic };

/**
 * A file-level failure (unsupported extension, unreadable file, YAML syntax error, malformed
 * JSONL line, missing `evalcases`). `diagnostics` holds every problem found, with positions.
 *
 * @example
 * ```ts
 * import { EvalLoadError, loadEvalCases } from "@agentv/agentv";
 * try {
 *   await loadEvalCases("evals/broken.jsonl");
 * } catch (e) {
 *   if (e instanceof EvalLoadError) console.error(e.diagnostics[0].line);
 * }
 * ```
 */
export class EvalLoadError extends AgentvError {
  /** Creates the error; `message` is usually {@link formatDiagnostic} of the first problem. */
  constructor(message: string, diagnostics: Diagnostic[]) {
    super("eval_load", message, { diagnostics });
    this.name = "EvalLoadError";
  }

  /** An error whose message renders the given diagnostics (the first few). */
  static from(diagnostics: Diagnostic[]): EvalLoadError {
    const errors = diagnostics.filter((d) => d.severity === "error");
    const shown = (errors.length > 0 ? errors : diagnostics).slice(0, 5).map(formatDiagnostic);
    const more = errors.length > 5 ? `\n(and ${errors.length - 5} more errors)` : "";
    return new EvalLoadError(shown.join("\n") + more, diagnostics);
  }
}

/**
 * Renders a diagnostic as `file:line:col: severity: message` (line and column when known).
 *
 * @example
 * ```ts
 * formatDiagnostic({ severity: "error", file: "a.yaml", line: 3, column: 5, message: "Bad" });
 * // "a.yaml:3:5: error: Bad"
 * ```
 */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line === undefined
    ? d.file
    : `${d.file}:${d.line}${d.column === undefined ? "" : `:${d.column}`}`;
  return `${where}: ${d.severity}: ${d.message}`;
}

/**
 * Formats a document path: `["evalcases", 2, "evaluators", 0, "weight"]` →
 * `evalcases[2].evaluators[0].weight`.
 *
 * @example
 * ```ts
 * formatPath(["evalcases", 2, "weight"]); // "evalcases[2].weight"
 * ```
 */
export function formatPath(path: readonly PathKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}
