/**
 * Cases blocked by a target that cannot be used: the error a row records, and the error of a run
 * where no case could run at all.
 *
 * @module
 */
import { RunConfigError, type TargetUnavailableError } from "./errors.ts";

/**
 * The row error of a blocked case: what is wrong with its target and how to fix it.
 *
 * @example
 * ```ts
 * import { TargetUnavailableError } from "./errors.ts";
 * blockedReason(new TargetUnavailableError("x", "Unknown target 'x'", { hint: "defined targets: a" }));
 * // "Unknown target 'x'; defined targets: a"
 * ```
 */
export function blockedReason(error: TargetUnavailableError): string {
  return error.hint ? `${error.message}; ${error.hint}` : error.message;
}

/**
 * The error when every selected case is blocked by its target (nothing could run): the one
 * target error itself, or one listing every distinct reason.
 *
 * @example
 * ```ts
 * import { TargetUnavailableError } from "./errors.ts";
 * const e = noCaseCouldRun([new TargetUnavailableError("x", "Unknown target 'x'")]);
 * e.message; // "Unknown target 'x'"
 * ```
 */
export function noCaseCouldRun(blocked: readonly TargetUnavailableError[]): RunConfigError {
  const errors = [...new Set(blocked)];
  if (errors.length === 1) return errors[0];
  return new RunConfigError(
    `No case could run: none of their targets can be used:\n${
      errors.map((e) => `  - ${blockedReason(e)}`).join("\n")
    }`,
    {
      diagnostics: errors.flatMap((e) => e.diagnostics),
      hint: "fix the targets (agentv validate reports each case whose target is missing)",
    },
  );
}
