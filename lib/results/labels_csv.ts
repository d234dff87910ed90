/**
 * Labels as CSV (`agentv label import labels.csv`): a header row naming the columns of a label
 * line (`run_id, dataset, eval_id, target, trial, evaluator, label, score, reviewer, note,
 * labelled_at`, in any order), then one label per row. Fields follow RFC 4180 (double quotes
 * around a field that holds a comma, a quote or a line break; `""` for a quote). An empty
 * `evaluator`, `label` or `score` is `null`. Each row is checked against the same schema as a line
 * of `.agentv/labels.jsonl`; a row that is not a label is a located problem.
 *
 * @module
 */
import type { Diagnostic } from "../schema/eval_case.ts";
import { type Label, LabelSchema } from "../schema/label.ts";

/** The columns of a label, in the order of a label line. */
export const LABEL_CSV_COLUMNS = [
  "run_id",
  "dataset",
  "eval_id",
  "target",
  "trial",
  "evaluator",
  "label",
  "score",
  "reviewer",
  "note",
  "labelled_at",
] as const;

/** A CSV record with the line it starts on. */
interface CsvRecord {
  fields: string[];
  line: number;
}

/** Splits CSV text into records (RFC 4180; `\n` or `\r\n` line ends). */
function csvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === "\n") line++;
        field += c;
      }
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      fields.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      fields.push(field);
      if (fields.length > 1 || fields[0] !== "") records.push({ fields, line: start });
      fields = [];
      field = "";
      line++;
      start = line;
    } else field += c;
  }
  fields.push(field);
  if (fields.length > 1 || fields[0] !== "") records.push({ fields, line: start });
  return records;
}

function cellValue(column: string, cell: string): unknown {
  if (column === "trial") return cell === "" ? cell : Number(cell);
  if (column === "score") return cell === "" ? null : Number(cell);
  if (column === "evaluator" || column === "label") return cell === "" ? null : cell;
  return cell;
}

/**
 * Reads labels from CSV text (see the module doc): the valid labels, and a problem for each row
 * that is not one (and for a header that lacks a column).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLabelsCsv } from "./labels_csv.ts";
 * const csv = "run_id,dataset,eval_id,target,trial,evaluator,label,score,reviewer,note,labelled_at\n" +
 *   'r1,qa,capital,gpt,0,,fail,,ana,"wrong, it is Paris",2026-11-27T10:00:00Z\n';
 * const { labels, problems } = parseLabelsCsv(csv, "labels.csv");
 * assert.deepEqual([labels[0].note, labels[0].evaluator, problems.length], ["wrong, it is Paris", null, 0]);
 * ```
 */
export function parseLabelsCsv(
  text: string,
  file: string,
): { labels: Label[]; problems: Diagnostic[] } {
  const records = csvRecords(text.replace(/^\uFEFF/, ""));
  const labels: Label[] = [];
  const problems: Diagnostic[] = [];
  const problem = (line: number, message: string) =>
    problems.push({ severity: "error", file, line, column: 1, message });
  const header = records.shift();
  if (header === undefined) return { labels, problems };
  const names = header.fields.map((f) => f.trim());
  const missing = LABEL_CSV_COLUMNS.filter((c) => !names.includes(c));
  const unknown = names.filter((n) => !(LABEL_CSV_COLUMNS as readonly string[]).includes(n));
  if (missing.length > 0 || unknown.length > 0) {
    problem(
      header.line,
      `The header row ${missing.length ? `lacks ${missing.join(", ")}` : ""}${
        missing.length && unknown.length ? " and " : ""
      }${unknown.length ? `has unknown column(s) ${unknown.join(", ")}` : ""}; expected the ` +
        `columns ${LABEL_CSV_COLUMNS.join(", ")}`,
    );
    return { labels, problems };
  }
  for (const record of records) {
    if (record.fields.length !== names.length) {
      problem(
        record.line,
        `Row has ${record.fields.length} field(s), the header ${names.length}; quote a field that holds a comma`,
      );
      continue;
    }
    const value: Record<string, unknown> = {};
    names.forEach((name, i) => (value[name] = cellValue(name, record.fields[i])));
    const parsed = LabelSchema.safeParse(value);
    if (parsed.success) {
      labels.push(parsed.data);
      continue;
    }
    const issue = parsed.error.issues[0];
    const path = issue.path.join(".");
    problem(
      record.line,
      `Row ${record.line}: not a label${path ? ` (${path})` : ""}: ${issue.message}`,
    );
  }
  return { labels, problems };
}
