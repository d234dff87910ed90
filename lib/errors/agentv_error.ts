/**
 * The one base of every error agentv turns into a message for a person: {@link AgentvError}, with
 * a stable `code`, an optional `hint` (how to fix it), the `exitCode` the CLI ends with and the
 * located `diagnostics` it prints. The CLI renders any `AgentvError` the same way (diagnostics
 * with their source lines, then `error: message`, then `hint: …`) and never with a stack trace;
 * anything else reaching the CLI is a bug in agentv (exit 70, with the stack).
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";

/** One exit code of the agentv CLI and what it means. */
export interface ExitCode {
  /** The process exit status. */
  code: number;
  /** A short name, used in code (`EXIT.usage`). */
  name: "passed" | "failed" | "usage" | "internal" | "interrupted";
  /** What it means, as the docs state it. */
  meaning: string;
}

/** Every exit code of the agentv CLI, in the order the docs list them. */
export const EXIT_CODES: readonly ExitCode[] = [
  {
    code: 0,
    name: "passed",
    meaning: "everything ran and passed (`validate`: every file is valid)",
  },
  {
    code: 1,
    name: "failed",
    meaning: "it ran and something failed (`validate`: at least one file is invalid)",
  },
  { code: 2, name: "usage", meaning: "usage, configuration or dataset error: nothing ran" },
  {
    code: 130,
    name: "interrupted",
    meaning: "interrupted (Ctrl-C; a second Ctrl-C exits at once)",
  },
  {
    code: 70,
    name: "internal",
    meaning: "internal error in agentv (a bug: the message includes a stack trace)",
  },
];

/**
 * The exit codes by name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EXIT } from "./agentv_error.ts";
 * assert.equal(EXIT.usage, 2);
 * ```
 */
export const EXIT: Readonly<Record<ExitCode["name"], number>> = Object.fromEntries(
  EXIT_CODES.map((e) => [e.name, e.code]),
) as Record<ExitCode["name"], number>;

/** Options of {@link AgentvError}. */
export interface AgentvErrorOptions {
  /** How to fix it, printed after the message as `hint: …`. */
  hint?: string | undefined;
  /** Located problems in the user's files, printed before the message. */
  diagnostics?: readonly Diagnostic[] | undefined;
  /** The underlying error. */
  cause?: unknown;
  /** The CLI's exit code (default 2: a usage, configuration or dataset error). */
  exitCode?: number | undefined;
}

/**
 * An error that is the user's to fix (or an outcome the CLI reports as such), never a bug.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AgentvError } from "./agentv_error.ts";
 * const error = new AgentvError("no_eval_files", "No eval files found in 'evals/'", {
 *   hint: "eval files end in .yaml, .yml or .jsonl",
 * });
 * assert.equal(error.exitCode, 2);
 * assert.equal(error.code, "no_eval_files");
 * ```
 */
export class AgentvError extends Error {
  /** A stable, machine-readable name of the kind of problem (`usage`, `eval_load`, ...). */
  readonly code: string;
  /** How to fix it. */
  readonly hint?: string;
  /** The exit code the CLI ends with. */
  readonly exitCode: number;
  /** Located problems in the user's files (may be empty). */
  readonly diagnostics: Diagnostic[];

  /** Creates the error. */
  constructor(code: string, message: string, options: AgentvErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AgentvError";
    this.code = code;
    if (options.hint !== undefined) this.hint = options.hint;
    this.exitCode = options.exitCode ?? EXIT.usage;
    this.diagnostics = [...(options.diagnostics ?? [])];
  }
}

/**
 * A mistake on the command line (an unknown flag, a bad value): exit code 2, and the CLI prints
 * the command's short usage after the message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UsageError } from "./agentv_error.ts";
 * const error = new UsageError("--workers must be an integer from 1 to 1000, got 'x'", "e.g. --workers 8");
 * assert.equal(error.code, "usage");
 * assert.equal(error.exitCode, 2);
 * ```
 */
export class UsageError extends AgentvError {
  /** Creates a usage error. */
  constructor(message: string, hint?: string) {
    super("usage", message, { hint });
    this.name = "UsageError";
  }
}
