/** Report: the end-of-run summary names the failed cases (and `--quiet` keeps it to counts). */
import assert from "node:assert/strict";
import { renderSummary } from "../../lib/render/console.ts";
import { summarizeResults } from "../../lib/results/summary.ts";
import type { EvaluatorResult } from "../../lib/schema/result.ts";
import { row } from "../results/_rows.ts";

function evaluator(extra: Partial<EvaluatorResult>): EvaluatorResult {
  return {
    name: "check",
    type: "contains",
    status: "ok",
    score: 0,
    weight: 1,
    verdict: "fail",
    hits: [],
    misses: [],
    ...extra,
  };
}

/** The lines of the section that starts with `title`, up to the blank line that ends it. */
function section(text: string, title: RegExp): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => title.test(l));
  assert.notEqual(start, -1, `no section ${title} in:\n${text}`);
  const end = lines.indexOf("", start);
  return lines.slice(start, end === -1 ? undefined : end);
}

Deno.test("the summary names each failed case with its score and first miss", () => {
  const summary = summarizeResults([
    row("good", 1),
    row("wrong-city", 0.25, { misses: ["Expected 'Paris', got 'Rome'", "second miss"] }),
    row("half", 0.5, { target: "agent" }),
    row("close", 0.7, { misses: ["borderline is not a failure"] }),
  ]);
  const lines = section(renderSummary(summary, { color: false }), /^Failed/);
  assert.deepEqual(lines, [
    "Failed (2)",
    "  ✗ wrong-city [default]  0.250  Expected 'Paris', got 'Rome'",
    "  ✗ half [agent]  0.500",
  ]);
});

Deno.test("a failed case without misses of its own shows its evaluators' first miss or error", () => {
  const summary = summarizeResults([
    row("nested", 0.1, {
      evaluator_results: [
        evaluator({ name: "ok-one", score: 1, verdict: "pass", hits: ["fine"] }),
        evaluator({
          name: "group",
          type: "composite",
          evaluator_results: [evaluator({ misses: ["deep miss"] })],
        }),
      ],
    }),
    row("judge-down", 0, {
      evaluator_results: [evaluator({ status: "error", error: "judge timed out" })],
    }),
  ]);
  assert.deepEqual(summary.failed.map((f) => [f.eval_id, f.first_miss]), [
    ["nested", "deep miss"],
    ["judge-down", "judge timed out"],
  ]);
});

Deno.test("the failed-case list shows at most 20 cases and counts the rest", () => {
  const failing = Array.from({ length: 27 }, (_, i) => row(`f${i}`, 0, { misses: [`m${i}`] }));
  const text = renderSummary(summarizeResults(failing), { color: false });
  const lines = section(text, /^Failed/);
  assert.equal(lines[0], "Failed (27)");
  assert.equal(lines.length, 1 + 20 + 1);
  assert.equal(lines[1], "  ✗ f0 [default]  0.000  m0");
  assert.equal(lines[20], "  ✗ f19 [default]  0.000  m19");
  assert.equal(lines[21], "  … and 7 more");
  const errors = Array.from(
    { length: 23 },
    (_, i) => row(`e${i}`, 0, { status: "error", error: `boom ${i}` }),
  );
  const errorLines = section(
    renderSummary(summarizeResults(errors), { color: false, listLimit: 5 }),
    /^Errors/,
  );
  assert.deepEqual(errorLines.slice(-2), ["  ✗ e4 [default]: boom 4", "  … and 18 more"]);
});

Deno.test("failed cases from several datasets are named dataset/id, and long misses are cut", () => {
  const long = "x".repeat(300);
  const text = renderSummary(
    summarizeResults([
      row("same-id", 0, { dataset: "alpha", misses: [long] }),
      row("same-id", 0, { dataset: "beta", misses: ["line\nbreak\x1b[2J"] }),
    ]),
    { color: false },
  );
  const lines = section(text, /^Failed/);
  assert.match(lines[1], /^ {2}✗ alpha\/same-id \[default\] {2}0\.000 {2}x+…$/);
  assert.ok(lines[1].length < 150, "a 300-character miss is cut");
  assert.equal(lines[2], "  ✗ beta/same-id [default]  0.000  line\\nbreak\\x1b[2J");
});

Deno.test("a quiet summary keeps to the counts and each error's reason on one line: no failed list, histogram or breakdowns", () => {
  const summary = summarizeResults([
    row("a", 1),
    row("b", 0, { misses: ["nope"] }),
    row("c", 0, { status: "error", error: "connection refused to http://127.0.0.1:9/v1\nretry?" }),
  ], { resultsPath: "/w/out.jsonl", durationMs: 1500 });
  const quiet = renderSummary(summary, { color: false, quiet: true, cwd: "/w" });
  assert.equal(
    quiet,
    [
      "Errors (1)",
      "  ✗ c [default]: connection refused to http://127.0.0.1:9/v1\\nretry?",
      "",
      "Summary",
      "  Cases:     3 run, 2 scored, 1 error",
      "  Verdicts:  pass 1  borderline 0  fail 1",
      "  Score:     mean 0.500  median 0.500  min 0.000  max 1.000  stdev 0.707",
      "  Time:      1.5s",
      "  Results:   out.jsonl",
      "",
    ].join("\n"),
  );
  const full = renderSummary(summary, { color: false, cwd: "/w" });
  assert.match(full, /^Errors \(1\)$/m);
  assert.match(full, /^Failed \(1\)$/m);
  assert.match(full, /Histogram:/);
});

Deno.test("the summary counts skipped cases, says what a dry run checked, and aligns the evaluator columns", () => {
  const skipped = row("s", 0, { status: "skipped", dry_run: true });
  const evaluators = [
    evaluator({ name: "tool-trajectory-check", type: "tool_trajectory" }),
    evaluator({ name: "contains", type: "contains" }),
  ];
  const summary = summarizeResults([
    row("a", 1, { dry_run: true, evaluator_results: evaluators }),
    row("b", 0, { dry_run: true, misses: ["nope"] }),
    skipped,
  ]);
  assert.equal(summary.skipped, 1);
  const text = renderSummary(summary, { color: false });
  assert.match(text, /^ {2}Cases: {5}3 run, 2 scored, 1 skipped$/m);
  assert.match(text, /^ {2}Dry run: {3}every case is wired .*not failures$/m);
  assert.match(text, /^Failed against the mock answers \(1; not failures in a dry run\)$/m);
  const means = text.split("\n").filter((l) => /^ {4}\S.* mean [\d-]/.test(l));
  assert.ok(means.some((l) => l.includes("tool-trajectory-check (tool_trajectory)")));
  const columns = new Set(means.map((l) => l.indexOf(" mean ")));
  assert.equal(columns.size, 1, means.join("\n"));
  const broken = summarizeResults([row("e", 0, { dry_run: true, status: "error", error: "x" })]);
  assert.match(
    renderSummary(broken, { color: false }),
    /Dry run: {3}1 wiring problem \(listed above\)/,
  );
});
