/**
 * The results file: one JSON line per case, written with a single full-line write as each case
 * finishes, so a crash (even `kill -9`) leaves every written row intact.
 *
 * @module
 */
import { dirname } from "node:path";
import type { ResultRow } from "../schema/result.ts";

/** Options of {@link openResultsWriter}. */
export interface ResultsWriterOptions {
  /** Keep existing rows and append (default `false`: the file is truncated). */
  append?: boolean;
  /**
   * Secret values that must never reach the file. Any occurrence in a row is replaced by `***`
   * before the line is written (default none).
   */
  secrets?: Iterable<string>;
}

/** An open results file. */
export interface ResultsWriter {
  /** Absolute or cwd-relative path of the file. */
  readonly path: string;
  /** Number of rows written so far. */
  readonly count: number;
  /** Adds a secret to redact from later rows. */
  addSecret(secret: string): void;
  /**
   * Writes one row as one line and returns the row as written (secrets redacted). The line is in
   * the operating system's hands when this returns.
   */
  write(row: ResultRow): ResultRow;
  /** Closes the file. Safe to call twice. */
  close(): void;
}

const encoder = new TextEncoder();

/** Replaces every secret (as it appears inside a JSON string) in `line` with `***`. */
export function redactLine(line: string, secrets: Iterable<string>): string {
  let out = line;
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (out.includes(escaped)) out = out.replaceAll(escaped, "***");
  }
  return out;
}

/**
 * A row as one JSON line with every secret replaced by `***`, and the row that line describes
 * (the same object when nothing was redacted).
 *
 * @example
 * ```ts ignore
 * const { row: safe, json } = redactRow(row, ["sk-test-SECRET-123"]);
 * ```
 */
export function redactRow(
  row: ResultRow,
  secrets: Iterable<string>,
): { row: ResultRow; json: string } {
  const json = JSON.stringify(row);
  const redacted = redactLine(json, secrets);
  return redacted === json
    ? { row, json }
    : { row: JSON.parse(redacted) as ResultRow, json: redacted };
}

/**
 * Opens (creating parent folders) a JSONL results file for writing.
 *
 * @example
 * ```ts
 * import { openResultsWriter } from "./results_writer.ts";
 * const writer = await openResultsWriter(".agentv/results/run.jsonl");
 * // writer.write(row) after each case, then:
 * writer.close();
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
  const secrets = new Set<string>();
  for (const s of options.secrets ?? []) if (s) secrets.add(s);
  let count = 0;
  let closed = false;
  return {
    path,
    get count() {
      return count;
    },
    addSecret(secret: string) {
      if (secret) secrets.add(secret);
    },
    write(row: ResultRow): ResultRow {
      if (closed) throw new Error(`Results file ${path} is closed`);
      const { row: written, json } = redactRow(row, secrets);
      const bytes = encoder.encode(json + "\n");
      // One logical write of the full line; loop only if the OS accepts part of it.
      let offset = 0;
      while (offset < bytes.length) offset += file.writeSync(bytes.subarray(offset));
      count++;
      return written;
    },
    close() {
      if (closed) return;
      closed = true;
      file.close();
    },
  };
}
