/**
 * `agentv report <results> [--format junit|markdown|html|json] [--out FILE]`: renders a results
 * file as a report for CI (JUnit XML), for people (Markdown, HTML) or for scripts (JSON: the rows
 * and their summary). Writes to stdout unless `--out` names a file. Exit code 1 when lines of the
 * results file are not valid rows (they are listed, and left out of the report). `agentv run
 * --report` uses the same renderers (see `run_reports.ts`).
 *
 * @module
 */
import { resolve } from "node:path";
import { type HtmlCaseDetails, renderHtmlReport } from "../render/html/render_html_report.ts";
import { renderJunitReport } from "../render/junit.ts";
import { renderMarkdownReport } from "../render/markdown.ts";
import { summarizeResults } from "../results/summary.ts";
import type { TrialsGate } from "../results/trials.ts";
import { readRunRecord, runRecordPath } from "../results/run_record.ts";
import type { ResultRow } from "../schema/result.ts";
import type { RunRecord } from "../schema/run_record.ts";
import type { Command, CommandIO, ParsedArgs } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";
import { commandInfo } from "./commands.ts";
import { readResultsArg } from "./results_arg.ts";
import { refuseOutputOverRecordedRun } from "./recorded_inputs.ts";
import {
  isReportFormat,
  REPORT_FORMATS,
  REPORT_SUFFIX,
  type ReportFormat,
} from "./report_specs.ts";
import { createPaint, renderDiagnosticsFor } from "../render/diagnostics.ts";
import { displayPath } from "../fs/display_path.ts";
import { writeFileAtomic } from "../fs/atomic_write.ts";
import { LABELS_FILE, readLabels } from "../results/labels.ts";
import { compareLabels, type LabelAgreement } from "../results/label_agreement.ts";
import { projectRoot } from "./project_root.ts";
import { join } from "node:path";

/** Options of {@link renderReport}. */
export interface RenderReportOptions {
  /** The results file the rows came from (named in the report). */
  resultsPath?: string;
  /** Wall time of the run in ms (default: the sum of the cases' durations). */
  durationMs?: number;
  /** Notes shown under the Markdown report's heading (e.g. that the run was interrupted). */
  notes?: readonly string[];
  /**
   * The input and expected outcome of rows that do not carry them (rows written before they
   * recorded their question; HTML case view).
   */
  caseDetails?: (row: ResultRow) => HtmlCaseDetails | undefined;
  /** The run's `--trials-gate` (JSON summary's `trials` section, HTML case verdicts; default `mean`). */
  trialsGate?: TrialsGate;
  /** The run record beside the results file (the HTML report's run: targets, models, options). */
  runRecord?: RunRecord;
  /** Human labels of the rows beside agentv's verdicts (Markdown, HTML and JSON show them). */
  labels?: LabelAgreement;
}

/**
 * Renders rows in one report format.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderReport } from "./report.ts";
 * const json = JSON.parse(renderReport("json", []));
 * assert.equal(json.summary.total, 0);
 * ```
 */
export function renderReport(
  format: ReportFormat,
  rows: readonly ResultRow[],
  options: RenderReportOptions = {},
): string {
  switch (format) {
    case "junit":
      return renderJunitReport(rows);
    case "markdown":
      return renderMarkdownReport(rows, {
        ...(options.durationMs !== undefined ? { durationMs: options.durationMs } : {}),
        ...(options.resultsPath !== undefined ? { resultsPath: options.resultsPath } : {}),
        ...(options.notes !== undefined ? { notes: options.notes } : {}),
        ...(options.labels !== undefined ? { labels: options.labels } : {}),
      });
    case "json": {
      const summary = summarizeResults(rows, {
        ...(options.resultsPath !== undefined ? { resultsPath: options.resultsPath } : {}),
        durationMs: options.durationMs ?? rows.reduce((a, r) => a + r.duration_ms, 0),
        ...(options.trialsGate !== undefined ? { trialsGate: options.trialsGate } : {}),
      });
      const labels = options.labels;
      return JSON.stringify(labels ? { summary, rows, labels } : { summary, rows }, null, 2) + "\n";
    }
    case "html":
      return renderHtmlReport(rows, {
        ...(options.resultsPath !== undefined ? { source: options.resultsPath } : {}),
        ...(options.caseDetails !== undefined ? { caseDetails: options.caseDetails } : {}),
        ...(options.labels !== undefined ? { labels: options.labels } : {}),
        ...(options.runRecord !== undefined ? { runRecord: options.runRecord } : {}),
        ...(options.trialsGate !== undefined ? { trialsGate: options.trialsGate } : {}),
      });
  }
}

/**
 * Writes a report file whole or not at all (through a temporary file beside it, then a rename),
 * creating its folder.
 */
export async function writeReportFile(path: string, text: string): Promise<void> {
  await writeFileAtomic(path, text, { mkdir: true });
}

/**
 * Reads a results file for a report, printing (as warnings) the lines left out because they are
 * not valid rows; a missing file or a directory is a usage error.
 */
export async function readResultsForReport(
  path: string,
  io: CommandIO,
): Promise<{ rows: ResultRow[]; leftOut: number }> {
  const read = await readResultsArg(path, io, {
    what: "results file",
    hint: "name a results file written by agentv run (.agentv/results/*.jsonl)",
  });
  // Lines that are not valid rows are left out of the report: say which and why.
  if (read.problems.length > 0) {
    io.stderr(
      renderDiagnosticsFor(
        read.problems.map((d) => ({ ...d, severity: "warning" as const })),
        io,
      ) + "\n",
    );
  }
  return { rows: read.rows, leftOut: read.problems.length };
}

