/**
 * Errors that stop a run before any case starts: a usage, configuration or dataset mistake
 * (exit code 2 in the CLI).
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";

/** A problem found before anything ran (no eval files, no targets file, unknown target, ...). */
export class RunConfigError extends Error {
  /** How to fix it. */
  readonly hint?: string;
  /** File-level diagnostics, when the problem is in user files. */
  readonly diagnostics: Diagnostic[];

  /** Creates a run configuration error. */
  constructor(
    message: string,
    options: { hint?: string; diagnostics?: Diagnostic[]; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "RunConfigError";
    this.hint = options.hint;
    this.diagnostics = options.diagnostics ?? [];
  }
}
