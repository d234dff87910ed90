/**
 * The results file of a resumed run (`agentv run --resume <results>`): which of its rows count as
 * finished, and how the file is made ready to take the rows of the cases that run again.
 *
 * A row is finished unless it is an `interrupted` error (a case stopped by Ctrl-C) or a `skipped`
 * row (a case a budget stop never started). Other errors are finished: their case ran and failed
 * (`--retry-errors` reruns them into a new file). Before the resumed run appends, the file keeps
 * every line except the unfinished rows (run again, so each case is in the file once) and a torn
 * last line (a run killed mid-write); a line that is not a valid row is kept as it is.
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";
import type { ResultRow } from "../schema/result.ts";
import type { RunOptionsRecord, RunRecord, RunTargetRecord } from "../schema/run_record.ts";
import { parseResultLine, RowKeys } from "./read_results.ts";
import { forEachResultsLine, type ResultsFileLimits } from "./results_file.ts";
import { writeFileAtomic } from "../fs/atomic_write.ts";

/**
 * Whether a row of a run counts as finished when the run is resumed (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isFinishedRow } from "./resume_file.ts";
 * assert.equal(isFinishedRow({ status: "error", error: "interrupted" } as never), false);
 * assert.equal(isFinishedRow({ status: "error", error: "HTTP 500" } as never), true);
 * assert.equal(isFinishedRow({ status: "skipped", error: "budget" } as never), false);
 * ```
 */
export function isFinishedRow(row: Pick<ResultRow, "status" | "error">): boolean {
  if (row.status === "skipped") return false;
  return !(row.status === "error" && row.error === "interrupted");
}

/** What {@link readResumeFile} found in a results file. */
export interface ResumeFileContent {
  /** The finished rows, in file order. */
  finished: ResultRow[];
  /** Unfinished rows (to run again; removed from the file by {@link prepareResumeFile}). */
  unfinished: ResultRow[];
  /** Whether the file ends in a torn line (cut off by {@link prepareResumeFile}). */
  tornLine: boolean;
  /** The text the file will hold once prepared: every other line, as it was. */
  keptText: string;
  /** Whether the file's text must change (a torn line or unfinished rows). */
  changes: boolean;
  /** Whether {@link ResumeFileContent.keptText} starts the file: preparing it only cuts the end. */
  prefix: boolean;
  /**
   * A second finished row of one (dataset, case, target, trial), one problem per such line: the
   * file is not one run's, and a resume must not go on (`readPriorRun` refuses it).
   */
  duplicates: Diagnostic[];
}

/**
 * Reads a results file for a resume, changing nothing (see the module doc), through the bounded
 * reader of results files (`results_file.ts`). Throws the file system's error when it cannot be
 * read, and a `ResultsFileError` when it is not a regular file or too large.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readResumeFile } from "./resume_file.ts";
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * await Deno.writeTextFile(path, '{"eval_id": "a", "sco');
 * const found = await readResumeFile(path);
 * assert.deepEqual([found.tornLine, found.keptText], [true, ""]);
 * await Deno.remove(path);
 * ```
 */
export async function readResumeFile(
  path: string,
  limits: ResultsFileLimits = {},
): Promise<ResumeFileContent> {
  const finished: ResultRow[] = [];
  const unfinished: ResultRow[] = [];
  const duplicates: Diagnostic[] = [];
  const keys = new RowKeys(path);
  const kept: string[] = [];
  let tornLine = false;
  let changes = false;
  // Whether a line was left out before the one at hand (then preparing rewrites the file).
  let cut = false;
  let prefix = true;
  await forEachResultsLine(path, (line) => {
    const read = parseResultLine(line, path);
    // The text after the last newline: blank, a line a killed run did not finish writing, or a
    // whole row whose newline was lost.
    if (!line.terminated && read.kind !== "row") {
      if (read.kind !== "blank") tornLine = true;
      changes = true;
      return;
    }
    if (read.kind === "row" && !isFinishedRow(read.row)) {
      unfinished.push(read.row);
      changes = cut = true;
      return;
    }
    if (read.kind === "row") {
      const duplicate = keys.check(read.row, line.number);
      if (duplicate !== undefined) duplicates.push(duplicate);
      finished.push(read.row);
    }
    // A whole row whose newline was lost is kept, with its newline.
    if (!line.terminated) changes = true;
    if (cut || !line.terminated) prefix = false;
    kept.push(line.text + "\n");
  }, limits);
  return { finished, unfinished, tornLine, keptText: kept.join(""), changes, prefix, duplicates };
}

