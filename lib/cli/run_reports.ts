/**
 * Reports written at the end of `agentv run`: each `--report FORMAT[:FILE]` (default FILE beside
 * the results file: `<results>.junit.xml`, `<results>.md`, `<results>.html`,
 * `<results>.report.json`, where `<results>` is the results path, as in `<results>.run.json`), the Markdown
 * report appended to `$GITHUB_STEP_SUMMARY` when it is set, and `::error` annotations for failed
 * cases when `GITHUB_ACTIONS=true`. The rows are read back from the results file, so a report
 * from a run equals `agentv report` on its results.
 *
 * @module
 */
import { extname, isAbsolute, relative, resolve, sep } from "node:path";
import { isAnnotatedRow, renderAnnotations } from "../render/annotations.ts";
import { locateCaseLines } from "../render/case_lines.ts";
import { renderMarkdownReport } from "../render/markdown.ts";
import { calibrationHeadline, calibrationWarnings } from "../render/calibration_summary.ts";
import type { RunSummary } from "../results/summary.ts";
import type { TrialsGate } from "../results/trials.ts";
import type { LoadedEvalSet } from "../run/run_eval.ts";
import type { ResultRow } from "../schema/result.ts";
import type { CommandIO } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { createPaint } from "../render/diagnostics.ts";
import { displayPath } from "../fs/display_path.ts";
import {
  isGithubActions,
  type ReportFormat,
  reportPath,
  type ReportSpec,
  stepSummaryPath,
  wantsRunReports,
} from "./report_specs.ts";
import { readResultsForReport, renderReport, runRecordBeside, writeReportFile } from "./report.ts";

/**
 * The default path of a report beside a results file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportPathBeside } from "./run_reports.ts";
 * assert.equal(reportPathBeside("/r/support.jsonl", "junit"), "/r/support.jsonl.junit.xml");
 * ```
 */
export function reportPathBeside(resultsPath: string, format: ReportFormat): string {
  return reportPath({ format }, resultsPath, "");
}

/** What {@link writeRunReports} needs from the run. */
export interface RunReportsInput {
  /** The `--report` values, parsed. */
  specs: readonly ReportSpec[];
  /** The results file (absolute). */
  resultsPath: string;
  /** The run's summary (its wall time goes into the reports). */
  summary: RunSummary;
  /** The loaded eval files (to place annotations on case lines). */
  sets: readonly LoadedEvalSet[];
  /** Where notices go (`io.stdout`, or `io.stderr` with `--json`). */
  write(text: string): void;
  /** Whether to keep quiet about written files. */
  quiet: boolean;
}

/**
 * Writes the reports of a finished (or interrupted) run. Resolves to 0, or 1 when a report the
 * user asked for with `--report` could not be written (each failure is printed; the results file
 * is never touched). A step summary that cannot be written only warns.
 */
