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

/**
 * The sandbox that loads the eval files (a worker that may read the dataset root only) could not
 * start: the process lacks a permission the worker needs. Nothing was loaded: `runEval` never
 * falls back to loading the files unsandboxed by itself.
 */
export class SandboxUnavailableError extends RunConfigError {
  /** The dataset root the sandbox was for. */
  readonly root: string;

  /** Creates the error for the sandbox of `root`. */
  constructor(root: string, cause: unknown) {
    super(
      `Cannot start the sandbox that loads the eval files under ${root}: ${
        (cause as Error)?.message ?? String(cause)
      }; nothing was loaded`,
      {
        code: "sandbox_unavailable",
        cause,
        hint: "the sandbox is a worker that may read only the dataset root: grant the process " +
          "read access to it (--allow-read) and to the env variables LOG_TOKENS and LOG_STREAM " +
          '(--allow-env), and run with --unstable-worker-options (or "unstable": ' +
          '["worker-options"] in deno.json); or pass `sandbox: false` to runEval to load the ' +
          "files in this process",
      },
    );
    this.name = "SandboxUnavailableError";
    this.root = root;
  }
}
