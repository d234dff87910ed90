/**
 * The report formats and where the reports of `agentv run --report FORMAT[:FILE]` go: what the
 * command needs before the run, without the renderers (`report.ts` and `run_reports.ts` load
 * those). The `--report` option itself is declared with the run options (`lib/schema/run_spec.ts`).
 *
 * @module
 */
import { resolve } from "node:path";
import {
  REPORT_FORMATS,
  REPORT_SUFFIX,
  type ReportFormat,
  type ReportSpec,
} from "../schema/run_option.ts";
import type { CommandIO } from "./command.ts";

/** The report formats, their suffixes and `--report`'s value (declared with the run options). */
export {
  REPORT_FORMATS,
  REPORT_SUFFIX,
  type ReportFormat,
  type ReportSpec,
} from "../schema/run_option.ts";

/** Whether `text` names a report format. */
export function isReportFormat(text: string): text is ReportFormat {
  return (REPORT_FORMATS as readonly string[]).includes(text);
}

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
