/**
 * Errors that stop a run before any case starts: a usage, configuration or dataset mistake
 * (exit code 2 in the CLI).
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";
import { AgentvError } from "../errors/agentv_error.ts";

/** A problem found before anything ran (no eval files, no targets file, unknown target, ...). */
export class RunConfigError extends AgentvError {
  /** Creates a run configuration error; `code` names its kind (default `run_config`). */
  constructor(
    message: string,
    options: { hint?: string; diagnostics?: Diagnostic[]; cause?: unknown; code?: string } = {},
  ) {
    super(options.code ?? "run_config", message, options);
    this.name = "RunConfigError";
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
    super(message, { ...options, code: "target_unavailable" });
    this.name = "TargetUnavailableError";
    this.target = target;
  }
}
