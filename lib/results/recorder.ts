/**
 * The recorder: subscribes to `runEval`'s events and records the run. It redacts every row (with
 * the run's one redactor, passed in), writes it to the results file as one full line the moment
 * its `case_finished` event arrives (a row that cannot be serialised, e.g. a string too long
 * for JSON, is replaced by an error row saying so: one bad row never stops the file), keeps the
 * summary, and keeps `<results>.run.json` (the run
 * record) up to date: `running` when the run starts, `finished` / `interrupted` / `failed` with
 * the end time and summary when it ends. Listeners after it see the rows as written.
 *
 * @module
 */
import type { ResultRow } from "../schema/result.ts";
import type {
  RunOptionsRecord,
  RunRecord,
  RunStatus,
  RunTargetRecord,
} from "../schema/run_record.ts";
import type { RunEvent, RunStartedEvent } from "./events.ts";
import {
  openResultsWriter,
  ResultsWriteError,
  type ResultsWriter,
  RowEncodeError,
} from "./results_writer.ts";
import {
  AGENTV_VERSION,
  newRunId,
  runRecordPath,
  sha256File,
  writeRunRecord,
} from "./run_record.ts";
import { createSummaryAccumulator, type RunSummary, type SummarizeOptions } from "./summary.ts";
import {
  endResumedSession,
  prepareResumeFile,
  resumedRecord,
  type ResumeFileContent,
  type RunRecorderParent,
} from "./resume_file.ts";

/**
 * What the recorder needs of the run's redactor (`createRedactor` in `lib/text/redact.ts`
 * satisfies it): the report layer takes it as a value and never builds one.
 */
export interface RowRedactor {
  /** The row with secrets redacted (the same object when nothing changed). */
  row(row: ResultRow): ResultRow;
  /** Text with secrets redacted. */
  text(text: string): string;
}

/** Options of {@link createRunRecorder}. */
export interface RunRecorderOptions {
  /** Results file (absolute); nothing is written when absent. */
  resultsPath?: string;
  /** The run's redactor (default: rows pass unchanged). */
  redactor?: RowRedactor;
  /** Keep every row in memory ({@link RunRecorder.rows}); default true. */
  keepRows?: boolean;
  /** Clock in ms for the record's times (default `Date.now`). */
  now?: () => number;
  /** The next listener: gets every event once the recorder has handled it, rows redacted. */
  onEvent?: (event: RunEvent) => void;
  /**
   * The record of the run this one resumes (`--resume`, into `resultsPath`): `open` drops the
   * file's unfinished rows and torn last line (`resume_file.ts`), appends, counts the finished
   * rows in the summary and updates this record (same run id, a new `resumed` session).
   */
  resume?: RunRecord;
  /** What was read of the resumed results file (`readResumeFile`), so it is not read again. */
  resumeFile?: ResumeFileContent;
  /** The run whose rows this one reruns (`--rerun-failed`, `--retry-errors`): recorded. */
  parent?: RunRecorderParent;
}

/** Records one run; see the module doc. */
export interface RunRecorder {
  /** Handles one event of the run, then passes it on (see {@link RunRecorderOptions.onEvent}). */
  readonly onEvent: (event: RunEvent) => void;
  /**
   * Opens the results file (truncating it; with `resume`, keeping its finished rows and
   * appending) and writes the run record with status `running`,
   * before `start` is emitted. Fills in `start.run_id` and `start.started_at` when absent.
   * Throws the file system's error when either cannot be written.
   */
  open(start: RunStartedEvent & { options: RunOptionsRecord }): Promise<RunStartedEvent>;
  /** The rows recorded, in completion order (empty with `keepRows: false`). */
  readonly rows: ResultRow[];
  /** Rows recorded so far. */
  readonly count: number;
  /** Why the results file stopped taking rows; later rows are still summarised, not written. */
  readonly writeFailure: ResultsWriteError | undefined;
  /** Why the end of the run could not be written to the run record (it then reads `running`). */
  readonly recordWriteFailure: Error | undefined;
  /** The run id (set by {@link RunRecorder.open}). */
  readonly runId: string | undefined;
  /** Closes the results file and returns the summary of the rows recorded. */
  summarize(options: SummarizeOptions): RunSummary;
  /** Records that the run failed (status `failed`, the reason, the partial summary if any). */
  fail(error: unknown, summary?: RunSummary): void;
}

