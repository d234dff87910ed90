/**
 * The labels file, `.agentv/labels.jsonl`: one {@link Label} per line, appended and never
 * rewritten (a later label of the same case run and evaluator by the same reviewer supersedes an
 * earlier one when labels are read with {@link latestLabels}). Read through the same bounded reader
 * as results files (regular files only, size and line caps); a line that is not a valid label is
 * a located problem, never a crash.
 *
 * @module
 */
import { dirname } from "node:path";
import { type Label, LabelSchema } from "../schema/label.ts";
import type { Diagnostic } from "../schema/eval_case.ts";
import { forEachResultsLine, type ResultsFileLimits } from "./results_file.ts";
import { invalidJsonLine, jsonLineColumn } from "../text/json_line_error.ts";

/** Where a project keeps its labels, relative to the project root. */
export const LABELS_FILE = ".agentv/labels.jsonl";

/** What {@link readLabels} returns. */
export interface ReadLabelsOutput {
  /** The valid labels, in file order. */
  labels: Label[];
  /** What is wrong with each line that is not a valid label (line, column, key path). */
  problems: Diagnostic[];
}

/**
 * The key of the case run a label or a result row is about: dataset, case id, target, trial.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { caseRunKey } from "./labels.ts";
 * assert.equal(
 *   caseRunKey({ dataset: "qa", eval_id: "a", target: "t", trial: 0 }),
 *   caseRunKey({ dataset: "qa", eval_id: "a", target: "t", trial: 0 }),
 * );
 * ```
 */
export function caseRunKey(
  row: { dataset: string; eval_id: string; target: string; trial: number },
): string {
  return `${row.dataset}\0${row.eval_id}\0${row.target}\0${row.trial}`;
}

/** Parses one line of a labels file: the label, or the problem with it. */
export function parseLabelLine(
  text: string,
  line: number,
  file: string,
): { label: Label } | { problem: Diagnostic } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = (error as Error).message;
    const message = `${invalidJsonLine(line, detail)}; expected one label object per line`;
    const column = jsonLineColumn(detail) ?? 1;
    return { problem: { severity: "error", file, line, column, message } };
  }
  const parsed = LabelSchema.safeParse(value);
  if (parsed.success) return { label: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue.path.join(".");
  return {
    problem: {
      severity: "error",
      file,
      line,
      column: 1,
      ...(path !== "" ? { path } : {}),
      message: `Line ${line}: not a label${path !== "" ? ` (${path})` : ""}: ${issue.message}`,
    },
  };
}

/**
 * Reads a labels file; a missing file has no labels. Blank lines are skipped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { appendLabel, readLabels } from "./labels.ts";
 * const path = `${await Deno.makeTempDir()}/labels.jsonl`;
 * await appendLabel(path, {
 *   run_id: "r1", dataset: "qa", eval_id: "a", target: "t", trial: 0, evaluator: null,
 *   label: "pass", score: null, reviewer: "ana", note: "", labelled_at: "2026-11-27T10:00:00Z",
 * });
 * await Deno.writeTextFile(path, "{not json}\n", { append: true });
 * const { labels, problems } = await readLabels(path);
 * assert.equal(labels.length, 1);
 * assert.equal(problems[0].line, 2);
 * ```
 */
export async function readLabels(
  path: string,
  limits: ResultsFileLimits = {},
): Promise<ReadLabelsOutput> {
  const out: ReadLabelsOutput = { labels: [], problems: [] };
  try {
    await forEachResultsLine(path, ({ text, number }) => {
      if (text.trim() === "") return;
      const read = parseLabelLine(text, number, path);
      if ("label" in read) out.labels.push(read.label);
      else out.problems.push(read.problem);
    }, limits);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return out;
    throw error;
  }
  return out;
}

/**
 * Appends one label (checked against the schema first) as one line, creating the file and its
 * folder when missing. Throws when the label is not valid.
 */
export async function appendLabel(path: string, label: Label): Promise<void> {
  const checked = LabelSchema.parse(label);
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, JSON.stringify(checked) + "\n", { append: true });
}

/**
 * Appends several labels (each checked against the schema first, all before any is written) in
 * one write, creating the file and its folder when missing.
 */
export async function appendLabels(path: string, labels: readonly Label[]): Promise<void> {
  if (labels.length === 0) return;
  const lines = labels.map((label) => JSON.stringify(LabelSchema.parse(label)) + "\n").join("");
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, lines, { append: true });
}

/**
 * The labels that count: for each (run, case run, evaluator, reviewer), the last one in file
 * order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { latestLabels } from "./labels.ts";
 * const base = {
 *   run_id: "r1", dataset: "qa", eval_id: "a", target: "t", trial: 0, evaluator: null,
 *   score: null, reviewer: "ana", note: "", labelled_at: "2026-11-27T10:00:00Z",
 * };
 * const kept = latestLabels([{ ...base, label: "pass" }, { ...base, label: "fail" }]);
 * assert.deepEqual(kept.map((l) => l.label), ["fail"]);
 * ```
 */
export function latestLabels(labels: readonly Label[]): Label[] {
  const last = new Map<string, Label>();
  for (const label of labels) {
    last.set(
      `${label.run_id}\0${caseRunKey(label)}\0${label.evaluator ?? ""}\0${label.reviewer}`,
      label,
    );
  }
  return [...last.values()];
}
