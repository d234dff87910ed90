/**
 * `--trials K` and `--trials-gate mean|any|all|rate:X` of `agentv run`: run every case K times
 * (replacing each case's `execution.trials`) and judge each case by its trials (see
 * `lib/results/trials.ts` for the statistics and the gates).
 *
 * @module
 */
import { parseTrialsGate, type TrialsGate } from "../results/trials.ts";
import { MAX_TRIALS } from "../schema/eval_file.ts";
import { UsageError } from "../errors/agentv_error.ts";

/**
 * Parses `--trials K`: a whole number from 1 to {@link MAX_TRIALS}; a {@link UsageError} (exit 2)
 * otherwise.
 *
 * @example
 * ```ts
 * import { parseTrialsArg } from "./trials_args.ts";
 * parseTrialsArg("5"); // 5
 * ```
 */
export function parseTrialsArg(raw: string): number {
  const text = raw.trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_TRIALS) {
    throw new UsageError(
      `--trials must be a whole number from 1 to ${MAX_TRIALS}, got '${raw}'`,
      "e.g. --trials 5 runs every case 5 times (execution.trials sets it for one file or case)",
    );
  }
  return n;
}

/**
 * Parses `--trials-gate`: `mean`, `any`, `all` or `rate:X` with X from 0 to 1; a
 * {@link UsageError} (exit 2) otherwise.
 *
 * @example
 * ```ts
 * import { parseTrialsGateArg } from "./trials_args.ts";
 * parseTrialsGateArg("rate:0.8"); // "rate:0.8"
 * ```
 */
export function parseTrialsGateArg(raw: string): TrialsGate {
  const parsed = parseTrialsGate(raw.trim());
  if (parsed.ok) return parsed.gate;
  throw new UsageError(
    `--trials-gate: ${parsed.error}`,
    "--trials-gate mean (the mean score's verdict), any (a trial passed), all (every trial " +
      "passed) or rate:X (at least X of the trials passed, e.g. rate:0.8)",
  );
}
