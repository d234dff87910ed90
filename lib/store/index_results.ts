/**
 * Indexing results files into the history store, incrementally: a results file whose size and
 * modification time, whose run record's size and modification time, and the SHA-256 of whose
 * first 64 KiB are what the store noted when it last read it, is not read again. A file that
 * changed (a run still writing, a resumed run) is read whole and its run replaced. A file that
 * is gone from a folder indexed again takes its run out of the store (the store mirrors the
 * files; runs pushed from elsewhere have no file and stay).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { readResults } from "../results/read_results.ts";
import { openRegularFile } from "../results/results_file.ts";
import { readRunRecord, runRecordPath } from "../results/run_record.ts";
import type { RunRecord } from "../schema/run_record.ts";
import { readLabels } from "../results/labels.ts";
import type { FileEntry, HistoryStore } from "./history_store.ts";
import { buildStoredRun, type StoredRun } from "./stored_run.ts";

/** How much of a file's start is hashed to tell it unchanged. */
export const HEAD_BYTES = 64 * 1024;

/** Most results files one index looks at. */
export const MAX_INDEXED_FILES = 100_000;

/** Options of {@link indexResults}. */
export interface IndexResultsOptions {
  /** Called for each file that was not indexed, with why (default: ignored). */
  onSkip?: (path: string, reason: string) => void;
  /** Stops between files when aborted. */
  signal?: AbortSignal;
}

/** What {@link indexResults} did. */
export interface IndexReport {
  /** Results files found. */
  files: number;
  /** Files read and stored (new or changed). */
  indexed: number;
  /** Files left alone (unchanged since they were read). */
  unchanged: number;
  /** Files that hold no result rows, or could not be read. */
  skipped: number;
  /** Runs taken out because their file is gone. */
  removed: number;
}

/** A file's size, modification time and the hash of its head. */
interface FileState {
  size: number;
  mtime_ms: number | null;
  head: Uint8Array;
  head_sha256: string;
}

async function fileState(path: string): Promise<FileState> {
  const { file, info } = await openRegularFile(path, { label: "results file" });
  using _ = file;
  const buffer = new Uint8Array(Math.min(HEAD_BYTES, info.size));
  let filled = 0;
  while (filled < buffer.length) {
    const n = await file.read(buffer.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  const head = buffer.subarray(0, filled);
  return {
    size: info.size,
    mtime_ms: info.mtime?.getTime() ?? null,
    head,
    head_sha256: createHash("sha256").update(head).digest("hex"),
  };
}

/** The first {@link HEAD_BYTES} of a regular file (what names a run that has no id anywhere). */
export async function fileHead(path: string): Promise<Uint8Array> {
  return (await fileState(path)).head;
}

async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    const info = await Deno.stat(path);
    return info.isFile ? info : null;
  } catch {
    return null;
  }
}

/**
 * The results files under `dir` (recursively): `*.jsonl` files other than `labels.jsonl`, leaving
 * out folders whose name starts with `.` (below `dir`) and `node_modules`; links to folders are
 * not followed.
 */
export async function findResultsFiles(dir: string, limit = MAX_INDEXED_FILES): Promise<string[]> {
  const out: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(folder));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      if (out.length >= limit) return;
      const path = join(folder, entry.name);
      if (entry.isDirectory) {
        if (!entry.name.startsWith(".") && entry.name !== "node_modules") await walk(path);
      } else if (entry.name.endsWith(".jsonl") && entry.name !== "labels.jsonl") {
        if (entry.isFile || (entry.isSymlink && (await statOrNull(path)) !== null)) out.push(path);
      }
    }
  };
  await walk(resolve(dir));
  return out;
}

/** Reads one results file and its record into a stored run (undefined when it holds no rows). */
async function readRun(path: string, head: Uint8Array): Promise<StoredRun | string> {
  const read = await readResults(path);
  if (read.rows.length === 0) {
    return read.problems[0]?.message ?? "no result rows";
  }
  let record: RunRecord | null = null;
  try {
    record = await readRunRecord(runRecordPath(path));
  } catch {
    record = null; // no record, or not a valid one: the rows alone make the run
  }
  return buildStoredRun({ rows: read.rows, record, source: path, head });
}

function unchanged(
  entry: FileEntry | undefined,
  state: FileState,
  record: Deno.FileInfo | null,
): boolean {
  return entry !== undefined && entry.size === state.size && entry.mtime_ms === state.mtime_ms &&
    entry.head_sha256 === state.head_sha256 &&
    entry.record_size === (record?.size ?? null) &&
    entry.record_mtime_ms === (record?.mtime?.getTime() ?? null);
}

/**
 * Indexes the results files under `dirs` into `store` (see the module doc).
 *
 * @example
 * ```ts ignore
 * const store = await openHistoryStore({ root: "/repo" });
 * const report = await indexResults(store, ["/repo/.agentv/results"]);
 * console.log(report.indexed, report.unchanged);
 * ```
 */
export async function indexResults(
  store: HistoryStore,
  dirs: readonly string[],
  options: IndexResultsOptions = {},
): Promise<IndexReport> {
  const report: IndexReport = { files: 0, indexed: 0, unchanged: 0, skipped: 0, removed: 0 };
  const seen = new Set<string>();
  const roots = dirs.map((d) => resolve(d));
  for (const dir of roots) {
    for (const path of await findResultsFiles(dir)) {
      if (options.signal?.aborted || seen.has(path)) continue;
      seen.add(path);
      report.files++;
      await indexFile(store, path, report, options);
    }
  }
  // Files gone from the folders indexed: their runs go too, unless another file holds them.
  const entries = await store.fileEntries();
  const kept = new Set(entries.filter((e) => seen.has(e.path)).map((e) => e.run_id));
  for (const entry of entries) {
    if (seen.has(entry.path) || !roots.some((r) => entry.path.startsWith(r + "/"))) continue;
    if (await statOrNull(entry.path) !== null) continue;
    await store.deleteFileEntry(entry.path);
    if (entry.run_id !== null && !kept.has(entry.run_id)) {
      await store.deleteRun(entry.run_id);
      report.removed++;
    }
  }
  return report;
}

async function indexFile(
  store: HistoryStore,
  path: string,
  report: IndexReport,
  options: IndexResultsOptions,
): Promise<void> {
  let state: FileState;
  try {
    state = await fileState(path);
  } catch (error) {
    report.skipped++;
    options.onSkip?.(path, (error as Error).message);
    return;
  }
  const record = await statOrNull(runRecordPath(path));
  const entry = await store.fileEntry(path);
  if (unchanged(entry, state, record)) {
    report.unchanged++;
    return;
  }
  let run: StoredRun | string;
  try {
    run = await readRun(path, state.head);
  } catch (error) {
    run = (error as Error).message;
  }
  if (typeof run === "string") {
    report.skipped++;
    options.onSkip?.(path, run);
  } else {
    await store.putRun(run);
    report.indexed++;
  }
  await store.putFileEntry({
    path,
    size: state.size,
    mtime_ms: state.mtime_ms,
    head_sha256: state.head_sha256,
    record_size: record?.size ?? null,
    record_mtime_ms: record?.mtime?.getTime() ?? null,
    run_id: typeof run === "string" ? null : run.entry.run_id,
  });
}

/**
 * Copies the labels of a labels file into the store (labels it already holds are not added
 * twice). Returns how many were new, and the file's problems (lines that are not labels).
 */
export async function importLabelsFile(
  store: HistoryStore,
  path: string,
): Promise<{ added: number; problems: number }> {
  const { labels, problems } = await readLabels(path);
  return { added: await store.addLabels(labels), problems: problems.length };
}
