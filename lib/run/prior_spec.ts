/**
 * The options of a run that continues an earlier one (`--resume`, `--rerun-failed`,
 * `--retry-errors`): every option the earlier run's record holds (target, targets file, judge,
 * workers, timeout, filter, trials, cache, budget, ...: each entry of `lib/schema/run_spec.ts`
 * with a `record`), unless given again. Given again, an option that does not change results
 * replaces the recorded one (more workers, a larger budget); one that changes results must be the
 * recorded value, or the run is refused with what differs (a rerun may narrow `--filter` and
 * `--shard`, since it names its cases). A key an older record lacks is not compared.
 *
 * @module
 */
import { runRecordPath } from "../results/run_record.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import type { RunRecord } from "../schema/run_record.ts";
import { RUN_OPTION_ENTRIES, type RunSpec } from "../schema/run_spec.ts";
import { runOptionsRecord, specOfRecord } from "../schema/run_spec_record.ts";
import { RunConfigError } from "./errors.ts";
import { absolutePaths } from "./settle_spec.ts";

/** The earlier run, as far as its options go. */
export interface PriorRunOptions {
  /** How this run continues it. */
  mode: "resume" | "rerun-failed" | "retry-errors";
  /** Its results file (absolute). */
  resultsPath: string;
  /** Its run record. */
  record: RunRecord;
}

/** An option given again with another value than the earlier run's. */
interface Changed {
  flag: string;
  was: string;
  is: string;
}

/**
 * The options of a run continuing `prior` (see the module doc); `given` are the options given
 * for this run. A resume also writes into the earlier run's results file. Throws
 * {@link RunConfigError} (nothing ran) when a given option would change the results.
 *
 * @example
 * ```ts ignore
 * const spec = specOfPriorRun({ workers: 8 }, prior, { cwd }); // the rest from prior.record
 * ```
 */
export function specOfPriorRun(
  given: RunSpec,
  prior: PriorRunOptions,
  options: { cwd: string },
): RunSpec {
  const changed = changedResultOptions(given, prior, options.cwd);
  if (changed.length > 0) {
    const id = prior.record.run_id;
    const recordPath = runRecordPath(prior.resultsPath);
    throw new RunConfigError(
      `--${prior.mode}: options that change results differ from the run's: ${
        changed.map((c) => `${c.flag} is ${c.is} (run ${id} had ${c.was})`).join("; ")
      }`,
      {
        diagnostics: changed.map((c): Diagnostic => ({
          severity: "error",
          file: recordPath,
          message: `${c.flag}: ${c.was} → ${c.is}`,
        })),
        hint: `leave ${
          changed.map((c) => c.flag).join(", ")
        } out to keep the options of run ${id} ` +
          `(its record: ${recordPath}), or start a new run`,
      },
    );
  }
  const spec: Record<string, unknown> = { ...specOfRecord(prior.record.options) };
  for (const [name, value] of Object.entries(given)) {
    if (value !== undefined) spec[name] = value;
  }
  if (prior.mode === "resume") spec.out ??= prior.resultsPath;
  return spec as RunSpec;
}

/** The given options that change results and differ from what the earlier run recorded. */
function changedResultOptions(given: RunSpec, prior: PriorRunOptions, cwd: string): Changed[] {
  const recorded = prior.record.options as unknown as Record<string, unknown>;
  const values = absolutePaths(given, cwd) as Record<string, unknown>;
  const changed: Changed[] = [];
  for (const [name, d] of RUN_OPTION_ENTRIES) {
    if (d.effect !== "results" || !d.record || values[name] === undefined) continue;
    if (prior.mode !== "resume" && d.rerunMayNarrow) continue;
    // A key an older record lacks is not compared.
    if (!(d.record.key in recorded)) continue;
    const is = JSON.stringify(
      (runOptionsRecord({ [name]: values[name] }) as unknown as Record<string, unknown>)[
        d.record.key
      ] ?? null,
    );
    const was = JSON.stringify(recorded[d.record.key] ?? null);
    if (is !== was) changed.push({ flag: `--${d.flag}`, was, is });
  }
  return changed;
}
