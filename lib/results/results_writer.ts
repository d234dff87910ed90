/**
 * The results file: one JSON line per case, written with a single full-line write as each case
 * finishes, so a crash (even `kill -9`) leaves every written row intact.
 *
 * @module
 */
import { dirname } from "node:path";
import type { ResultRow } from "../schema/result.ts";
import { AgentvError, EXIT } from "../errors/agentv_error.ts";
import { formatByteSize, RESULTS_LINE_MAX_BYTES } from "./results_file.ts";
import { compactRow } from "./row_format.ts";
import type { RunSummary } from "./summary.ts";

/** Options of {@link openResultsWriter}. */
export interface ResultsWriterOptions {
  /** Keep existing rows and append (default `false`: the file is truncated). */
  append?: boolean;
}

/** An open results file. */
export interface ResultsWriter {
  /** Absolute or cwd-relative path of the file. */
  readonly path: string;
  /** Number of rows written so far. */
  readonly count: number;
  /**
   * Writes one row as one line. The line is in the operating system's hands when this returns.
   * The row is written as given: the recorder (`recorder.ts`) redacts secrets first.
   * Throws {@link RowEncodeError} (nothing written, the file still usable) when the row cannot
   * be turned into JSON, and {@link ResultsWriteError} when the line cannot be written; the file
   * then still ends with the last whole row.
   */
  write(row: ResultRow): void;
  /** Closes the file. Safe to call twice. */
  close(): void;
}

const encoder = new TextEncoder();

/**
 * Opens (creating parent folders) a JSONL results file for writing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openResultsWriter } from "./results_writer.ts";
 * const dir = await Deno.makeTempDir();
 * const writer = await openResultsWriter(`${dir}/.agentv/results/run.jsonl`); // makes the folders
 * // writer.write(row) after each case, then:
 * writer.close();
 * assert.equal(await Deno.readTextFile(`${dir}/.agentv/results/run.jsonl`), "");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function openResultsWriter(
  path: string,
  options: ResultsWriterOptions = {},
): Promise<ResultsWriter> {
  await Deno.mkdir(dirname(path), { recursive: true });
  const file = await Deno.open(path, {
    write: true,
    create: true,
    append: options.append ?? false,
    truncate: !(options.append ?? false),
  });
  let count = 0;
  let size = options.append ? (await file.stat()).size : 0;
  let closed = false;
  return {
    path,
    get count() {
      return count;
    },
    write(row: ResultRow): void {
      if (closed) throw new Error(`Results file ${path} is closed`);
      let bytes: Uint8Array;
      try {
        // The answer is stored once: a trace that is only the answer is left out (row_format.ts).
        bytes = encoder.encode(JSON.stringify(compactRow(row)) + "\n");
        // A line the readers of results files refuse is never written (`results_file.ts`).
        if (bytes.length - 1 > RESULTS_LINE_MAX_BYTES) {
          throw new RangeError(
            `the row is ${bytes.length - 1} bytes, over the ${
              formatByteSize(RESULTS_LINE_MAX_BYTES)
            } a results line may hold`,
          );
        }
      } catch (error) {
        throw new RowEncodeError(row, error);
      }
      let offset = 0;
      try {
        // One logical write of the full line; loop only if the OS accepts part of it.
        while (offset < bytes.length) offset += file.writeSync(bytes.subarray(offset));
      } catch (error) {
        // A torn line is worse than a missing one: cut the file back to its last whole row.
        if (offset > 0) {
          try {
            file.truncateSync(size);
          } catch { /* the rows before are still whole; a reader skips a torn last line */ }
        }
        throw new ResultsWriteError(path, count, error);
      }
      size += offset;
      count++;
    },
    close() {
      if (closed) return;
      closed = true;
      file.close();
    },
  };
}

/**
 * A row could not be turned into a JSON line (a string too long for the runtime, a cycle, a
 * BigInt): the row's fault, not the file's; nothing was written and the file takes more rows.
 */
export class RowEncodeError extends Error {
  /** Creates the error; `cause` is the serialiser's error. */
  constructor(row: ResultRow, cause: unknown) {
    const reason = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    super(`The row of case '${row.eval_id}' could not be serialised as JSON (${reason})`, {
      cause,
    });
    this.name = "RowEncodeError";
  }
}

/** A row could not be written to the results file (disk full, file too large, I/O error). */
export class ResultsWriteError extends AgentvError {
  /** What to do about it, by the operating system's error (disk full, no permission, …). */
  declare readonly hint: string;
  /** The results file. */
  readonly path: string;
  /** Rows written (and kept) before the failure. */
  readonly rowsWritten: number;
  /** The partial summary of the run that stopped (set by `runEval`). */
  summary?: RunSummary;

  /** Creates the error; `cause` is the operating system's error. */
  constructor(path: string, rowsWritten: number, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super("results_write", `Could not write to the results file ${path}: ${reason}`, {
      cause,
      hint: writeFailureHint(cause),
      exitCode: EXIT.failed,
    });
    this.name = "ResultsWriteError";
    this.path = path;
    this.rowsWritten = rowsWritten;
  }
}

/** What to do about a failed write, by the operating system's error (disk full, no permission, …). */
function writeFailureHint(cause: unknown): string {
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (code === "ENOSPC" || code === "EDQUOT" || /no space left|quota/i.test(String(cause))) {
    return "free space on that disk or pass --out with a path on another disk";
  }
  if (code === "EFBIG" || /file too large/i.test(String(cause))) {
    return "the file reached the size limit of its file system or process (ulimit -f); " +
      "pass --out with a path where it may grow";
  }
  if (cause instanceof Deno.errors.PermissionDenied || cause instanceof Deno.errors.NotCapable) {
    return "make the file writable or pass --out with a writable path";
  }
  return "check the file and the disk it is on, or pass --out with another path";
}
