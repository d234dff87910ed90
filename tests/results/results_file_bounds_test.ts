/**
 * Results files are read through one bounded reader (`lib/results/results_file.ts`): `report`,
 * `compare`, `merge`, `--resume`, `--rerun-failed` and `--retry-errors` refuse a FIFO (which would
 * block them forever) and a link to `/dev/zero` (which would fill memory) before opening them, a
 * file over the size cap before reading it, and a line over the line cap as soon as it passes
 * the cap. The attacks that would hang or fill memory run in a subprocess with a time limit and a
 * data-memory cap, so a regression fails the test instead of hanging the suite or the machine:
 * they are tests/results/results_file_bounds_process_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readResults } from "../../lib/results/read_results.ts";
import {
  forEachResultsLine,
  RESULTS_LINE_MAX_BYTES,
  RESULTS_MAX_BYTES,
  ResultsFileError,
} from "../../lib/results/results_file.ts";
import { openResultsWriter } from "../../lib/results/results_writer.ts";
import { readResumeFile } from "../../lib/results/resume_file.ts";
import { cli, containsSuite, mockTargets, project } from "../_helpers/run_project.ts";
import { row } from "./_rows.ts";

/** A finished run of two cases (`o.jsonl` and its record), and a second results file. */
function finishedRun() {
  return project({
    ".agentv/targets.yaml": mockTargets("ok"),
    "evals/a.yaml": containsSuite("a", [["c1", "ok"], ["c2", "nope"]]),
  });
}

Deno.test("a results file over the size cap is refused before it is read, saying the cap", async () => {
  await using p = await finishedRun();
  // A sparse file: one byte over the cap, without the disk space.
  const big = join(p.dir, "big.jsonl");
  await Deno.writeTextFile(big, JSON.stringify(row("a", 1)) + "\n");
  await Deno.truncate(big, RESULTS_MAX_BYTES + 1);
  const report = await cli(["report", "big.jsonl"], p.dir);
  assert.equal(report.code, 2, report.err);
  assert.match(
    report.err,
    /Refused to read the results file 'big\.jsonl': it is 512 MiB; a results file may hold at most 512 MiB; split the run \(--shard i\/n/,
  );
  const compare = await cli(["compare", "big.jsonl", "big.jsonl"], p.dir);
  assert.equal(compare.code, 2);
  assert.match(compare.err, /may hold at most 512 MiB/);
  await assert.rejects(
    () => readResults(big),
    (e) => e instanceof ResultsFileError && e.reason === "too-large",
  );
  // A lower cap given to the library applies the same way.
  const small = join(p.dir, "small.jsonl");
  await Deno.writeTextFile(small, (JSON.stringify(row("a", 1)) + "\n").repeat(1));
  await assert.rejects(
    () => readResults(small, { maxBytes: 100 }),
    /may hold at most 100 bytes/,
  );
});

Deno.test("a line over the line cap is refused at its line number, without reading it whole", async () => {
  await using p = await finishedRun();
  const path = join(p.dir, "long.jsonl");
  // A good row, then 4 MiB without a newline, then more rows.
  const good = JSON.stringify(row("a", 1)) + "\n";
  await Deno.writeTextFile(
    path,
    good + '{"eval_id": "' + "x".repeat(4 * 1024 * 1024) + "\n" + good,
  );
  const limits = { maxLineBytes: 64 * 1024 };
  const error = await readResults(path, limits).catch((e) => e);
  assert.ok(error instanceof ResultsFileError, String(error));
  assert.equal(error.reason, "line-too-long");
  assert.equal(error.line, 2);
  assert.match(error.message, /:2: Refused to read the results file: line 2 is longer than 64 KiB/);
  // The reader stopped at the cap: it handed out line 1 and nothing of line 2.
  const seen: number[] = [];
  await assert.rejects(
    () => forEachResultsLine(path, (line) => seen.push(line.number), limits),
    ResultsFileError,
  );
  assert.deepEqual(seen, [1]);
  // --resume reads through the same reader.
  await assert.rejects(() => readResumeFile(path, limits), /line 2 is longer than 64 KiB/);
  // The default cap is far above any row agentv writes, and stated.
  assert.equal(RESULTS_LINE_MAX_BYTES, 128 * 1024 * 1024);
});

Deno.test("the results writer never writes a line the readers would refuse", async () => {
  await using p = await finishedRun();
  const path = join(p.dir, "w.jsonl");
  const writer = await openResultsWriter(path);
  try {
    writer.write(row("small", 1));
    const huge = row("huge", 1, { candidate_answer: "x".repeat(RESULTS_LINE_MAX_BYTES) });
    assert.throws(() => writer.write(huge), /a results line may hold/);
    writer.write(row("after", 1));
  } finally {
    writer.close();
  }
  const read = await readResults(path);
  assert.deepEqual(read.rows.map((r) => r.eval_id), ["small", "after"]);
  assert.deepEqual(read.problems, []);
});
