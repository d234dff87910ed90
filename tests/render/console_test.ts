import assert from "node:assert/strict";
import { createProgressReporter, formatDuration, renderSummary } from "../../lib/render/console.ts";
import { summarizeResults } from "../../lib/results/summary.ts";
import { row } from "../results/_rows.ts";

function recorder() {
  const out: string[] = [];
  return { out, write: (t: string) => out.push(t) };
}

Deno.test("createProgressReporter() prints one plain line per case when not a TTY", () => {
  const r = recorder();
  const p = createProgressReporter({ write: r.write, isTTY: false, color: false, now: () => 0 });
  p.onEvent({ type: "run_started", total: 2, files: ["/a.yaml"], workers: 4, dry_run: false });
  p.onEvent({
    type: "case_finished",
    row: row("one", 0.9, { duration_ms: 1500 }),
    done: 1,
    total: 2,
  });
  p.onEvent({
    type: "case_finished",
    row: row("two", 0, { status: "error", error: "HTTP 500", attempts: 4 }),
    done: 2,
    total: 2,
  });
  p.finish();
  const text = r.out.join("");
  assert.match(text, /^Running 2 cases from 1 file with 4 workers\n/);
  assert.match(text, /\[1\/2\] pass {3}0\.900 {2}one {2}1\.5s\n/);
  assert.match(text, /\[2\/2\] ERROR {2}two: HTTP 500 \(4 attempts\)\n/);
  assert.ok(!text.includes("\r"));
  assert.ok(!text.includes("\x1b["));
});

Deno.test("createProgressReporter() keeps one live line on a TTY with counts and ETA", () => {
  const r = recorder();
  let t = 0;
  const p = createProgressReporter({
    write: r.write,
    isTTY: true,
    color: false,
    now: () => t,
    redrawMs: 0,
    startTimer: () => () => {},
  });
  p.onEvent({ type: "run_started", total: 4, files: ["/a.yaml"], workers: 2, dry_run: false });
  t = 2000;
  p.onEvent({ type: "case_finished", row: row("a", 0.9), done: 1, total: 4 });
  t = 4000;
  p.onEvent({ type: "case_finished", row: row("b", 0.7), done: 2, total: 4 });
  const last = r.out[r.out.length - 1];
  // No case_started events: the mean duration comes from the rows (10 ms each); 2 cases left
  // on 2 workers take one mean duration.
  assert.equal(last, "\r2/4  pass 1  borderline 1  fail 0  error 0  4.0s  ETA 10ms\x1b[K");
  p.finish();
  assert.equal(r.out[r.out.length - 1], "\r\x1b[K");
});

Deno.test("createProgressReporter() prints nothing when quiet", () => {
  const r = recorder();
  const p = createProgressReporter({ write: r.write, isTTY: true, color: true, quiet: true });
  p.onEvent({ type: "run_started", total: 1, files: [], workers: 1, dry_run: false });
  p.onEvent({ type: "case_finished", row: row("a", 1), done: 1, total: 1 });
  p.finish();
  assert.deepEqual(r.out, []);
});

Deno.test("createProgressReporter() shows retries only with verbose", () => {
  const retry = {
    type: "retry" as const,
    eval_id: "a",
    target: "t",
    attempt: 1,
    delay_ms: 1200,
    reason: "HTTP 429",
  };
  const quietish = recorder();
  createProgressReporter({ write: quietish.write, isTTY: false, color: false }).onEvent(retry);
  assert.deepEqual(quietish.out, []);
  const verbose = recorder();
  createProgressReporter({ write: verbose.write, isTTY: false, color: false, verbose: true })
    .onEvent(retry);
  assert.equal(verbose.out.join(""), "retry a: attempt 1 failed (HTTP 429); next in 1.2s\n");
});

Deno.test("renderSummary() shows errors, invalid cases, statistics and the results path", () => {
  const summary = summarizeResults([
    row("a", 1),
    row("b", 0, { status: "error", error: "boom", attempts: 2 }),
  ], {
    invalid: [{ severity: "error", file: "/w/evals/x.yaml", line: 3, column: 5, message: "bad" }],
    resultsPath: "/w/.agentv/results/r.jsonl",
    durationMs: 2500,
  });
  const text = renderSummary(summary, { color: false, cwd: "/w", threshold: 0.8 });
  assert.match(text, /Errors \(1\)\n {2}✗ b \[default\]: boom \(2 attempts\)/);
  assert.match(text, /Invalid cases skipped \(1 problem\)\n {2}evals\/x\.yaml:3:5: bad/);
  assert.match(text, /Cases: +2 run, 1 scored, 1 error, 1 invalid/);
  assert.match(text, /mean 1\.000 +median 1\.000 .*\(threshold 0\.8\)/);
  assert.match(text, /0\.8-1\.0 +1 /);
  assert.match(text, /Results: +\.agentv\/results\/r\.jsonl/);
  assert.ok(!text.includes("\x1b["));
  assert.ok(renderSummary(summary, { color: true }).includes("\x1b[31m"));
});

Deno.test("formatDuration() picks a readable unit", () => {
  assert.deepEqual([340, 1500, 65_000, -1].map(formatDuration), ["340ms", "1.5s", "1m05s", "?"]);
});
