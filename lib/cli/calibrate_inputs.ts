/**
 * What `agentv calibrate` reads: the results files named (through the one bounded reader), the
 * run record beside each, the project root (the dataset root of the recorded eval files, else the
 * folder holding `.agentv/` above the first results file), the labels file (`--labels`, else
 * `<root>/.agentv/labels.jsonl`), and, when the judge is asked again or a calibration is saved,
 * the recorded eval files loaded in the sandbox as the run loaded them.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { findDatasetRoot } from "../fs/resolve.ts";
import { displayPath } from "../fs/display_path.ts";
import { LABELS_FILE, readLabels } from "../results/labels.ts";
import { readRunRecord, runRecordPath } from "../results/run_record.ts";
import type { LoadedEvalSet } from "../run/run_options.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import type { Label } from "../schema/label.ts";
import type { ResultRow } from "../schema/result.ts";
import type { RunRecord } from "../schema/run_record.ts";
import { UsageError } from "../errors/agentv_error.ts";
import type { CommandIO } from "./command.ts";
import { loadRecordedSets } from "./recorded_inputs.ts";
import { readResultsArg } from "./results_arg.ts";

/** One results file as read. */
export interface ResultsInput {
  /** As named on the command line. */
  arg: string;
  /** Absolute path. */
  path: string;
  /** Its rows. */
  rows: ResultRow[];
  /** Its run record, when there is one. */
  record: RunRecord | undefined;
}

/** Everything read, or the located problems that stop the command. */
export interface CalibrateInputs {
  /** The results files. */
  results: ResultsInput[];
  /** The project root. */
  root: string;
  /** Every row of every file. */
  rows: ResultRow[];
  /** Located problems (lines that are not rows); the command stops with exit code 2. */
  problems: Diagnostic[];
}

/**
 * The project root of a results file: its run record's first eval file's dataset root (with the
 * run's `--root`), else the folder holding `.agentv/` (or `.git`) above the results file.
 */
export async function projectRootOf(path: string, record: RunRecord | undefined): Promise<string> {
  const first = record?.datasets[0];
  if (first !== undefined) {
    return await findDatasetRoot(
      first.path,
      record!.options.root ? { root: record!.options.root } : {},
    );
  }
  return await findDatasetRoot(path);
}

/** Reads the results files named (each with its run record, when readable). */
export async function readCalibrateInputs(
  args: readonly string[],
  io: CommandIO,
): Promise<CalibrateInputs> {
  const results: ResultsInput[] = [];
  const problems: Diagnostic[] = [];
  for (const arg of args) {
    const path = resolve(io.cwd, arg);
    const read = await readResultsArg(path, io, {
      what: "results file",
      hint: "name results files written by agentv run: agentv calibrate .agentv/results/run.jsonl",
    });
    problems.push(...read.problems);
    const record = await readRunRecord(runRecordPath(path)).catch(() => undefined);
    results.push({ arg, path, rows: read.rows, record });
  }
  const root = await projectRootOf(results[0].path, results[0].record);
  return { results, root, rows: results.flatMap((r) => r.rows), problems };
}

/** The labels read, or why there are none. */
export type LabelsRead =
  | { found: true; file: string; labels: Label[]; problems: Diagnostic[] }
  | { found: false; file: string };

/** Reads `--labels FILE`, else `<root>/.agentv/labels.jsonl`; a named file must exist. */
export async function readLabelsArg(
  arg: string | undefined,
  root: string,
  io: CommandIO,
): Promise<LabelsRead> {
  const file = arg === undefined ? join(root, LABELS_FILE) : resolve(io.cwd, arg);
  try {
    const info = await Deno.stat(file);
    if (!info.isFile) {
      throw new UsageError(`The labels file '${displayPath(file, io.cwd)}' is not a file`);
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    if (arg !== undefined) {
      throw new UsageError(
        `The labels file '${displayPath(file, io.cwd)}' does not exist`,
        "label answers in agentv view, import them with agentv label import, or write one JSON " +
          "label per line (see docs/commands/calibrate.md)",
      );
    }
    return { found: false, file };
  }
  const { labels, problems } = await readLabels(file);
  return { found: true, file, labels, problems };
}

/**
 * The eval files of every results file's run, loaded as the run loaded them. Throws
 * {@link UsageError} when a results file has no run record or its eval files are not here as
 * they were (`why` says what needs them).
 */
export async function loadRunSets(
  results: readonly ResultsInput[],
  io: CommandIO,
  why: string,
): Promise<LoadedEvalSet[]> {
  const sets = new Map<string, LoadedEvalSet>();
  for (const r of results) {
    if (r.record === undefined) {
      throw new UsageError(
        `${why}: ${displayPath(r.path, io.cwd)} has no run record (${
          displayPath(runRecordPath(r.path), io.cwd)
        }), so its eval files are unknown`,
        "use results written by agentv run, with their .run.json beside them",
      );
    }
    const recorded = await loadRecordedSets(r.record, io);
    if (!recorded.loaded) {
      throw new UsageError(
        `${why}: ${recorded.note}`,
        "run agentv calibrate where the run's eval files are, unchanged since the run",
      );
    }
    for (const set of recorded.sets) if (!sets.has(set.file)) sets.set(set.file, set);
  }
  return [...sets.values()];
}
