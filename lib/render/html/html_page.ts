/**
 * Puts an HTML page of agentv together: the shared stylesheet, the page script of its kind (the
 * results report, the comparison of two runs, or a judge calibration) and its data, as one
 * self-contained document.
 *
 * @module
 */
import { CLIENT_CALIBRATION } from "./_client_calibration.ts";
import { CLIENT_CASE, CLIENT_UTIL } from "./_client_case.ts";
import { CLIENT_COMPARE } from "./_client_compare.ts";
import { CLIENT_GRID } from "./_client_grid.ts";
import { CLIENT_REPORT, CLIENT_SHELL } from "./_client_report.ts";
import { renderPage } from "./_page.ts";
import { PAGE_CSS } from "./_styles.ts";

/** Which page: the report of one results file, the comparison of two, or a judge calibration. */
export type HtmlPageKind = "report" | "compare" | "calibration";

/** What {@link renderHtmlPage} needs. */
export interface HtmlPageInput {
  /** The page kind. */
  kind: HtmlPageKind;
  /** The document title. */
  title: string;
  /** The data the page script reads (see `renderHtmlReport` and `renderCompareHtml`). */
  data: unknown;
}

function script(main: string, start: string): string {
  return [
    '"use strict";',
    "(function () {",
    CLIENT_UTIL,
    CLIENT_CASE,
    CLIENT_GRID,
    CLIENT_SHELL,
    main,
    `${start}();`,
    "})();",
  ].join("\n");
}

const SCRIPTS: Record<HtmlPageKind, string> = {
  report: script(CLIENT_REPORT, "startReport"),
  compare: script(CLIENT_COMPARE, "startCompare"),
  calibration: script(CLIENT_CALIBRATION, "startCalibration"),
};

/**
 * Renders a self-contained page (inline CSS and JS, data as escaped JSON, a CSP that allows no
 * network). Used by `renderHtmlReport` and `renderCompareHtml`; call those instead.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderHtmlPage } from "./html_page.ts";
 * const html = renderHtmlPage({ kind: "report", title: "t", data: { title: "t", rows: [] } });
 * assert.match(html, /^<!DOCTYPE html>/);
 * ```
 */
export function renderHtmlPage(input: HtmlPageInput): string {
  return renderPage({
    title: input.title,
    css: PAGE_CSS,
    script: SCRIPTS[input.kind],
    data: input.data,
  });
}
