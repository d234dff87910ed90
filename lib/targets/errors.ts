/**
 * Configuration errors of targets: a targets file that is invalid, a target that cannot be
 * resolved (unknown name, missing `${{ VAR }}`, provider not runnable here). These are user
 * mistakes: the CLI reports them without a stack trace and exits 2.
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";

/** A target that cannot be built from its definition. */
export class TargetConfigError extends Error {
  /** Name of the target concerned, when there is one. */
  readonly target?: string;
  /** Hint telling the user how to fix it. */
  readonly hint?: string;

  /** Creates a target configuration error. */
  constructor(message: string, options: { target?: string; hint?: string } = {}) {
    super(message);
    this.name = "TargetConfigError";
    this.target = options.target;
    this.hint = options.hint;
  }
}

/** A targets file that cannot be used; `diagnostics` carry `file:line:col` of every problem. */
export class TargetsFileError extends Error {
  /** Every problem found (errors and warnings). */
  readonly diagnostics: Diagnostic[];
  /** The targets file. */
  readonly file: string;

  /** Creates a targets-file error from its diagnostics. */
  constructor(file: string, diagnostics: Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === "error");
    super(
      `Invalid targets file ${file} (${errors.length} error${errors.length === 1 ? "" : "s"})\n` +
        errors.map(formatDiagnostic).join("\n"),
    );
    this.name = "TargetsFileError";
    this.file = file;
    this.diagnostics = diagnostics;
  }
}

/** Formats a diagnostic as `file:line:col: message`. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line === undefined ? d.file : `${d.file}:${d.line}:${d.column ?? 1}`;
  return `${where}: ${d.severity === "warning" ? "warning: " : ""}${d.message}`;
}
