/**
 * What `agentv run` does with `--resume <results>`, `--rerun-failed <results>` and
 * `--retry-errors <results>` before it runs (see `lib/run/resume.ts`; the flags are declared with
 * the run options, `lib/schema/run_spec.ts`): it takes the earlier run's options from its record
 * and, with no path on the command line, its eval files.
 *
 * @module
 */
import type { PriorRunMode } from "../run/resume.ts";
import type { RunCommandValues } from "../schema/run_spec.ts";
import type { CommandIO } from "./command.ts";
import type { PriorRunArg } from "./run_args.ts";
import { UsageError } from "../errors/agentv_error.ts";

/**
 * The options of a run that continues the one `prior` names: every option of its run record,
 * unless given (`lib/run/prior_spec.ts`: one that changes results must be the recorded value),
 * and, when `needPaths`, its eval files (a {@link UsageError} when one is gone). Throws
 * `RunConfigError` when the record cannot be read or a given option would change the results.
 *
 * @example
 * ```ts ignore
 * const { spec, paths } = await priorRunSpec({ mode: "resume", path: "o.jsonl" }, {}, io, true);
 * ```
 */
export async function priorRunSpec(
  prior: PriorRunArg,
  given: RunCommandValues,
  io: CommandIO,
  needPaths: boolean,
): Promise<{ spec: RunCommandValues; paths: string[] }> {
  const [{ readPriorRecord }, { specOfPriorRun }, { runSpecOf }] = await Promise.all([
    import("../run/resume.ts"),
    import("../run/prior_spec.ts"),
    import("../run/settle_spec.ts"),
  ]);
  const record = await readPriorRecord(prior.path, prior.mode, io);
  const spec = {
    ...given,
    ...specOfPriorRun(runSpecOf(given as Record<string, unknown>), record, io),
  };
  const paths = record.record.datasets.map((d) => d.path);
  if (needPaths) {
    for (const path of paths) {
      try {
        await Deno.stat(path);
      } catch {
        throw new UsageError(
          `${path}: an eval file of the run in ${record.resultsPath}.run.json is gone`,
          "restore it, or start a new run",
        );
      }
    }
  }
  return { spec, paths };
}

/**
 * The line `agentv run` prints before it continues an earlier run (or instead of running, when a
 * rerun has nothing to run).
 *
 * @example
 * ```ts
 * import { priorRunNote } from "./run_prior.ts";
 * const record = { run_id: "r1" };
 * priorRunNote({ mode: "retry-errors", resultsPath: "/w/o.jsonl", record, pairs: new Set() } as never, "/w");
 * // "No error case in o.jsonl (run r1): nothing to rerun\n"
 * ```
 */
export function priorRunNote(
  prior: {
    mode: PriorRunMode;
    resultsPath: string;
    record: { run_id: string };
    pairs: Set<string>;
  },
  cwd: string,
): string {
  const file = prior.resultsPath.startsWith(cwd + "/")
    ? prior.resultsPath.slice(cwd.length + 1)
    : prior.resultsPath;
  const run = `${file} (run ${prior.record.run_id})`;
  const n = prior.pairs.size;
  if (prior.mode === "resume") {
    return `Resuming ${run}: ${n} finished case${n === 1 ? "" : "s"} kept, running the rest\n`;
  }
  const what = prior.mode === "rerun-failed" ? "failed" : "error";
  if (n === 0) return `No ${what} case in ${run}: nothing to rerun\n`;
  return `Rerunning ${n} ${what} case${n === 1 ? "" : "s"} of ${run}\n`;
}
