/**
 * The one way a results file is read from disk (`report`, `compare`, `merge`, `--resume`,
 * `--rerun-failed`, `--retry-errors` and the reports of `run` all come here): only a regular file
 * is opened (a link to one is followed; a FIFO, device or socket is refused before it is opened,
 * so nothing blocks and a link to `/dev/zero` reads nothing), the file may hold at most
 * {@link RESULTS_MAX_BYTES} (checked before reading and again while reading, in case it grows)
 * and a line at most {@link RESULTS_LINE_MAX_BYTES}. Lines are handed out one at a time, so
 * reading holds one line in memory, never the whole file.
 *
 * @module
 */
import { AgentvError } from "../errors/agentv_error.ts";

/**
 * The largest results file read: 512 MiB (a JavaScript string holds at most about 512 Mi
 * characters, so a larger file could never be read whole anyway).
 */
export const RESULTS_MAX_BYTES: number = 512 * 1024 * 1024;

/**
 * The longest line of a results file: 128 MiB. The results writer refuses a longer row, so agentv
 * never writes a file its readers refuse.
 */
export const RESULTS_LINE_MAX_BYTES: number = 128 * 1024 * 1024;

/** The caps of {@link readResultsLines} (library callers may lower or raise them). */
export interface ResultsFileLimits {
  /** Largest file accepted, in bytes (default {@link RESULTS_MAX_BYTES}). */
  maxBytes?: number;
  /** Longest line accepted, in bytes without its newline (default {@link RESULTS_LINE_MAX_BYTES}). */
  maxLineBytes?: number;
}

/** Why a results file was not read. */
export type ResultsFileRefusal = "not-regular" | "too-large" | "line-too-long" | "changed";

/**
 * A results file (or its run record) that must not be read: not a regular file, too large, a line
 * too long, or swapped while it was opened.
 */
export class ResultsFileError extends AgentvError {
  /** The file. */
  readonly path: string;
  /** Why it was refused. */
  readonly reason: ResultsFileRefusal;
  /** The 1-based line at fault (`line-too-long`). */
  readonly line?: number;

  /** Creates the error; `message` says what is wrong and how to fix it. */
  constructor(path: string, reason: ResultsFileRefusal, message: string, line?: number) {
    super("results_file", message);
    this.name = "ResultsFileError";
    this.path = path;
    this.reason = reason;
    if (line !== undefined) this.line = line;
  }
}

/** One line of a results file. */
export interface ResultsLine {
  /** The line's text, without its `\n`. */
  text: string;
  /** 1-based line number. */
  number: number;
  /** Whether a `\n` ended it (false only for a last line a killed run did not finish). */
  terminated: boolean;
}

/** A size for people: `512 MiB`, `1.5 KiB`, `300 bytes`. */
export function formatByteSize(n: number): string {
  const units: [number, string][] = [[1024 ** 3, "GiB"], [1024 ** 2, "MiB"], [1024, "KiB"]];
  for (const [size, unit] of units) {
    if (n >= size) return `${Number((n / size).toFixed(1))} ${unit}`;
  }
  return `${n} byte${n === 1 ? "" : "s"}`;
}

/** What {@link openRegularFile} is told about the file it opens. */
export interface RegularFileOptions {
  /** What the file is, in messages (`results file`, `run record`, `eval file`). */
  label: string;
  /** Largest size accepted, in bytes (default: no cap). */
  maxBytes?: number;
  /** How to make a file that is too large smaller (the end of the message). */
  tooLargeHint?: string;
}

/**
 * Opens `path` for reading only when it is a regular file (a link to one is followed) of at most
 * `maxBytes`: a FIFO, device, socket or folder is refused before it is opened (opening a FIFO
 * blocks until something writes to it), and the opened file must be the one checked (not swapped
 * in between). Throws {@link ResultsFileError} for a refusal, the file system's error when there
 * is nothing at `path` (`NotFound`) or it cannot be accessed. The caller closes the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openRegularFile } from "./results_file.ts";
 * const path = await Deno.makeTempFile();
 * const { file, info } = await openRegularFile(path, { label: "run record", maxBytes: 1024 });
 * file.close();
 * assert.equal(info.size, 0);
 * await Deno.remove(path);
 * ```
 */
export async function openRegularFile(
  path: string,
  options: RegularFileOptions,
): Promise<{ file: Deno.FsFile; info: Deno.FileInfo }> {
  const { label } = options;
  const info = await Deno.stat(path);
  if (info.isDirectory) {
    throw new ResultsFileError(
      path,
      "not-regular",
      `Expected a ${label} but '${path}' is a folder; name the file itself`,
    );
  }
  if (!info.isFile) {
    throw new ResultsFileError(
      path,
      "not-regular",
      `Refused to read '${path}' as a ${label}: it is ${
        kindOf(info)
      }, not a regular file (a pipe or device could block or never end); save it to a file and pass that`,
    );
  }
  if (options.maxBytes !== undefined && info.size > options.maxBytes) {
    throw tooLarge(path, info.size, options);
  }
  const file = await Deno.open(path, { read: true });
  try {
    const opened = await file.stat();
    if (
      !opened.isFile || (info.ino !== null && (opened.ino !== info.ino || opened.dev !== info.dev))
    ) {
      throw new ResultsFileError(
        path,
        "changed",
        `Refused to read the ${label} '${path}': it was replaced while it was being opened; run the command again`,
      );
    }
  } catch (e) {
    file.close();
    throw e;
  }
  return { file, info };
}

