import assert from "node:assert/strict";
import {
  histogramBin,
  runPassed,
  scoreStats,
  summarizeResults,
} from "../../lib/results/summary.ts";
import { row } from "./_rows.ts";

Deno.test("scoreStats() computes mean, median, min, max and sample stdev", () => {
  const s = scoreStats([0.2, 0.4, 0.6, 1]);
  assert.equal(s.mean, 0.55);
  assert.equal(s.median, 0.5);
  assert.equal(s.min, 0.2);
  assert.equal(s.max, 1);
  assert.ok(Math.abs(s.stdev! - 0.3415650255) < 1e-9);
  assert.deepEqual(scoreStats([0.7]), { mean: 0.7, median: 0.7, min: 0.7, max: 0.7, stdev: null });
  assert.deepEqual(scoreStats([]), { mean: null, median: null, min: null, max: null, stdev: null });
});

Deno.test("histogramBin() puts boundary values in the upper bin, 1.0 in the last", () => {
  assert.deepEqual([0, 0.19, 0.2, 0.4, 0.59, 0.6, 0.8, 1].map(histogramBin), [
    0,
    0,
    1,
    2,
    2,
    3,
    4,
    4,
  ]);
});

Deno.test("summarizeResults() keeps error rows out of the score statistics and lists them", () => {
  const summary = summarizeResults([
    row("a", 1, { duration_ms: 5, evaluator_results: [ev("c", 1)] }),
    row("b", 0.6, { duration_ms: 50, evaluator_results: [ev("c", 0.5)] }),
    row("c", 0.2, { duration_ms: 20, token_usage: { input: 3, output: 4 } }),
    row("d", 0, {
      status: "error",
      error: "boom",
      attempts: 4,
      duration_ms: 99,
      evaluator_results: [{ ...ev("c", 0), status: "error" }],
    }),
  ], {
    invalid: [{ severity: "error", file: "x.yaml", line: 3, message: "bad" }],
    resultsPath: "/r.jsonl",
    durationMs: 1234,
  });
  assert.equal(summary.total, 4);
  assert.equal(summary.scored, 3);
  assert.deepEqual(summary.errors, [
    { eval_id: "d", dataset: "ds", target: "default", error: "boom", attempts: 4 },
  ]);
  assert.ok(Math.abs(summary.scores.mean! - 0.6) < 1e-12);
  assert.deepEqual(summary.verdicts, { pass: 1, borderline: 1, fail: 1 });
  assert.deepEqual(summary.histogram.map((b) => [b.range, b.count]), [
    ["0.0-0.2", 0],
    ["0.2-0.4", 1],
    ["0.4-0.6", 0],
    ["0.6-0.8", 1],
    ["0.8-1.0", 1],
  ]);
  assert.deepEqual(summary.slowest.map((s) => s.eval_id), ["d", "b", "c", "a"]);
  assert.deepEqual(summary.evaluators, [
    { name: "c", type: "contains", mean: 0.75, count: 2, errors: 1 },
  ]);
  assert.deepEqual(summary.token_usage, { input: 3, output: 4 });
  assert.equal(summary.invalid.length, 1);
  assert.equal(summary.results_path, "/r.jsonl");
  assert.equal(summary.duration_ms, 1234);
  assert.equal(summary.dry_run, false);
});

Deno.test("runPassed() gates on errors, invalid cases, fail verdicts and the threshold", () => {
  const ok = summarizeResults([row("a", 1), row("b", 0.7)]);
  assert.equal(runPassed(ok), true);
  assert.equal(runPassed(ok, { threshold: 0.85 }), true);
  assert.equal(runPassed(ok, { threshold: 0.9 }), false);
  const failing = summarizeResults([row("a", 1), row("b", 0.1)]);
  assert.equal(runPassed(failing), false);
  assert.equal(runPassed(failing, { threshold: 0.5 }), true);
  const withError = summarizeResults([row("a", 1), row("b", 0, { status: "error", error: "x" })]);
  assert.equal(runPassed(withError, { threshold: 0 }), false);
  const withInvalid = summarizeResults([row("a", 1)], {
    invalid: [{ severity: "error", file: "f", message: "m" }],
  });
  assert.equal(runPassed(withInvalid), false);
  assert.equal(runPassed(summarizeResults([row("a", 1)], { interrupted: true })), false);
  assert.equal(runPassed(summarizeResults([])), false);
});

function ev(name: string, score: number) {
  return {
    name,
    type: "contains",
    status: "ok" as const,
    score,
    weight: 1,
    verdict: "pass" as const,
    hits: [],
    misses: [],
  };
}
