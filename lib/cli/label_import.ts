/**
 * `agentv label import FILE [--store URL|FILE]`: adds labels made elsewhere (a spreadsheet, a
 * labelling tool) to `.agentv/labels.jsonl` and to the history store. The file holds label lines
 * (the JSONL of `.agentv/labels.jsonl`) or, when it ends in `.csv`, a CSV with the same columns.
 * A label already in the labels file (every field equal) is not added again; a line that is not a
 * label is reported with its line and left out (exit 1).
 *
 * @module
 */
import { join, resolve } from "node:path";
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { commandInfo } from "./commands.ts";
import { openStoreArg, ROOT_OPTION, STORE_OPTION } from "./store_args.ts";
import { appendLabels, LABELS_FILE, readLabels } from "../results/labels.ts";
import { parseLabelsCsv } from "../results/labels_csv.ts";
import { readRegularFileText } from "../results/results_file.ts";
import type { Label } from "../schema/label.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import { labelKey } from "../store/store_labels.ts";
import { displayPath } from "../fs/display_path.ts";
import { renderDiagnosticsFor } from "../render/diagnostics.ts";

/** The largest CSV file read (a labels file is far smaller). */
const CSV_MAX_BYTES = 64 * 1024 * 1024;

async function readImport(
  path: string,
  shown: string,
): Promise<{ labels: Label[]; problems: Diagnostic[] }> {
  try {
    if (path.toLowerCase().endsWith(".csv")) {
      const text = await readRegularFileText(path, {
        label: "labels file",
        maxBytes: CSV_MAX_BYTES,
      });
      return parseLabelsCsv(text, path);
    }
    await Deno.stat(path); // a missing file is an error here, not an empty file
    return await readLabels(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new UsageError(
        `The labels file '${shown}' does not exist`,
        "name a JSONL file of label lines, or a .csv with the same columns",
      );
    }
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read the labels file '${shown}': ${(error as Error).message}`);
  }
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.positionals.length !== 1) {
    throw new UsageError(
      args.positionals.length === 0 ? "No labels file given" : "Give one labels file",
      "e.g. agentv label import reviews.csv",
    );
  }
  const path = resolve(io.cwd, args.positionals[0]);
  const shown = displayPath(path, io.cwd);
  const { labels, problems } = await readImport(path, shown);
  if (problems.length > 0) io.stderr(renderDiagnosticsFor(problems, io) + "\n");
  const { store, root } = await openStoreArg(args, io);
  try {
    const target = join(root, LABELS_FILE);
    if (resolve(target) === path) {
      throw new UsageError(
        `'${shown}' is the project's labels file itself`,
        "import another file; agentv view and agentv push read this one",
      );
    }
    const held = new Set((await readLabels(target)).labels.map(labelKey));
    const fresh: Label[] = [];
    for (const label of labels) {
      const key = labelKey(label);
      if (held.has(key)) continue;
      held.add(key);
      fresh.push(label);
    }
    await appendLabels(target, fresh);
    await store.addLabels(labels);
    io.stdout(
      `Imported ${fresh.length} label(s) into ${displayPath(target, io.cwd)} and the store` +
        (labels.length > fresh.length ? ` (${labels.length - fresh.length} already there)` : "") +
        "\n",
    );
  } finally {
    await store.close();
  }
  return problems.length > 0 ? 1 : 0;
}

/** The `label import` command. */
export const labelImportCommand: Command = {
  ...commandInfo("label import"),
  usage: "agentv label import <labels.jsonl|labels.csv> [--store URL|FILE]",
  options: { store: STORE_OPTION, root: ROOT_OPTION },
  details: "A label line: {run_id, dataset, eval_id, target, trial, evaluator (null: the case's\n" +
    'overall verdict), label ("pass", "fail" or null), score (0 to 1, or null), reviewer, note,\n' +
    "labelled_at (ISO-8601)}; a CSV has these columns in a header row (an empty evaluator, label\n" +
    "or score is null). Exit 1 when lines are not labels (they are listed and left out).",
  run,
};
