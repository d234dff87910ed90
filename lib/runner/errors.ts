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

/**
 * A target (or its judge) that cannot be used: unknown name, missing `${{ VAR }}`, invalid
 * settings, an unreadable targets file. It blocks only the cases that use the target: they are
 * recorded as error rows naming it; the run stops before anything runs only when no case could.
 */
export class TargetUnavailableError extends RunConfigError {
  /** The target's name. */
  readonly target: string;

  /** Creates the error for `target`. */
  constructor(
    target: string,
    message: string,
    options: { hint?: string; diagnostics?: Diagnostic[]; cause?: unknown } = {},
  ) {
    super(message, options);
    this.name = "TargetUnavailableError";
    this.target = target;
  }
}