function parseFormat(value: unknown): ReportFormat {
  if (value === undefined) return "markdown";
  const text = String(value);
  if (!isReportFormat(text)) {
    throw new UsageError(
      `--format must be one of ${REPORT_FORMATS.join(", ")}, got '${text}'`,
      "e.g. --format junit",
    );
  }
  return text;
}

/**
 * The run record beside a results file (its `--trials-gate`, and the run the HTML report shows),
 * or undefined when there is no valid one (a results file copied alone still makes a report).
 */
export async function runRecordBeside(resultsPath: string): Promise<RunRecord | undefined> {
  try {
    return await readRunRecord(runRecordPath(resultsPath));
  } catch {
    return undefined;
  }
}

/**
 * The labels of `rows` beside their verdicts: from `--labels FILE`, else the project's
 * `.agentv/labels.jsonl` (none when it is missing or labels none of the rows).
 */
async function labelsFor(
  rows: readonly ResultRow[],
  given: unknown,
  io: CommandIO,
): Promise<LabelAgreement | undefined> {
  if (given !== undefined && (typeof given !== "string" || given.trim() === "")) {
    throw new UsageError("--labels must name a labels file", "e.g. --labels .agentv/labels.jsonl");
  }
  const path = given === undefined
    ? join(await projectRoot(io.cwd), LABELS_FILE)
    : resolve(io.cwd, given as string);
  if (given !== undefined) {
    try {
      await Deno.stat(path);
    } catch {
      throw new UsageError(`The labels file '${given}' does not exist`);
    }
  }
  const read = await readLabels(path);
  if (read.problems.length > 0) {
    io.stderr(
      renderDiagnosticsFor(read.problems.map((d) => ({ ...d, severity: "warning" as const })), io) +
        "\n",
    );
  }
  const agreement = compareLabels(rows, read.labels);
  return agreement.labels > 0 ? agreement : undefined;
}

async function run(args: ParsedArgs, io: CommandIO): Promise<number> {
  if (args.positionals.length !== 1) {
    throw new UsageError(
      args.positionals.length === 0
        ? "No results file given"
        : `Expected one results file, got ${args.positionals.length}`,
      "e.g. agentv report .agentv/results/support-2026-01-21T10-22-57-123Z.jsonl --format junit",
    );
  }
  const format = parseFormat(args.values.format);
  const outArg = args.values.out;
  if (outArg !== undefined && (typeof outArg !== "string" || outArg.trim() === "")) {
    throw new UsageError("--out must name a file", "e.g. --out report.xml");
  }
  const resultsPath = resolve(io.cwd, args.positionals[0] ?? "");
  const out = outArg === undefined ? undefined : resolve(io.cwd, outArg);
  if (out === resultsPath) {
    throw new UsageError(
      `--out '${outArg}' is the results file itself; writing the report would destroy the results`,
      "name another file, e.g. --out report.xml",
    );
  }
  if (out !== undefined) {
    // Never over a file the run read (its eval, targets or config files, ...), as `run --out`.
    await refuseOutputOverRecordedRun(out, resultsPath, io, {
      shown: String(outArg),
      writes: "the report replaces the file it is written to",
      example: `report${REPORT_SUFFIX[format]}`,
    });
  }
  const { rows, leftOut } = await readResultsForReport(resultsPath, io);
  // A report that leaves rows out is written, but the exit code says it is incomplete.
  const code = leftOut > 0 ? 1 : 0;
  // The JSON summary and the HTML report judge cases with trials by the gate the run recorded
  // (default `mean`); the HTML report shows the recorded run.
  const runRecord = format === "json" || format === "html"
    ? await runRecordBeside(resultsPath)
    : undefined;
  const trialsGate = runRecord?.options.trials_gate as TrialsGate | undefined;
  const labels = format === "junit" ? undefined : await labelsFor(rows, args.values.labels, io);
  const text = renderReport(format, rows, {
    resultsPath: displayPath(resultsPath, io.cwd),
    ...(trialsGate !== undefined ? { trialsGate } : {}),
    ...(labels !== undefined ? { labels } : {}),
    ...(format === "html" && runRecord !== undefined ? { runRecord } : {}),
  });
  if (out === undefined) {
    io.stdout(text);
    return code;
  }
  try {
    await writeReportFile(out, text);
  } catch (e) {
    const paint = createPaint(io.color);
    io.stderr(
      `${paint.red(paint.bold("error"))}: could not write '${displayPath(out, io.cwd)}': ${
        e instanceof Error ? e.message : String(e)
      }\n${paint.dim("hint")}: pass --out with a writable path, or omit it to print the report\n`,
    );
    return 1;
  }
  io.stderr(`Wrote ${format} report of ${rows.length} case(s) to ${displayPath(out, io.cwd)}\n`);
  return code;
}

/** The `report` command. */
export const reportCommand: Command = {
  ...commandInfo("report"),
  usage: "agentv report <results> [--format junit|markdown|html|json] [--out FILE] [--labels FILE]",
  options: {
    format: {
      type: "string",
      valueName: "FORMAT",
      description: "junit, markdown, html or json (default markdown)",
    },
    out: {
      type: "string",
      valueName: "FILE",
      description: "Write the report here (default stdout)",
    },
    labels: {
      type: "string",
      valueName: "FILE",
      description:
        "Human labels shown beside agentv's verdicts, disagreements counted (default .agentv/labels.jsonl)",
    },
  },
  run,
};
