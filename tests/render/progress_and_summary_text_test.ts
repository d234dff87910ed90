/** Report: the live progress line and the summary text. */
import assert from "node:assert/strict";
import { runCli } from "../../lib/cli/app.ts";
import { createBufferIO, steppingClock } from "../cli/_buffer_io.ts";
import { cli, containsSuite, mockTargets, project } from "../_helpers/run_project.ts";

Deno.test("progress: a TTY gets one live line with done/total, counts, elapsed and ETA", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": containsSuite("a", [["c1", "Paris"], ["c2", "Rome"], ["c3", "Paris"]]),
  });
  // Every reading of the clock advances it 100 ms: the output is the same on any machine.
  const io = createBufferIO({ cwd: p.dir, isTTY: true, now: steppingClock(0, 100) });
  io.startTimer = () => () => {}; // no timed redraws: only the events draw the line
  io.columns = () => 100; // not the width of the terminal running the tests
  const code = await runCli(["run", "evals", "--workers", "1", "--out", "o.jsonl"], io);
  assert.equal(code, 1);
  const out = io.out();
  assert.match(out, /\r/);
  assert.match(out, /[012]\/3 {2}pass/);
  assert.match(out, /3\/3/);
  assert.match(out, /ETA/);
  assert.doesNotMatch(out, /\n\[1\/3\]/);
  const live = (text: string) => `\r${text}\x1b[K`;
  assert.equal(
    out,
    "Running 3 cases from 1 file with 1 worker → o.jsonl\n" +
      live("0/3  pass 0  borderline 0  fail 0  error 0  100ms") +
      live("1/3  pass 1  borderline 0  fail 0  error 0  700ms  ETA 800ms") +
      live("2/3  pass 1  borderline 0  fail 1  error 0  1.3s  ETA 400ms") +
      live("3/3  pass 2  borderline 0  fail 1  error 0  1.9s") +
      "\r\x1b[K\n" +
      `Failed (1)
  ✗ c2 [default]  0.000  Does not contain "Rome"

Summary
  Cases:     3 run, 3 scored
  Verdicts:  pass 2  borderline 0  fail 1
  Score:     mean 0.667  median 1.000  min 0.000  max 1.000  stdev 0.577
  Histogram:
    0.0-0.2      1  ██████████
    0.2-0.4      0
    0.4-0.6      0
    0.6-0.8      0
    0.8-1.0      2  ████████████████████
  Slowest:
      100ms  c1
      100ms  c2
      100ms  c3
  Evaluators:
    contains                     mean 0.667  n=3
  Time:      2.1s
  Results:   o.jsonl
`,
  );
});

Deno.test("summary text lists errors with reasons and skipped invalid cases", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": `evalcases:
  - id: judge-crash
    expected_outcome: x
    input: x
    evaluators:
      - type: code_judge
        script: "echo distinctive-crash-reason >&2; exit 9"
  - id: bad-one
    expected_outcome: x
    input: x
    evaluators:
      - type: regex
        pattern: "("
`,
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl", "--allow-run"], p.dir);
  assert.equal(r.code, 1);
  const text = r.out + r.err;
  assert.match(text, /judge-crash/);
  assert.match(text, /distinctive-crash-reason/);
  assert.match(text, /bad-one/);
});

Deno.test("progress: when stdout is not a terminal and stderr is, the live line goes to stderr and stdout gets the summary only", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": containsSuite("a", [["c1", "Paris"], ["c2", "Paris"]]),
  });
  const io = createBufferIO({ cwd: p.dir, stderrIsTTY: true, now: steppingClock(0, 100) });
  io.startTimer = () => () => {};
  io.columns = () => 100;
  assert.equal(await runCli(["run", "evals", "--out", "o.jsonl"], io), 0, io.err());
  assert.match(io.err(), /^Running 2 cases from 1 file/);
  assert.ok(io.err().includes("\r2/2  pass 2 "), io.err());
  assert.ok(io.err().includes("\x1b[K"), "the live line is redrawn in place");
  assert.ok(!/\r|\[1\/2\]/.test(io.out()) && !io.out().includes("\x1b"), io.out());
  assert.match(io.out(), /^Summary\n {2}Cases: {5}2 run, 2 scored$/m);
  // Neither a terminal: one plain line per case on stdout, as before.
  const plain = createBufferIO({ cwd: p.dir });
  assert.equal(await runCli(["run", "evals", "--out", "o2.jsonl"], plain), 0);
  assert.match(plain.out(), /^\[2\/2\] pass/m);
  assert.equal(plain.err(), "");
});
