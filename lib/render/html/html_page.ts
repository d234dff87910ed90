/**
 * Puts an HTML page of agentv together: the shared stylesheet, the page script of its kind (the
 * results report, the comparison of two runs, or a judge calibration) and its data, as one
 * self-contained document.
 *
 * @module
 */
import { CLIENT_CALIBRATION } from "./_client_calibration.ts";
import { CLIENT_CASE, CLIENT_UTIL } from "./_client_case.ts";
import { CLIENT_CHARTS } from "./_client_charts.ts";
import { CLIENT_CONVERSATION } from "./_client_conversation.ts";
import { CLIENT_COMPARE } from "./_client_compare.ts";
import { CLIENT_GRID } from "./_client_grid.ts";
import { CLIENT_REPORT, CLIENT_SHELL } from "./_client_report.ts";
import { CLIENT_REPORT_SUMMARY } from "./_client_report_summary.ts";
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

function script(main: string, start: string, extra = ""): string {
  return [
    '"use strict";',
    "(function () {",
    CLIENT_UTIL,
    CLIENT_CASE,
    CLIENT_CONVERSATION,
    CLIENT_CHARTS,
    CLIENT_GRID,
    CLIENT_SHELL,
    main,
    extra,
    `${start}();`,
    "})();",
  ].join("\n");
}

const REPORT = [CLIENT_REPORT_SUMMARY, CLIENT_REPORT].join("\n");

const MAIN: Record<HtmlPageKind, string> = {
  report: REPORT,
  compare: CLIENT_COMPARE,
  calibration: CLIENT_CALIBRATION,
};

const SCRIPTS: Record<HtmlPageKind, string> = {
  report: script(REPORT, "startReport"),
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

/** What {@link renderHtmlAppPage} needs: a page kind's browser code, extended. */
export interface HtmlAppPageInput extends HtmlPageInput {
  /**
   * More browser code, in the same scope as the page kind's (`startReport(data, hooks)` and
   * `startCompare(data)` take their data as an argument instead of the data block). Static text
   * of agentv, never data.
   */
  script: string;
  /** The function the page starts with (defined in `script`). */
  start: string;
  /** More CSS (static text of agentv). */
  css?: string;
}

/**
 * Renders a page that builds on a page kind's browser code (the local viewer's pages): the same
 * document, stylesheet and escaping as {@link renderHtmlPage}, plus the given code, and a CSP that
 * lets the script `fetch` from its own origin only.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderHtmlAppPage } from "./html_page.ts";
 * const html = renderHtmlAppPage({
 *   kind: "report", title: "t", data: {}, script: "function go() {}", start: "go",
 * });
 * assert.match(html, /connect-src 'self'/);
 * ```
 */
export function renderHtmlAppPage(input: HtmlAppPageInput): string {
  return renderPage({
    title: input.title,
    css: PAGE_CSS + (input.css ?? ""),
    script: script(MAIN[input.kind], input.start, input.script),
    data: input.data,
    connectSelf: true,
  });
}