/**
 * The row as an error row that can be written: its identity, timing and verdict kept, what made
 * it unserialisable (evaluator results, answer, trace) dropped, `error` saying why.
 */
function unserialisableRow(row: ResultRow, error: RowEncodeError): ResultRow {
  const message = `${error.message}; its answer, trace and evaluator results were dropped`;
  return {
    run_id: row.run_id,
    trial: row.trial,
    timestamp: row.timestamp,
    eval_id: row.eval_id,
    dataset: row.dataset,
    conversation_id: row.conversation_id,
    target: row.target,
    status: "error",
    score: 0,
    verdict: "fail",
    hits: [],
    misses: [message],
    reasoning: null,
    candidate_answer: "",
    evaluator_results: [],
    trace_summary: null,
    output_messages: [],
    token_usage: null,
    duration_ms: row.duration_ms,
    attempts: row.attempts,
    error: message,
    ...(row.dry_run === true ? { dry_run: true } : {}),
  };
}

/**
 * Writes `row`; a row that cannot be serialised is replaced by {@link unserialisableRow}, which
 * is written (and returned) instead. Throws {@link ResultsWriteError} when the file fails.
 */
function writeRow(writer: ResultsWriter, row: ResultRow): ResultRow {
  try {
    writer.write(row);
    return row;
  } catch (e) {
    if (!(e instanceof RowEncodeError)) throw e;
    const replacement = unserialisableRow(row, e);
    writer.write(replacement);
    return replacement;
  }
}

/**
 * Creates a recorder. Create it before the run so it sees every `target_resolved` event; call
 * {@link RunRecorder.open} once nothing can stop the run any more; send it every event.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createRunRecorder } from "./recorder.ts";
 * const seen: string[] = [];
 * const recorder = createRunRecorder({ onEvent: (e) => seen.push(e.type) });
 * const options = {
 *   target: null, targets_file: null, judge_target: null, filter: null, workers: 1,
 *   timeout_ms: 1000, dry_run: false, threshold: null, root: null,
 * };
 * const start = await recorder.open({
 *   type: "run_started", total: 0, files: [], workers: 1, dry_run: false, options,
 * });
 * recorder.onEvent(start);
 * recorder.onEvent({ type: "run_finished", summary: recorder.summarize({}) });
 * assert.deepEqual(seen, ["run_started", "run_finished"]);
 * ```
 */
