/**
 * `<results>.run.json`, the run record beside each results file: where it lives, how it is
 * written (whole, through a temporary file renamed over it, so a reader never sees half a
 * record), how it is read back, and the run id and dataset hashes it holds.
 *
 * @module
 */
import { createHash } from "node:crypto";
import denoJson from "../../deno.json" with { type: "json" };
import { parseRunRecord, type RunRecord } from "../schema/run_record.ts";
import { writeFileAtomicSync } from "../fs/atomic_write.ts";
import { openRegularFile, readRegularFileText } from "./results_file.ts";
import { AgentvError } from "../errors/agentv_error.ts";

/** The version of agentv (from `deno.json`), recorded as `agentv_version`. */
export const AGENTV_VERSION: string = denoJson.version;

/**
 * The run record's path: the results path + `.run.json`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runRecordPath } from "./run_record.ts";
 * assert.equal(
 *   runRecordPath("/repo/.agentv/results/ds.jsonl"),
 *   "/repo/.agentv/results/ds.jsonl.run.json",
 * );
 * ```
 */
export function runRecordPath(resultsPath: string): string {
  return `${resultsPath}.run.json`;
}

/**
 * A new run id: the UTC start time (ISO-8601 with `:` and `.` replaced by `-`) and 8 random hex
 * digits, so ids sort by start time and two runs started in the same millisecond differ.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { newRunId } from "./run_record.ts";
 * assert.match(newRunId(Date.UTC(2026, 0, 21, 10, 22, 57, 123)), /^2026-01-21T10-22-57-123Z-/);
 * ```
 */
export function newRunId(time: number): string {
  const stamp = new Date(time).toISOString().replace(/[:.]/g, "-");
  const random = crypto.getRandomValues(new Uint8Array(4));
  return `${stamp}-${[...random].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The lower-case hex SHA-256 of a file's bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256File } from "./run_record.ts";
 * const path = await Deno.makeTempFile();
 * assert.equal(
 *   await sha256File(path), // the empty file
 *   "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
 * );
 * await Deno.remove(path);
 * ```
 */
export async function sha256File(path: string): Promise<string> {
  // A regular file only, hashed as it is read: a recorded path that names a FIFO or `/dev/zero`
  // can neither block nor fill memory.
  const { file } = await openRegularFile(path, { label: "eval file" });
  using _ = file;
  const hash = createHash("sha256");
  const buffer = new Uint8Array(1024 * 1024);
  for (let n = await file.read(buffer); n !== null; n = await file.read(buffer)) {
    hash.update(buffer.subarray(0, n));
  }
  return hash.digest("hex");
}

/**
 * Writes a run record whole: to a temporary file beside it, then renamed over it, so the file
 * always holds a complete record (the previous one until the rename). Synchronous, so the end of
 * a run is on disk before the run's last event is passed on.
 *
 * @example
 * ```ts ignore
 * import { writeRunRecord } from "./run_record.ts";
 * writeRunRecord("/repo/.agentv/results/ds.jsonl.run.json", record);
 * ```
 */
export function writeRunRecord(path: string, record: RunRecord): void {
  writeFileAtomicSync(path, JSON.stringify(record, null, 2) + "\n");
}

/**
 * The largest run record read: 64 MiB (a record holds the options, targets, eval files and
 * summary of a run; its lists of failures and errors are short).
 */
export const RUN_RECORD_MAX_BYTES: number = 64 * 1024 * 1024;

/** A run record that could not be read: not found, not JSON, or not a run record. */
export class RunRecordError extends AgentvError {
  /** The run record's path. */
  readonly path: string;

  /** Creates the error. */
  constructor(path: string, message: string, options?: ErrorOptions) {
    super("run_record", `${path}: ${message}`, { cause: options?.cause });
    this.name = "RunRecordError";
    this.path = path;
  }
}

/**
 * Reads and checks a run record (`<results>.run.json`). Throws {@link RunRecordError} when it is
 * missing, not JSON, or not a valid record.
 *
 * @example
 * ```ts ignore
 * import { readRunRecord, runRecordPath } from "./run_record.ts";
 * const record = await readRunRecord(runRecordPath("out.jsonl"));
 * console.log(record.status, record.ended_at);
 * ```
 */
export async function readRunRecord(path: string): Promise<RunRecord> {
  let text: string;
  try {
    text = await readRegularFileText(path, {
      label: "run record",
      maxBytes: RUN_RECORD_MAX_BYTES,
      tooLargeHint: "agentv writes far smaller records; is it the file agentv run wrote?",
    });
  } catch (e) {
    throw new RunRecordError(path, `cannot read the run record: ${(e as Error).message}`, {
      cause: e,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new RunRecordError(path, `not JSON: ${(e as Error).message}`, { cause: e });
  }
  const checked = parseRunRecord(value);
  if (!checked.ok) {
    throw new RunRecordError(
      path,
      `not a run record: ${checked.error}; expected the file agentv run writes beside a results file`,
    );
  }
  return checked.record;
}
