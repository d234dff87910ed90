/**
 * The error base every other folder builds on: {@link AgentvError} (code, hint, exit code,
 * diagnostics), {@link UsageError}, and the CLI's exit codes.
 *
 * @module
 */
export {
  AgentvError,
  type AgentvErrorOptions,
  EXIT,
  EXIT_CODES,
  type ExitCode,
  UsageError,
} from "./agentv_error.ts";