function tooLarge(
  path: string,
  size: number | undefined,
  options: RegularFileOptions,
): ResultsFileError {
  const found = size === undefined
    ? "grew past that while it was read"
    : `is ${formatByteSize(size)}`;
  return new ResultsFileError(
    path,
    "too-large",
    `Refused to read the ${options.label} '${path}': it ${found}; a ${options.label} may hold at most ${
      formatByteSize(options.maxBytes ?? 0)
    }${options.tooLargeHint ? `; ${options.tooLargeHint}` : ""}`,
  );
}

/**
 * The text of a regular file of at most `options.maxBytes` (see {@link openRegularFile}); at most
 * `maxBytes + 1` bytes are read, so a file that grows while it is read is refused too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRegularFileText } from "./results_file.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "{}");
 * assert.equal(await readRegularFileText(path, { label: "run record", maxBytes: 1024 }), "{}");
 * await Deno.remove(path);
 * ```
 */
export async function readRegularFileText(
  path: string,
  options: RegularFileOptions & { maxBytes: number },
): Promise<string> {
  using file = (await openRegularFile(path, options)).file;
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buffer = new Uint8Array(CHUNK);
  for (let n = await file.read(buffer); n !== null; n = await file.read(buffer)) {
    total += n;
    if (total > options.maxBytes) throw tooLarge(path, undefined, options);
    chunks.push(buffer.slice(0, n));
  }
  return new TextDecoder().decode(join(chunks, total));
}

/** How a results file over the cap can be made smaller. */
const RESULTS_TOO_LARGE_HINT =
  "split the run (--shard i/n, one results file per shard) or run fewer cases per file";

function kindOf(info: Deno.FileInfo): string {
  if (info.isFifo) return "a named pipe (FIFO)";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "not a regular file";
}

/** Joins the pieces of a line (most lines arrive in one piece). */
function join(pieces: readonly Uint8Array[], length: number): Uint8Array {
  if (pieces.length === 1) return pieces[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

const CHUNK = 1024 * 1024;

/**
 * Calls `onLine` with each line of a results file, in order, read under the caps (see the module
 * doc). A `\r` before a `\n` stays on the line (readers drop it). Throws {@link ResultsFileError}
 * when the file is not a regular file, is or grows over `maxBytes`, or has a line over
 * `maxLineBytes` (the lines before it were handed out); the file system's error when it is
 * missing or unreadable.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { forEachResultsLine } from "./results_file.ts";
 *
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * await Deno.writeTextFile(path, '{"a": 1}\n{"b"');
 * const lines: [number, boolean][] = [];
 * await forEachResultsLine(path, (line) => lines.push([line.number, line.terminated]));
 * assert.deepEqual(lines, [[1, true], [2, false]]);
 * await Deno.remove(path);
 * ```
 */
export async function forEachResultsLine(
  path: string,
  onLine: (line: ResultsLine) => void,
  limits: ResultsFileLimits = {},
): Promise<void> {
  const maxBytes = limits.maxBytes ?? RESULTS_MAX_BYTES;
  const maxLineBytes = limits.maxLineBytes ?? RESULTS_LINE_MAX_BYTES;
  const options = { label: "results file", maxBytes, tooLargeHint: RESULTS_TOO_LARGE_HINT };
  using file = (await openRegularFile(path, options)).file;
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(CHUNK);
  // The start of a line that the last chunk did not end (copied: the buffer is reused).
  let pieces: Uint8Array[] = [];
  let lineBytes = 0;
  let total = 0;
  let number = 1;
  const overlong = () =>
    new ResultsFileError(
      path,
      "line-too-long",
      `${path}:${number}: Refused to read the results file: line ${number} is longer than ${
        formatByteSize(maxLineBytes)
      }; a result row is one line of at most that; remove the line or fix the file`,
      number,
    );
  for (let n = await file.read(buffer); n !== null; n = await file.read(buffer)) {
    total += n;
    if (total > maxBytes) throw tooLarge(path, undefined, options);
    const chunk = buffer.subarray(0, n);
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      lineBytes += nl - start;
      if (lineBytes > maxLineBytes) throw overlong();
      const bytes = pieces.length === 0
        ? chunk.subarray(start, nl)
        : join([...pieces, chunk.subarray(start, nl)], lineBytes);
      onLine({ text: decoder.decode(bytes), number, terminated: true });
      number++;
      pieces = [];
      lineBytes = 0;
      start = nl + 1;
    }
    if (start < n) {
      lineBytes += n - start;
      if (lineBytes > maxLineBytes) throw overlong();
      pieces.push(chunk.slice(start));
    }
  }
  if (lineBytes > 0) {
    onLine({ text: decoder.decode(join(pieces, lineBytes)), number, terminated: false });
  }
}
