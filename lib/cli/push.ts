/**
 * `agentv push RESULTS… [--store URL]`: stores runs (results files and the run records beside
 * them; a folder stands for the results files under it) in the history store, usually a team's
 * PostgreSQL store that CI jobs on many machines push to. A run is stored under its run id and
 * replaces what the store held under that id, so pushing again changes nothing.
 *
 * @module
 */
import { resolve } from "node:path";
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { commandInfo } from "./commands.ts";
import { readResultsArg } from "./results_arg.ts";
import { openStoreArg, ROOT_OPTION, STORE_OPTION } from "./store_args.ts";
import { readRunRecord, runRecordPath } from "../results/run_record.ts";
import { buildStoredRun } from "../store/stored_run.ts";
import { fileHead, findResultsFiles } from "../store/index_results.ts";
import type { HistoryStore } from "../store/history_store.ts";
import type { RunRecord } from "../schema/run_record.ts";
import { displayPath } from "../fs/display_path.ts";
import { renderDiagnosticsFor } from "../render/diagnostics.ts";
import { escapeControl } from "../text/escape_control.ts";

/** The results files named on the command line (a folder: the results files under it). */
async function resultsFiles(args: string[], io: CommandIO): Promise<string[]> {
  const files: string[] = [];
  for (const arg of args) {
    const path = resolve(io.cwd, arg);
    let info: Deno.FileInfo | undefined;
    try {
      info = await Deno.stat(path);
    } catch {
      info = undefined;
    }
    if (info?.isDirectory) {
      const found = await findResultsFiles(path);
      if (found.length === 0) {
        throw new UsageError(
          `No results files (*.jsonl) in '${arg}'`,
          "name results files written by agentv run, or the folder that holds them",
        );
      }
      files.push(...found);
    } else files.push(path);
  }
  return [...new Set(files)];
}

async function recordOf(path: string): Promise<RunRecord | null> {
  try {
    return await readRunRecord(runRecordPath(path));
  } catch {
    return null;
  }
}

/** Pushes one file; returns whether all its lines were valid rows. */
async function pushFile(store: HistoryStore, path: string, io: CommandIO): Promise<boolean> {
  const shown = displayPath(path, io.cwd);
  const read = await readResultsArg(path, io, {
    what: "results file",
    hint: "name results files written by agentv run (.agentv/results/*.jsonl)",
  });
  if (read.problems.length > 0) {
    io.stderr(renderDiagnosticsFor(read.problems, io) + "\n");
  }
  if (read.rows.length === 0) {
    io.stderr(`agentv push: ${shown} holds no result rows; nothing pushed from it\n`);
    return false;
  }
  const head = await fileHead(path);
  const run = buildStoredRun({ rows: read.rows, record: await recordOf(path), source: path, head });
  const replaced = await store.hasRun(run.entry.run_id);
  await store.putRun(run);
  io.stdout(
    `${replaced ? "updated" : "pushed"} run ${
      escapeControl(run.entry.run_id)
    } (${run.rows.length} row(s)) from ${shown}\n`,
  );
  return read.problems.length === 0;
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.positionals.length === 0) {
    throw new UsageError(
      "No results file given",
      "e.g. agentv push .agentv/results/ --store postgres://agentv@db:5432/agentv",
    );
  }
  const files = await resultsFiles(args.positionals, io);
  const { store } = await openStoreArg(args, io);
  let clean = true;
  try {
    for (const file of files) {
      if (io.signal.aborted) return 130;
      if (!await pushFile(store, file, io)) clean = false;
    }
  } finally {
    await store.close();
  }
  // Lines that were not valid rows were left out of the store: say so with the exit code.
  return clean ? 0 : 1;
}

/** The `push` command. */
export const pushCommand: Command = {
  ...commandInfo("push"),
  usage: "agentv push <results|folder>... [--store URL|FILE]",
  options: { store: STORE_OPTION, root: ROOT_OPTION },
  details: "A run is stored under its run id (from its run record, else its rows) and replaces\n" +
    "what the store held under that id: pushing the same files again changes nothing.\n" +
    "Exit 1 when a file had lines that are not result rows (they are listed and left out).",
  run,
};
