/**
 * The HTML view of `agentv calibrate --format html`: one self-contained page (inline CSS and JS,
 * the `--json` document embedded as escaped JSON, a CSP that allows no network) showing the gate,
 * each evaluator's confusion matrix, figures and disagreements, and self-consistency.
 *
 * @module
 */
import { calibrationJson, type CalibrationOutput } from "../calibration/output.ts";
import { renderHtmlPage } from "./html/html_page.ts";

/**
 * Renders the output of `agentv calibrate` as one self-contained HTML page. Every value is
 * embedded as escaped JSON and shown as text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderCalibrationHtml } from "./calibration_html.ts";
 * const html = renderCalibrationHtml({ results: ["r.jsonl"], labels_file: null, report: null,
 *   repeat: null, orders: null, skipped: [], saved: null, gate: null });
 * assert.match(html, /<title>agentv calibrate: r.jsonl<\/title>/);
 * ```
 */
export function renderCalibrationHtml(output: CalibrationOutput): string {
  const title = `agentv calibrate: ${output.results.join(", ")}`;
  return renderHtmlPage({
    kind: "calibration",
    title,
    data: { title, ...calibrationJson(output) },
  });
}
