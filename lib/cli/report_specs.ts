/**
 * The report formats and the `--report FORMAT[:FILE]` option of `agentv run`: what parsing the
 * command line needs, without the renderers (`report.ts` and `run_reports.ts` load those).
 *
 * @module
 */
import { resolve } from "node:path";
import type { CommandIO, OptionSpec } from "./command.ts";
import { UsageError } from "../errors/agentv_error.ts";

/** The report formats, as `--format` and `--report` name them. */
export const REPORT_FORMATS = ["junit", "markdown", "html", "json"] as const;

/** A report format. */
export type ReportFormat = typeof REPORT_FORMATS[number];

/** Whether `text` names a report format. */
export function isReportFormat(text: string): text is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(text);
}

/** The `--report` option of `agentv run` (repeatable). */
export const REPORT_OPTION: OptionSpec = {
  type: "string",
  multiple: true,
  valueName: "FORMAT[:FILE]",
  description: "Also write a junit, markdown, html or json report (default FILE beside the " +
    "results: <results>.junit.xml, .md, .html, .report.json)",
};

/** One `--report FORMAT[:FILE]`. */
export interface ReportSpec {
  /** The format. */
  format: ReportFormat;
  /** The file as given (relative to the cwd); default beside the results file. */
  file?: string;
}

/** The file suffix of each format (`<results><suffix>`). */
export const REPORT_SUFFIX: Record<ReportFormat, string> = {
  junit: ".junit.xml",
  markdown: ".md",
  html: ".html",
  json: ".report.json",
};

/**
 * Where a report goes: its `FILE` (relative to `cwd`), else beside the results file
 * (`<results>.junit.xml`, `.md`, `.html`, `.report.json`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportPath } from "./report_specs.ts";
 * assert.equal(reportPath({ format: "junit" }, "/r/a.jsonl", "/r"), "/r/a.jsonl.junit.xml");
 * assert.equal(reportPath({ format: "html", file: "out/r.html" }, "/r/a.jsonl", "/w"), "/w/out/r.html");
 * ```
 */
export function reportPath(spec: ReportSpec, resultsPath: string, cwd: string): string {
  return spec.file === undefined
    ? resultsPath + REPORT_SUFFIX[spec.format]
    : resolve(cwd, spec.file);
}

/**
 * Parses the `--report` values (`junit`, `markdown:out/report.md`, …; a string, a list or
 * `undefined`); a bad one is a usage error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseReportSpecs } from "./report_specs.ts";
 * assert.deepEqual(parseReportSpecs(["junit", "markdown:out.md"]), [
 *   { format: "junit" },
 *   { format: "markdown", file: "out.md" },
 * ]);
 * ```
 */
export function parseReportSpecs(values: unknown): ReportSpec[] {
  const list = values === undefined ? [] : Array.isArray(values) ? values : [values];
  return list.map((item) => {
    const value = String(item);
    const colon = value.indexOf(":");
    const format = colon === -1 ? value : value.slice(0, colon);
    const file = colon === -1 ? undefined : value.slice(colon + 1);
    if (!isReportFormat(format)) {
      throw new UsageError(
        `--report '${value}': unknown format '${format}'; expected one of ${
          REPORT_FORMATS.join(", ")
        }`,
        "e.g. --report junit or --report junit:reports/agentv.xml",
      );
    }
    if (file !== undefined && file.trim() === "") {
      throw new UsageError(
        `--report '${value}': the file after ':' is empty`,
        `name a file, e.g. --report ${format}:report${REPORT_SUFFIX[format]}, or leave out ':'`,
      );
    }
    return file === undefined ? { format } : { format, file };
  });
}

/** Whether the run should read its rows back for reports (anything asked for or on GitHub). */
export function wantsRunReports(specs: readonly ReportSpec[], io: CommandIO): boolean {
  return specs.length > 0 || isGithubActions(io) || stepSummaryPath(io) !== undefined;
}

/** Whether the run is on GitHub Actions (`GITHUB_ACTIONS=true`). */
export function isGithubActions(io: CommandIO): boolean {
  return io.env("GITHUB_ACTIONS") === "true";
}

/** The GitHub step summary file, when `GITHUB_STEP_SUMMARY` names one. */
export function stepSummaryPath(io: CommandIO): string | undefined {
  const path = io.env("GITHUB_STEP_SUMMARY");
  return path === undefined || path.trim() === "" ? undefined : path;
}
