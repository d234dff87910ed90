/**
 * Configuration errors of targets: a targets file that is invalid, a target that cannot be
 * resolved (unknown name, missing `${{ VAR }}`, provider not runnable here). These are user
 * mistakes: the CLI reports them without a stack trace and exits 2.
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";
import { AgentvError } from "../errors/agentv_error.ts";

/** A target that cannot be built from its definition. */
export class TargetConfigError extends AgentvError {
  /** Name of the target concerned, when there is one. */
  readonly target?: string;

  /** Creates a target configuration error. */
  constructor(message: string, options: { target?: string; hint?: string } = {}) {
    super("target_config", message, { hint: options.hint });
    this.name = "TargetConfigError";
    this.target = options.target;
  }
}

/** A targets file that cannot be used; `diagnostics` carry `file:line:col` of every problem. */
export class TargetsFileError extends AgentvError {
  /** The targets file. */
  readonly file: string;

  /** Creates a targets-file error from its diagnostics. */
  constructor(file: string, diagnostics: Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === "error");
    super(
      "targets_file",
      `Invalid targets file ${file} (${errors.length} error${errors.length === 1 ? "" : "s"})\n` +
        errors.map(formatDiagnostic).join("\n"),
      { diagnostics },
    );
    this.name = "TargetsFileError";
    this.file = file;
  }
}

/** Formats a diagnostic as `file:line:col: message`. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line === undefined ? d.file : `${d.file}:${d.line}:${d.column ?? 1}`;
  return `${where}: ${d.severity === "warning" ? "warning: " : ""}${d.message}`;
}
