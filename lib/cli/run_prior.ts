/**
 * The flags of `agentv run` that continue an earlier run: `--resume <results>`,
 * `--rerun-failed <results>` and `--retry-errors <results>` (see `lib/run/resume.ts`). With
 * no path on the command line, the run's eval files are those of the earlier run's record.
 *
 * @module
 */
import type { PriorRunMode } from "../run/resume.ts";
import type { CommandIO, OptionSpec, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";

/** The earlier run named on the command line. */
export interface PriorRunArg {
  /** Which flag named it. */
  mode: PriorRunMode;
  /** The results file, as given. */
  path: string;
}

/** The options of `agentv run` that name an earlier run. */
export const PRIOR_RUN_OPTIONS: Record<PriorRunMode, OptionSpec> = {
  resume: {
    type: "string",
    valueName: "RESULTS",
    description:
      "Continue an interrupted or crashed run in its results file: run only the cases not finished",
  },
  "rerun-failed": {
    type: "string",
    valueName: "RESULTS",
    description: "Run again the failed and error cases of that run, into a new results file",
  },
  "retry-errors": {
    type: "string",
    valueName: "RESULTS",
    description: "Run again the error cases of that run, into a new results file",
  },
};

/**
 * Reads `--resume`, `--rerun-failed` and `--retry-errors`; throws {@link UsageError} for
 * contradictory combinations (two of them; `--resume` with `--out`).
 *
 * @example
 * ```ts
 * import { parsePriorRunArg } from "./run_prior.ts";
 * parsePriorRunArg({ resume: "out.jsonl" }); // { mode: "resume", path: "out.jsonl" }
 * ```
 */
export function parsePriorRunArg(values: ParsedArgs["values"]): PriorRunArg | undefined {
  const given = (Object.keys(PRIOR_RUN_OPTIONS) as PriorRunMode[]).flatMap((mode) => {
    const path = values[mode];
    return typeof path === "string" ? [{ mode, path }] : [];
  });
  if (given.length === 0) return undefined;
  if (given.length > 1) {
    throw new UsageError(
      `${given.map((g) => `--${g.mode}`).join(" and ")} cannot be used together`,
      "--resume continues a run in its file; --rerun-failed and --retry-errors start a new one",
    );
  }
  const [prior] = given;
  if (prior.path.trim() === "") throw new UsageError(`--${prior.mode} must not be empty`);
  if (prior.mode === "resume" && typeof values.out === "string") {
    throw new UsageError(
      "--resume and --out cannot be used together: a resumed run appends to the file it resumes",
      "leave --out out (--rerun-failed and --retry-errors take --out)",
    );
  }
  return prior;
}

/**
 * The eval files of the earlier run's record (when no path is given). Throws {@link UsageError}
 * when the record cannot be read or a file of it is gone.
 */
export async function priorRunPaths(prior: PriorRunArg, io: CommandIO): Promise<string[]> {
  const { resolve } = await import("node:path");
  const { readRunRecord, runRecordPath } = await import("../results/run_record.ts");
  const recordPath = runRecordPath(resolve(io.cwd, prior.path));
  let paths: string[];
  try {
    paths = (await readRunRecord(recordPath)).datasets.map((d) => d.path);
  } catch (e) {
    throw new UsageError(
      (e as Error).message,
      `--${prior.mode} takes a results file written by agentv run, with its .run.json beside it`,
    );
  }
  for (const path of paths) {
    try {
      await Deno.stat(path);
    } catch {
      throw new UsageError(
        `${path}: an eval file of the run in ${recordPath} is gone`,
        "restore it, or start a new run",
      );
    }
  }
  return paths;
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