/**
 * Makes a results file ready for a resumed run to append to: cuts a torn last line off (only a
 * truncation when nothing else changes) or, when unfinished rows must go, writes the kept lines
 * to a temporary file renamed over it, so the file is never half rewritten. Returns what it found.
 * `found` is what {@link readResumeFile} read of it (the file is then not read again).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prepareResumeFile } from "./resume_file.ts";
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * await Deno.writeTextFile(path, '{"eval_id": "a", "sco');
 * await prepareResumeFile(path);
 * assert.equal(await Deno.readTextFile(path), ""); // the torn line is cut off
 * await Deno.remove(path);
 * ```
 */
export async function prepareResumeFile(
  path: string,
  found?: ResumeFileContent,
): Promise<ResumeFileContent> {
  found ??= await readResumeFile(path);
  if (!found.changes) return found;
  const bytes = new TextEncoder().encode(found.keptText);
  if (found.prefix) await Deno.truncate(path, bytes.length);
  else await writeFileAtomic(path, bytes);
  return found;
}

/** Where a run's rows came from when it reran a parent's (see {@link RunRecorderParent}). */
export interface RunRecorderParent {
  /** The parent's run id. */
  run_id: string;
  /** The parent's results file (absolute). */
  results_path: string;
  /** Which rows were rerun. */
  rerun: "failed" | "errors";
}

/**
 * The record of a resumed run while it runs again: the old record (same run id, start time and
 * datasets) with `status: "running"`, no end, the results file where it now is, the options of
 * this session, the targets of both, and a new entry in `resumed`.
 *
 * @example
 * ```ts ignore
 * import { resumedRecord } from "./resume_file.ts";
 * const record = resumedRecord(old, {
 *   now: Date.now(),
 *   resultsPath: "/repo/out.jsonl",
 *   found,
 *   options,
 *   targets,
 *   version: "0.1.0",
 * });
 * record.resumed?.length; // one more than before
 * ```
 */
export function resumedRecord(
  old: RunRecord,
  current: {
    now: number;
    resultsPath: string;
    found: ResumeFileContent;
    options: RunOptionsRecord;
    targets: RunTargetRecord[];
    version: string;
  },
): RunRecord {
  const key = (t: RunTargetRecord) => `${t.targets_file ?? ""}\0${t.name}`;
  const known = new Set(old.targets.map(key));
  return {
    ...old,
    agentv_version: current.version,
    results_path: current.resultsPath,
    status: "running",
    ended_at: null,
    options: { ...old.options, ...current.options },
    targets: [...old.targets, ...current.targets.filter((t) => !known.has(key(t)))],
    summary: null,
    error: null,
    resumed: [...(old.resumed ?? []), {
      started_at: new Date(current.now).toISOString(),
      ended_at: null,
      kept_rows: current.found.finished.length,
      dropped_rows: current.found.unfinished.length,
      torn_line: current.found.tornLine,
    }],
  };
}

/** The record with the end time set on its last `resumed` session, if that one is open. */
export function endResumedSession(record: RunRecord, endedAt: string): RunRecord {
  const sessions = record.resumed;
  const last = sessions?.[sessions.length - 1];
  if (!sessions || !last || last.ended_at !== null) return record;
  return { ...record, resumed: [...sessions.slice(0, -1), { ...last, ended_at: endedAt }] };
}
