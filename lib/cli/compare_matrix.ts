/**
 * `agentv compare` of more than two arms (one run of several targets, or several runs): the
 * N-way comparison (`lib/compare/matrix.ts`) in the chosen format, and its gates.
 *
 * @module
 */
import type { Arm } from "../compare/arms.ts";
import {
  compareArms,
  failOnReasons,
  type MatrixComparison,
  requireBestReasons,
} from "../compare/matrix.ts";
import { matrixToJson } from "../compare/matrix_json.ts";
import { renderMatrixHtml } from "../render/matrix_html.ts";
import { renderMatrixMarkdown } from "../render/matrix_markdown.ts";
import { renderMatrixText } from "../render/matrix_text.ts";
import { createPaint } from "../render/diagnostics.ts";
import type { CompareFormat, CompareOptions } from "./compare_args.ts";
import type { CommandIO } from "./command.ts";

/** The N-way comparison of `arms` rendered in `format`, and why its gates fail (none: pass). */
export function compareMatrix(
  arms: readonly Arm[],
  options: CompareOptions & { baselineIndex: number; requireBestIndex?: number },
  io: CommandIO,
): { text: string; failures: string[] } {
  const m = compareArms(arms, {
    baseline: options.baselineIndex,
    seed: options.seed,
    delta: options.delta,
  });
  const failures: string[] = [];
  if (options.failOn !== undefined) {
    failures.push(
      ...failOnReasons(m, options.failOn).map((r) => `--fail-on ${options.failOn}: ${r}`),
    );
  }
  if (options.requireBestIndex !== undefined) {
    const label = arms[options.requireBestIndex].label;
    failures.push(...requireBestReasons(m, label).map((r) => `--require-best ${label}: ${r}`));
  }
  return { text: renderMatrix(options.format, m, io), failures };
}

function renderMatrix(format: CompareFormat, m: MatrixComparison, io: CommandIO): string {
  switch (format) {
    case "json":
      return JSON.stringify(matrixToJson(m), null, 2) + "\n";
    case "markdown":
      return renderMatrixMarkdown(m);
    case "html":
      return renderMatrixHtml(m);
    case "text":
      return renderMatrixText(m, { style: createPaint(io.color) });
  }
}
