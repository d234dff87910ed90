/**
 * Reports of a run whose cases ran several trials: distinct names per trial (JUnit, Markdown),
 * the Markdown trials table, and the console summary (full and quiet).
 */
import assert from "node:assert/strict";
import { renderSummary } from "../../lib/render/console.ts";
import { renderJunitReport } from "../../lib/render/junit.ts";
import { renderMarkdownReport } from "../../lib/render/markdown.ts";
import { summarizeResults } from "../../lib/results/summary.ts";
import { row } from "../results/_rows.ts";

// "refund" passes trials 0 and 2 and fails trial 1; "greet" passes both of its trials.
const rows = [
  row("refund", 1, { trial: 0 }),
  row("refund", 0.2, { trial: 1, misses: ["no refund"] }),
  row("refund", 1, { trial: 2 }),
  row("greet", 1, { trial: 0 }),
  row("greet", 0.9, { trial: 1 }),
];

Deno.test("renderJunitReport() gives every trial of a case its own test name", () => {
  const xml = renderJunitReport(rows);
  const names = [...xml.matchAll(/<testcase\b[^>]*\sname="([^"]*)"/g)].map((m) => m[1]);
  assert.equal(names.length, 5);
  assert.equal(new Set(names).size, 5, names.join(", "));
});

Deno.test("renderMarkdownReport() names failed trials `id #i` and tabulates cases with trials", () => {
  const md = renderMarkdownReport(rows);
  assert.match(md, /\| ds \| refund #1 \| 0\.20 \| no refund \|/);
  assert.match(md, /### Cases with several trials \(2\)/);
  // refund: 2/3 passed, mean (1 + 0.2 + 1)/3 ≈ 0.733; sample sd of (1, 0.2, 1):
  // deviations 0.267, −0.533, 0.267: squares sum 0.4267; / 2 = 0.2133; sqrt ≈ 0.46.
  // pass@1 = 2/3, pass@3 = 1 (only 1 failed trial), pass^3 = C(2,3)/C(3,3) = 0.
  assert.match(md, /\| ds \| refund \| 2\/3 \| 0\.73 ± 0\.46 \| 0\.67 \| 1\.00 \| 0\.00 \| yes \|/);
  assert.match(md, /\| ds \| greet \| 2\/2 \| 0\.95 ± 0\.07 \| 1\.00 \| 1\.00 \| 1\.00 \| {2}\|/);
});

Deno.test("renderSummary() lists trials per case and flaky cases; quiet keeps only the counts", () => {
  const summary = summarizeResults(rows, { trialsGate: "all" });
  const full = renderSummary(summary, { color: false });
  assert.match(full, /Trials \(gate all\)\n {2}✗ refund +2\/3 passed/);
  assert.match(full, /✓ greet +2\/2 passed/);
  assert.match(full, /Flaky \(1\): refund \(2\/3\)/);
  assert.match(full, /Trials: +2 cases, gate all: 1 pass, 1 fail, 1 flaky/);
  const quiet = renderSummary(summary, { color: false, quiet: true });
  assert.doesNotMatch(quiet, /Flaky \(/);
  assert.match(quiet, /Trials: +2 cases, gate all: 1 pass, 1 fail, 1 flaky/);
  assert.doesNotMatch(renderSummary(summarizeResults([row("a", 1)]), { color: false }), /Trials/);
});
