/**
 * The Markdown report: the summary table (counts and mean computed by hand on a small example),
 * the failed and errored cases with their first miss, per-evaluator means, and cell escaping that
 * keeps a table a table whatever the cases say.
 */
import assert from "node:assert/strict";
import {
  escapeMarkdownCell,
  formatDuration,
  renderMarkdownReport,
} from "../../lib/render/markdown.ts";
import type { EvaluatorResult } from "../../lib/schema/result.ts";
import { row } from "../results/_rows.ts";

function evaluator(name: string, score: number, misses: string[] = []): EvaluatorResult {
  return {
    name,
    type: "contains",
    status: "ok",
    score,
    weight: 1,
    verdict: score >= 0.8 ? "pass" : score >= 0.6 ? "borderline" : "fail",
    hits: [],
    misses,
  };
}

/** The cells of a GFM table line, split on unescaped pipes. */
function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  const out: string[] = [];
  let cell = "";
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === "\\" && i + 1 < inner.length) {
      cell += c + inner[i + 1];
      i++;
    } else if (c === "|") {
      out.push(cell.trim());
      cell = "";
    } else cell += c;
  }
  out.push(cell.trim());
  return out;
}

/** The table under `heading` as rows of cells (header first, rule dropped). */
function tableAfter(md: string, heading: string): string[][] {
  const lines = md.split("\n");
  const start = lines.findIndex((l) => l === heading);
  assert.ok(start >= 0, `no heading '${heading}' in:\n${md}`);
  const table: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("|")) table.push(cells(line));
    else if (table.length > 0) break;
  }
  return table.filter((_, i) => i !== 1);
}

// Scores: alpha 1.0 (pass), 0.7 (borderline), 0.3 (fail); beta 0.95 (pass), an error, a skip.
// Scored rows: 1.0, 0.7, 0.3, 0.95 → mean 2.95 / 4 = 0.7375; alpha's mean 2.0 / 3 = 0.667.
const ROWS = [
  row("a-pass", 1, {
    dataset: "alpha",
    duration_ms: 1000,
    evaluator_results: [evaluator("kw", 1)],
  }),
  row("a-border", 0.7, {
    dataset: "alpha",
    duration_ms: 2000,
    evaluator_results: [evaluator("kw", 0.5), evaluator("style", 0.9)],
  }),
  row("a-fail", 0.3, {
    dataset: "alpha",
    duration_ms: 500,
    misses: ["Says | nothing\nuseful", "second miss"],
    evaluator_results: [evaluator("kw", 0.3)],
  }),
  row("b-pass", 0.95, { dataset: "beta", duration_ms: 250 }),
  row("b-error", 0, {
    dataset: "beta",
    status: "error",
    verdict: "fail",
    error: "HTTP 500 from provider",
    attempts: 3,
    duration_ms: 0,
  }),
  row("b-skip", 0, { dataset: "beta", status: "skipped", verdict: "fail", duration_ms: 0 }),
];

Deno.test("renderMarkdownReport() summarises each dataset and the whole run in one table", () => {
  const md = renderMarkdownReport(ROWS, { durationMs: 61_000 });
  const table = tableAfter(md, "## agentv results");
  assert.deepEqual(table[0], [
    "Dataset",
    "Cases",
    "Pass",
    "Borderline",
    "Fail",
    "Error",
    "Skipped",
    "Mean score",
    "Duration",
  ]);
  assert.deepEqual(table[1], ["alpha", "3", "1", "1", "1", "0", "0", "0.67", "3.5 s"]);
  assert.deepEqual(table[2], ["beta", "3", "1", "0", "0", "1", "1", "0.95", "250 ms"]);
  assert.deepEqual(table[3], ["**all**", "6", "2", "1", "1", "1", "1", "0.74", "1 min 01 s"]);
});

Deno.test("renderMarkdownReport() lists failed cases with their first miss and errored cases with the error", () => {
  const md = renderMarkdownReport(ROWS);
  const failed = tableAfter(md, "### Failed cases (1)");
  assert.deepEqual(failed.slice(1), [["alpha", "a-fail", "0.30", "Says \\| nothing<br>useful"]]);
  const errors = tableAfter(md, "### Errors (1)");
  assert.deepEqual(errors.slice(1), [["beta", "b-error", "3", "HTTP 500 from provider"]]);
  // A failed row without own misses shows its evaluators' first miss.
  const viaEvaluator = renderMarkdownReport([
    row("x", 0.1, { evaluator_results: [evaluator("kw", 0.1, ["Missing 'refund'"])] }),
  ]);
  assert.deepEqual(tableAfter(viaEvaluator, "### Failed cases (1)")[1]?.[3], "Missing 'refund'");
});

Deno.test("renderMarkdownReport() gives each evaluator's mean score", () => {
  const table = tableAfter(renderMarkdownReport(ROWS), "### Evaluators");
  // kw: (1 + 0.5 + 0.3) / 3 = 0.6; style: 0.9.
  assert.deepEqual(table.slice(1), [
    ["kw", "contains", "0.60", "3", "0"],
    ["style", "contains", "0.90", "1", "0"],
  ]);
});

Deno.test("renderMarkdownReport() lists at most maxCases failures and counts the rest", () => {
  const rows = [0, 1, 2, 3, 4].map((i) => row(`f${i}`, 0.1));
  const md = renderMarkdownReport(rows, { maxCases: 2 });
  assert.equal(tableAfter(md, "### Failed cases (5)").length, 3);
  assert.match(md, /…and 3 more/);
});

Deno.test("renderMarkdownReport() keeps one table row per case whatever its text holds", () => {
  const hostile = "a|b\\|c\r\nd\n| --- |\n<script>x</script> \u0000\u001b[2J";
  const md = renderMarkdownReport([row(hostile, 0.2, { dataset: hostile, misses: [hostile] })]);
  const failed = tableAfter(md, "### Failed cases (1)");
  assert.equal(failed.length, 2);
  assert.equal(failed[1]?.length, 4);
  assert.doesNotMatch(md, /<script>/);
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(md, /[\u0000\u001b]/);
  const summary = tableAfter(md, "## agentv results");
  assert.equal(summary.length, 2);
  assert.equal(summary[1]?.length, 9);
});

Deno.test("renderMarkdownReport() shows notes under the heading as quotes", () => {
  const md = renderMarkdownReport([row("a", 1)], {
    notes: ["Interrupted: 3 case(s) were not started."],
  });
  assert.ok(md.startsWith("## agentv results\n\n> Interrupted: 3 case(s) were not started.\n"), md);
});

Deno.test("escapeMarkdownCell() escapes pipes, backslashes, line breaks and HTML", () => {
  assert.equal(escapeMarkdownCell("a|b"), "a\\|b");
  assert.equal(escapeMarkdownCell("a\\|b"), "a\\\\\\|b");
  assert.equal(escapeMarkdownCell("x\r\ny\nz"), "x<br>y<br>z");
  assert.equal(escapeMarkdownCell("<b>&</b>"), "&lt;b&gt;&amp;&lt;/b&gt;");
  assert.equal(escapeMarkdownCell("abcdef", 4), "abc…");
});

Deno.test("formatDuration() reads as ms, seconds or minutes", () => {
  assert.equal(formatDuration(850), "850 ms");
  assert.equal(formatDuration(12_340), "12.3 s");
  assert.equal(formatDuration(245_000), "4 min 05 s");
});