export async function writeRunReports(input: RunReportsInput, io: CommandIO): Promise<number> {
  if (!wantsRunReports(input.specs, io)) return 0;
  const paint = createPaint(io.color);
  let rows: ResultRow[];
  try {
    rows = (await readResultsForReport(input.resultsPath, io)).rows;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`${paint.red(paint.bold("error"))}: no report written: ${e.message}\n`);
    return input.specs.length > 0 ? 1 : 0;
  }
  const shownResults = displayPath(input.resultsPath, io.cwd);
  // Rows carry their question: the HTML report needs nothing from the eval files.
  const runRecord = input.specs.some((s) => s.format === "html")
    ? await runRecordBeside(input.resultsPath)
    : undefined;
  const options = {
    resultsPath: shownResults,
    durationMs: input.summary.duration_ms,
    notes: runNotes(input.summary),
    ...(input.summary.trials ? { trialsGate: input.summary.trials.gate as TrialsGate } : {}),
    ...(runRecord !== undefined ? { runRecord } : {}),
  };
  let code = 0;
  for (const spec of input.specs) {
    // Never over a file the run read: refused before the run (`refuseReportsOverInputs`).
    const path = reportPath(spec, input.resultsPath, io.cwd);
    const shown = displayPath(path, io.cwd);
    try {
      await writeReportFile(path, renderReport(spec.format, rows, options));
      if (!input.quiet) input.write(`${spec.format} report: ${shown}\n`);
    } catch (e) {
      code = 1;
      io.stderr(
        `${paint.red(paint.bold("error"))}: could not write the ${spec.format} report to ` +
          `'${shown}': ${e instanceof Error ? e.message : String(e)}\n` +
          `${paint.dim("hint")}: the results are kept in ${shownResults}; ` +
          `run agentv report ${shownResults} --format ${spec.format} --out FILE\n`,
      );
    }
  }
  const stepSummary = stepSummaryPath(io);
  if (stepSummary !== undefined) {
    try {
      await Deno.writeTextFile(
        resolve(io.cwd, stepSummary),
        renderMarkdownReport(rows, options) + "\n",
        { append: true, create: true },
      );
    } catch (e) {
      io.stderr(
        `${paint.yellow(paint.bold("warning"))}: could not append the report to ` +
          `GITHUB_STEP_SUMMARY ('${stepSummary}'): ${e instanceof Error ? e.message : String(e)}\n`,
      );
    }
  }
  if (isGithubActions(io)) {
    const locate = await caseLocator(input.sets, rows, io);
    input.write(renderAnnotations(rows, { locate }));
  }
  return code;
}

/** What a reader of the Markdown report must know about how the run went. */
function runNotes(summary: RunSummary): string[] {
  const notes: string[] = [];
  if (summary.interrupted) {
    notes.push(`Interrupted: ${summary.not_started} case(s) were not started.`);
  }
  if (summary.invalid.length > 0) {
    notes.push(
      `${summary.invalid.length} invalid case(s) were skipped (agentv validate lists them).`,
    );
  }
  if (summary.dry_run) notes.push("Dry run: every target and judge was a mock.");
  if (summary.calibration) {
    const { calibration } = summary;
    const headline = calibrationHeadline(calibration);
    notes.push(`${headline[0].toUpperCase()}${headline.slice(1)}.`);
    for (const w of calibrationWarnings(calibration)) notes.push(`Warning: ${w}.`);
  }
  return notes;
}

/**
 * Finds the eval file and line of each failed row's case (by dataset and id) in the loaded files,
 * with paths relative to `GITHUB_WORKSPACE` (else the cwd), as annotations want them.
 */
async function caseLocator(
  sets: readonly LoadedEvalSet[],
  rows: readonly ResultRow[],
  io: CommandIO,
): Promise<(row: ResultRow) => { file: string; line?: number } | undefined> {
  const fileOf = new Map<string, string>();
  for (const set of sets) {
    for (const c of set.cases) {
      const key = `${c.dataset}\u0000${c.id}`;
      if (!fileOf.has(key)) fileOf.set(key, set.file);
    }
  }
  const wanted = new Set<string>();
  for (const r of rows) {
    const file = fileOf.get(`${r.dataset}\u0000${r.eval_id}`);
    if (file !== undefined && isAnnotatedRow(r)) wanted.add(file);
  }
  const lines = new Map<string, Map<string, number>>();
  for (const file of wanted) {
    try {
      const text = await Deno.readTextFile(file);
      lines.set(file, await locateCaseLines(text, extname(file) === ".jsonl" ? "jsonl" : "yaml"));
    } catch {
      // The file changed or vanished since the run started: annotate without a line.
    }
  }
  const workspace = io.env("GITHUB_WORKSPACE");
  const base = workspace !== undefined && workspace !== "" ? resolve(io.cwd, workspace) : io.cwd;
  return (row) => {
    const file = fileOf.get(`${row.dataset}\u0000${row.eval_id}`);
    if (file === undefined) return undefined;
    const rel = relative(base, file);
    const shown = rel === "" || isAbsolute(rel) || rel.startsWith("..") ? file : rel;
    const line = lines.get(file)?.get(row.eval_id);
    const where = { file: shown.split(sep).join("/") };
    return line === undefined ? where : { ...where, line };
  };
}
