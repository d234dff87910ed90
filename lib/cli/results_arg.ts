/**
 * The one way a command reads a results file named on its command line (`compare`, `report`,
 * `merge`, and the reports of `run`) through the bounded reader of results files: a file that is
 * missing, a folder, unreadable, a FIFO, device or socket, over 512 MiB or with a line over 128 MiB
 * is a usage error naming it, and so is a file that holds no row, only lines that are not rows (an
 * eval file given by mistake: one line says so); a torn last line (a run stopped while writing
 * it) is a warning.
 * Lines that are not valid rows (a duplicate among them) come back as located problems for the
 * command to judge.
 *
 * @module
 */
import { readResults, type ReadResultsOutput } from "../results/read_results.ts";
import { ResultsFileError } from "../results/results_file.ts";
import type { CommandIO } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { createPaint } from "../render/diagnostics.ts";
import { displayPath } from "../fs/display_path.ts";

/**
 * Reads the results file at `path` (absolute). `what` names it in messages (e.g. `baseline
 * results file`); `hint` is printed when it does not exist.
 *
 * @example
 * ```ts ignore
 * const read = await readResultsArg("/repo/results.jsonl", io, { what: "results file" });
 * console.log(read.rows.length, read.problems.length);
 * ```
 */
export async function readResultsArg(
  path: string,
  io: CommandIO,
  options: { what: string; hint?: string },
): Promise<ReadResultsOutput> {
  const shown = displayPath(path, io.cwd);
  if (/\.ya?ml$/i.test(path)) throw notResults(shown, options.what, "an eval file", true);
  let read: ReadResultsOutput;
  try {
    read = await readResults(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new UsageError(`The ${options.what} '${shown}' does not exist`, options.hint);
    }
    if (e instanceof Deno.errors.IsADirectory || e instanceof Deno.errors.PermissionDenied) {
      throw new UsageError(`Cannot read the ${options.what} '${shown}': ${e.message}`);
    }
    // Not a regular file, too large, a line too long: refused before memory grows.
    if (e instanceof ResultsFileError) throw new UsageError(e.message.replaceAll(e.path, shown));
    throw e;
  }
  // Not one row, only lines that are not rows: not a results file at all (one line, not a
  // warning per line).
  if (read.rows.length === 0 && read.problems.length > 0) {
    const evalCases = await looksLikeEvalCases(path);
    const first = read.problems[0];
    throw notResults(
      shown,
      options.what,
      evalCases
        ? "an eval file (its lines are cases: `id`, `input`, `expected_outcome`)"
        : `a file none of whose ${read.problems.length} line${
          read.problems.length === 1 ? " is a" : "s is a"
        } result row (line ${first.line ?? 1}: ${first.message})`,
      evalCases,
    );
  }
  if (read.partial_line !== undefined) {
    const paint = createPaint(io.color);
    io.stderr(
      `${paint.yellow(paint.bold("warning"))}: ${shown}: skipped a torn last line ` +
        "(the run was stopped while writing it)\n",
    );
  }
  return read;
}

/** The error of a file that is not a results file; `is` says what it is. */
function notResults(shown: string, what: string, is: string, evalFile: boolean): UsageError {
  return new UsageError(
    `'${shown}' is not a ${what}: it is ${is}`,
    evalFile
      ? `run the evals first (agentv run ${shown}), then name the results file it writes (.agentv/results/*.jsonl)`
      : "name a results file written by agentv run (.agentv/results/*.jsonl)",
  );
}

/** Whether the first line of a JSONL file is an eval case (an `id` and no `eval_id`). */
async function looksLikeEvalCases(path: string): Promise<boolean> {
  let head = "";
  try {
    using file = await Deno.open(path);
    const buffer = new Uint8Array(64 * 1024);
    const n = await file.read(buffer);
    head = new TextDecoder().decode(buffer.subarray(0, n ?? 0));
  } catch {
    return false;
  }
  const line = head.split("\n").find((l) => l.trim() !== "");
  try {
    const value = JSON.parse(line ?? "");
    return value !== null && typeof value === "object" && typeof value.id === "string" &&
      !("eval_id" in value) && ("input" in value || "expected_outcome" in value);
  } catch {
    return false;
  }
}