export function createRunRecorder(options: RunRecorderOptions = {}): RunRecorder {
  const now = options.now ?? Date.now;
  const forward = options.onEvent ?? (() => {});
  const redactor = options.redactor;
  const keepRows = options.keepRows ?? true;
  // Set by `open` when the results file is a regular file (not `/dev/full` or `/dev/stdout`).
  let recordPath: string | undefined;
  const rows: ResultRow[] = [];
  const accumulator = createSummaryAccumulator();
  const targets = new Map<string, RunTargetRecord>();
  let writer: ResultsWriter | undefined;
  let writeFailure: ResultsWriteError | undefined;
  let record: RunRecord | undefined;
  let count = 0;
  let runIdValue: string | undefined;
  let recordWriteFailure: Error | undefined;

  const update = (status: RunStatus, end: { summary?: RunSummary; error?: string }) => {
    if (record === undefined || recordPath === undefined || record.status !== "running") return;
    record = {
      ...record,
      status,
      ended_at: new Date(now()).toISOString(),
      summary: end.summary ?? null,
      error: end.error === undefined ? null : redactor?.text(end.error) ?? end.error,
    };
    if (options.resume) record = endResumedSession(record, record.ended_at!);
    try {
      writeRunRecord(recordPath, record);
    } catch (e) {
      // The end of the run cannot be recorded (disk full, file-size limit): the record stays
      // `running`, as after a crash, and the rows already written stay whole.
      recordWriteFailure ??= e instanceof Error ? e : new Error(String(e));
    }
  };

  const handle = (event: RunEvent): RunEvent => {
    switch (event.type) {
      case "target_resolved": {
        const key = `${event.targets_file ?? ""}\0${event.target}`;
        if (!targets.has(key)) {
          targets.set(key, {
            name: event.target,
            provider: event.provider,
            model: event.model ?? null,
            endpoint: event.endpoint ?? null,
            judge_target: event.judge_target ?? null,
            targets_file: event.targets_file ?? null,
            ...(event.settings ? { settings: event.settings } : {}),
          });
        }
        return event;
      }
      case "case_finished": {
        // Every row leaves redacted: the file, `rows` and the listeners see the same row.
        let row = redactor ? redactor.row(event.row) : event.row;
        count++;
        if (writer !== undefined && writeFailure === undefined) {
          try {
            row = writeRow(writer, row);
          } catch (e) {
            writeFailure = e instanceof ResultsWriteError
              ? e
              : new ResultsWriteError(writer.path, writer.count, e);
          }
        }
        if (keepRows) rows.push(row);
        accumulator.add(row);
        return row === event.row ? event : { ...event, row };
      }
      case "run_finished":
        update(event.summary.interrupted ? "interrupted" : "finished", { summary: event.summary });
        return event;
      default:
        return event;
    }
  };

  return {
    onEvent: (event) => forward(handle(event)),
    async open(start) {
      const started = start.started_at === undefined ? now() : Date.parse(start.started_at);
      const runId = start.run_id ?? newRunId(started);
      const filled: RunStartedEvent = {
        ...start,
        run_id: runId,
        started_at: new Date(started).toISOString(),
      };
      runIdValue = runId;
      if (options.resultsPath === undefined) return filled;
      const resumed = options.resume &&
        await prepareResumeFile(options.resultsPath, options.resumeFile);
      writer = await openResultsWriter(options.resultsPath, { append: resumed !== undefined });
      // The summary of a resumed run is over every row of the file, old and new.
      for (const row of resumed ? resumed.finished : []) {
        if (keepRows) rows.push(row);
        accumulator.add(row);
      }
      // A device (`--out /dev/stdout`) gets rows but no record beside it.
      if (!(await Deno.stat(options.resultsPath)).isFile) return filled;
      recordPath = runRecordPath(options.resultsPath);
      const datasets: RunRecord["datasets"] = [];
      for (const path of start.files) {
        datasets.push({ path, sha256: await sha256File(path).catch(() => null) });
      }
      const recordTargets = [...targets.values()].map((t) => ({
        ...t,
        endpoint: t.endpoint === null ? null : redactor?.text(t.endpoint) ?? t.endpoint,
      }));
      record = options.resume && resumed
        ? resumedRecord(options.resume, {
          now: now(),
          resultsPath: options.resultsPath,
          found: resumed,
          options: start.options,
          targets: recordTargets,
          version: AGENTV_VERSION,
        })
        : {
          schema_version: 1,
          run_id: runId,
          agentv_version: AGENTV_VERSION,
          status: "running",
          started_at: filled.started_at!,
          ended_at: null,
          results_path: options.resultsPath,
          options: start.options,
          targets: recordTargets,
          datasets,
          summary: null,
          error: null,
          ...(options.parent
            ? {
              parent_run_id: options.parent.run_id,
              parent_results_path: options.parent.results_path,
              rerun: options.parent.rerun,
            }
            : {}),
        };
      try {
        writeRunRecord(recordPath, record);
      } catch (e) {
        writer.close();
        throw e;
      }
      return filled;
    },
    get rows() {
      return rows;
    },
    get count() {
      return count;
    },
    get writeFailure() {
      return writeFailure;
    },
    get recordWriteFailure() {
      return recordWriteFailure;
    },
    get runId() {
      return runIdValue;
    },
    summarize(summaryOptions) {
      writer?.close();
      return accumulator.finish({
        ...summaryOptions,
        ...(options.resultsPath !== undefined ? { resultsPath: options.resultsPath } : {}),
      });
    },
    fail(error, summary) {
      writer?.close();
      const message = error instanceof Error ? error.message : String(error);
      update("failed", { ...(summary !== undefined ? { summary } : {}), error: message });
    },
  };
}
