/**
 * The views of a run: console progress and summary, diagnostics, JUnit, Markdown, HTML, the
 * compare views and the judge calibration views.
 *
 * @module
 */
export { type CompareStyle, renderCompareText, type RenderTextOptions } from "./compare_text.ts";
export { renderCompareMarkdown } from "./compare_markdown.ts";
export { type CompareHtmlOptions, comparePageData, renderCompareHtml } from "./compare_html.ts";
export { renderMatrixText } from "./matrix_text.ts";
export { renderMatrixMarkdown } from "./matrix_markdown.ts";
export {
  type MatrixHtmlOptions,
  type MatrixPageData,
  matrixPageData,
  renderMatrixHtml,
} from "./matrix_html.ts";
export { type JunitReportOptions, renderJunitReport } from "./junit.ts";
export { type MarkdownReportOptions, renderMarkdownReport } from "./markdown.ts";
export {
  type AnnotationOptions,
  type CaseSourceLocation,
  renderAnnotations,
} from "./annotations.ts";
export {
  type HtmlCaseDetails,
  type HtmlReportOptions,
  renderHtmlReport,
  type ReportPageData,
  reportPageData,
} from "./html/render_html_report.ts";
export { type HtmlAppPageInput, type HtmlPageKind, renderHtmlAppPage } from "./html/html_page.ts";
export { type CalibrationStyle, renderCalibrationText } from "./calibration_text.ts";
export { renderCalibrationMarkdown } from "./calibration_markdown.ts";
export { renderCalibrationHtml } from "./calibration_html.ts";
