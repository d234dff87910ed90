/**
 * The one way a command reads a results file named on its command line (`compare`, `report`,
 * `merge`, and the reports of `run`) through the bounded reader of results files: a file that is
 * missing, a folder, unreadable, a FIFO, device or socket, over 512 MiB or with a line over 128 MiB
 * is a usage error naming it, and a torn last line (a run stopped while writing it) is a warning.
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
  if (read.partial_line !== undefined) {
    const paint = createPaint(io.color);
    io.stderr(
      `${paint.yellow(paint.bold("warning"))}: ${shown}: skipped a torn last line ` +
        "(the run was stopped while writing it)\n",
    );
  }
  return read;
}
