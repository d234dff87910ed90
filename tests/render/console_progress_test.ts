/** Report: the live progress line (layout, clipping, ETA, timer) and display widths. */
import assert from "node:assert/strict";
import {
  createProgressReporter,
  estimateRemainingMs,
  formatProgressLine,
  type ProgressSnapshot,
} from "../../lib/render/progress.ts";
import { clipToWidth, displayWidth } from "../../lib/text/display_width.ts";
import type { RunEvent } from "../../lib/results/events.ts";
import { row } from "../results/_rows.ts";

/** Columns of text made only of narrow characters, once colour codes are removed. */
function narrowColumns(text: string): number {
  // deno-lint-ignore no-control-regex
  return [...text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "")].length;
}

/** The frames a TTY reporter drew: the text between `\r` and the clear-to-end `ESC [K`. */
function frames(output: string): string[] {
  // deno-lint-ignore no-control-regex
  return [...output.matchAll(/\r([^\r\n]*?)\x1b\[K/g)].map((m) => m[1]).filter((f) => f !== "");
}

/** A manual timer: `tick()` runs the callback of every timer still running. */
function manualTimer() {
  const running = new Set<() => void>();
  let started = 0;
  return {
    start: (_ms: number, fn: () => void) => {
      started++;
      running.add(fn);
      return () => running.delete(fn);
    },
    tick: () => running.forEach((fn) => fn()),
    get running() {
      return running.size;
    },
    get started() {
      return started;
    },
  };
}

function ttyReporter(options: { columns?: number; color?: boolean } = {}) {
  let t = 0;
  let out = "";
  const timer = manualTimer();
  const reporter = createProgressReporter({
    write: (text) => out += text,
    isTTY: true,
    color: options.color ?? false,
    now: () => t,
    columns: () => options.columns ?? 200,
    startTimer: timer.start,
  });
  return {
    reporter,
    timer,
    at: (ms: number) => t = ms,
    output: () => out,
  };
}

const SNAPSHOT: ProgressSnapshot = {
  done: 123,
  total: 4567,
  counts: { pass: 100, borderline: 12, fail: 8, error: 3 },
  elapsedMs: 65_000,
  etaMs: 3_600_000,
};

const started = (total: number, workers: number): RunEvent => ({
  type: "run_started",
  total,
  files: ["/w/a.yaml"],
  workers,
  dry_run: false,
});
const caseStarted = (id: string, index: number, total: number): RunEvent => ({
  type: "case_started",
  eval_id: id,
  dataset: "ds",
  target: "default",
  index,
  total,
});
const caseFinished = (id: string, score: number, done: number, total: number): RunEvent => ({
  type: "case_finished",
  row: row(id, score),
  done,
  total,
});

Deno.test("the progress line shows every count, elapsed time and ETA when the terminal is wide", () => {
  assert.equal(
    formatProgressLine(SNAPSHOT, { columns: 120, color: false }),
    "123/4567  pass 100  borderline 12  fail 8  error 3  1m05s  ETA 60m00s",
  );
});

Deno.test("the progress line fits in one column less than the terminal at any width", () => {
  for (const color of [false, true]) {
    for (const columns of [200, 80, 72, 60, 45, 40, 30, 24, 16, 10, 5, 2, 1]) {
      const line = formatProgressLine(SNAPSHOT, { columns, color });
      assert.ok(
        narrowColumns(line) <= Math.max(1, columns - 1),
        `${columns} columns: ${JSON.stringify(line)}`,
      );
      if (columns >= 10) assert.match(line, /^123\/4567 /, "done/total is always first");
    }
  }
});

Deno.test("a narrow progress line keeps counts, elapsed time and ETA before dropping the counts", () => {
  const compact = "123/4567  ✓100 ~12 ✗8 !3  1m05s  ETA 60m00s"; // 43 columns
  assert.equal(formatProgressLine(SNAPSHOT, { columns: 44, color: false }), compact);
  const at43 = formatProgressLine(SNAPSHOT, { columns: 43, color: false });
  assert.equal(at43, "123/4567  1m05s  ETA 60m00s");
  // Colour codes take no columns: the coloured line picks the same layout.
  const coloured = formatProgressLine(SNAPSHOT, { columns: 44, color: true });
  assert.ok(coloured.includes("\x1b[32m✓100\x1b[0m"));
  // deno-lint-ignore no-control-regex
  assert.equal(coloured.replace(/\x1b\[[0-9;]*m/g, ""), compact);
});

Deno.test("an interrupted run's progress line says it is stopping instead of an ETA", () => {
  const line = formatProgressLine({ ...SNAPSHOT, stopping: true }, { columns: 120, color: false });
  assert.match(line, /1m05s {2}stopping$/);
  assert.doesNotMatch(line, /ETA/);
});

Deno.test("displayWidth() counts wide characters and emoji as two columns and escape codes as none", () => {
  const cases: [string, number][] = [
    ["abc", 3],
    ["日本語", 6],
    ["ｆｕｌｌ", 8], // fullwidth Latin
    ["한국", 4],
    ["👍", 2],
    ["👍🏽", 2], // with a skin-tone modifier: one cluster
    ["👨‍👩‍👧", 2], // a ZWJ family: one cluster
    ["🇫🇷", 2], // a flag: two regional indicators
    ["✔️", 2], // text symbol with emoji presentation selector
    ["✓", 1],
    ["e\u0301", 1], // e + combining acute accent
    ["a\u200bb", 2], // zero-width space
    ["\x1b[31mred\x1b[0m", 3],
    ["\x1b]8;;https://x\x07link\x1b]8;;\x07", 4], // OSC 8 hyperlink
  ];
  for (const [text, width] of cases) assert.equal(displayWidth(text), width, JSON.stringify(text));
});

Deno.test("clipToWidth() never splits a wide character, an emoji or an escape sequence", () => {
  const none = { ellipsis: "" };
  assert.equal(clipToWidth("日本語", 6, none), "日本語");
  assert.equal(clipToWidth("日本語", 5, none), "日本");
  assert.equal(clipToWidth("日本語", 4, none), "日本");
  assert.equal(clipToWidth("日本語", 3, none), "日");
  assert.equal(clipToWidth("日本語", 1, none), "");
  assert.equal(clipToWidth("日本語", 5), "日本…");
  assert.equal(clipToWidth("ab👨‍👩‍👧cd", 3, none), "ab");
  assert.equal(clipToWidth("ab👨‍👩‍👧cd", 4, none), "ab👨‍👩‍👧");
  // A cut inside a colour ends with a reset so the colour does not leak.
  assert.equal(clipToWidth("\x1b[31mabcdef\x1b[0m", 4), "\x1b[31mabc…\x1b[0m");
  for (let columns = 0; columns <= 12; columns++) {
    const clipped = clipToWidth("x日y👍🏽z\x1b[1mé\u0301\x1b[0m한", columns);
    assert.ok(displayWidth(clipped) <= columns, `${columns}: ${JSON.stringify(clipped)}`);
  }
});

Deno.test("the ETA shares the remaining work of the cases in flight across the workers", () => {
  // Mean 10 s, 4 workers, three running for 3 s, 9 s and 15 s, five waiting:
  // remaining work = (10-3) + (10-9) + 0 + (idle worker) 0 + 5 × 10 = 58 s; / 4 workers = 14.5 s.
  assert.equal(
    estimateRemainingMs({
      meanMs: 10_000,
      notStarted: 5,
      inFlightElapsedMs: [3_000, 9_000, 15_000],
      workers: 4,
    }),
    14_500,
  );
  // Nothing waiting: the run ends with its longest running case (7 s), not 7 s / 4 workers.
  assert.equal(
    estimateRemainingMs({ meanMs: 10_000, notStarted: 0, inFlightElapsedMs: [3_000], workers: 4 }),
    7_000,
  );
  // One waiting case, both workers busy for 1 s more: it starts in 1 s and takes 10 s.
  assert.equal(
    estimateRemainingMs({
      meanMs: 10_000,
      notStarted: 1,
      inFlightElapsedMs: [9_000, 9_000],
      workers: 2,
    }),
    11_000,
  );
});

Deno.test("the live line's ETA counts the cases in flight, not finished cases over elapsed time", () => {
  const tty = ttyReporter();
  tty.reporter.onEvent(started(4, 2));
  tty.reporter.onEvent(caseStarted("a", 0, 4));
  tty.reporter.onEvent(caseStarted("b", 1, 4));
  tty.at(10_000);
  tty.reporter.onEvent(caseFinished("a", 1, 1, 4)); // took 10 s
  tty.reporter.onEvent(caseStarted("c", 2, 4));
  tty.at(12_000);
  tty.timer.tick();
  // b has run 12 s (0 s left), c 2 s (8 s left), d waits: (0 + 8 + 10) / 2 = 9 s, but d cannot
  // end before the first worker frees up (now) plus 10 s → 10 s. (1 done in 12 s would say 36 s.)
  assert.equal(
    frames(tty.output()).at(-1),
    "1/4  pass 1  borderline 0  fail 0  error 0  12.0s  ETA 10.0s",
  );
  tty.reporter.finish();
});

Deno.test("the live line redraws on every timer tick, so elapsed time advances during a slow call", () => {
  const tty = ttyReporter();
  tty.reporter.onEvent(started(2, 1));
  assert.equal(tty.timer.running, 1);
  tty.reporter.onEvent(caseStarted("slow", 0, 2));
  const before = frames(tty.output()).length;
  for (const t of [1_000, 2_000, 3_000]) {
    tty.at(t);
    tty.timer.tick();
  }
  const drawn = frames(tty.output()).slice(before);
  assert.deepEqual(drawn.map((f) => f.match(/(\S+)$/)?.[1]), ["1.0s", "2.0s", "3.0s"]);
  assert.ok(drawn.every((f) => f.startsWith("0/2  ")));
  tty.reporter.onEvent(caseFinished("slow", 1, 1, 2));
  tty.reporter.onEvent(caseStarted("next", 1, 2));
  tty.reporter.onEvent(caseFinished("next", 1, 2, 2));
  tty.reporter.onEvent({
    type: "run_finished",
    summary: {} as Extract<RunEvent, { type: "run_finished" }>["summary"],
  });
  assert.equal(tty.timer.running, 0, "the timer stops when the run ends");
  assert.equal(tty.timer.started, 1);
  assert.ok(tty.output().endsWith("\r\x1b[K"), "the live line is cleared");
});

Deno.test("the live line's timer stops on interruption and when finish() is called after a throw", () => {
  const interrupted = ttyReporter();
  interrupted.reporter.onEvent(started(3, 1));
  interrupted.reporter.onEvent({ type: "interrupted", in_flight: 1, not_started: 2 });
  assert.equal(interrupted.timer.running, 0);
  assert.match(frames(interrupted.output()).at(-1)!, /stopping$/);
  interrupted.reporter.finish();

  // A run that throws never sends run_finished: finish() (or `using`) stops the timer.
  const thrown = ttyReporter();
  {
    using reporter = thrown.reporter;
    reporter.onEvent(started(3, 1));
    assert.equal(thrown.timer.running, 1);
  }
  assert.equal(thrown.timer.running, 0);
});

Deno.test("the live line counts finished cases from the rows it was shown", () => {
  const tty = ttyReporter();
  tty.reporter.onEvent(started(5, 2));
  const scores = [1, 0.7, 0.2, 0.9];
  scores.forEach((score, i) => {
    tty.reporter.onEvent(caseStarted(`c${i}`, i, 5));
    tty.at(1000 * (i + 1));
    // `done` in the event is deliberately wrong: the line counts the rows it received.
    tty.reporter.onEvent(caseFinished(`c${i}`, score, 0, 5));
  });
  tty.timer.tick();
  const last = frames(tty.output()).at(-1)!;
  const expected = {
    pass: scores.filter((s) => s >= 0.8).length,
    borderline: scores.filter((s) => s >= 0.6 && s < 0.8).length,
    fail: scores.filter((s) => s < 0.6).length,
  };
  assert.match(
    last,
    new RegExp(
      `^${scores.length}/5  pass ${expected.pass}  borderline ${expected.borderline}  fail ${expected.fail}  error 0  `,
    ),
  );
  tty.reporter.finish();
});

Deno.test("the live line is clipped to a narrow terminal and leaves no wrapped lines", () => {
  const tty = ttyReporter({ columns: 24, color: true });
  tty.reporter.onEvent(started(1000, 8));
  for (let i = 0; i < 12; i++) {
    tty.reporter.onEvent(caseStarted(`case-${i}`, i, 1000));
    tty.at(700 * (i + 1));
    tty.reporter.onEvent(caseFinished(`case-${i}`, i % 3 === 0 ? 0.1 : 1, i + 1, 1000));
    tty.timer.tick();
  }
  const drawn = frames(tty.output());
  assert.ok(drawn.length >= 12);
  for (const frame of drawn) assert.ok(narrowColumns(frame) <= 23, JSON.stringify(frame));
  // Only the header line ends in a newline: the live line is redrawn in place.
  assert.equal(tty.output().split("\n").length, 2);
  tty.reporter.finish();
});

Deno.test("no timer runs and nothing is drawn in place when the output is not a terminal, or quiet", () => {
  for (const quiet of [false, true]) {
    const timer = manualTimer();
    let out = "";
    const reporter = createProgressReporter({
      write: (text) => out += text,
      isTTY: !quiet,
      quiet,
      color: false,
      startTimer: timer.start,
    });
    reporter.onEvent(started(1, 1));
    assert.equal(timer.started, quiet ? 0 : 1);
    reporter.finish();
    if (quiet) assert.equal(out, "");
  }
  const timer = manualTimer();
  let out = "";
  const plain = createProgressReporter({
    write: (text) => out += text,
    isTTY: false,
    color: false,
    startTimer: timer.start,
  });
  plain.onEvent(started(1, 1));
  plain.onEvent(caseFinished("a", 1, 1, 1));
  plain.finish();
  assert.equal(timer.started, 0);
  assert.ok(!out.includes("\r"));
});
