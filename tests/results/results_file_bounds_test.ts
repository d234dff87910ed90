/**
 * Results files are read through one bounded reader (`lib/results/results_file.ts`): `report`,
 * `compare`, `merge`, `--resume`, `--rerun-failed` and `--retry-errors` refuse a FIFO (which would
 * block them forever) and a link to `/dev/zero` (which would fill memory) before opening them, a
 * file over the size cap before reading it, and a line over the line cap as soon as it passes
 * the cap. The attacks that would hang or fill memory run in a subprocess with a time limit and a
 * data-memory cap, so a regression fails the test instead of hanging the suite or the machine.
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
import { runMainCapped } from "../_helpers/bounded_process.ts";
import { cli, containsSuite, mockTargets, project } from "../_helpers/run_project.ts";
import { row } from "./_rows.ts";

/** A finished run of two cases (`o.jsonl` and its record), and a second results file. */
function finishedRun() {
  return project({
    ".agentv/targets.yaml": mockTargets("ok"),
    "evals/a.yaml": containsSuite("a", [["c1", "ok"], ["c2", "nope"]]),
  });
}

/** Every command that reads a results file, reading `name` (in the project folder). */
function readers(name: string): [string, string[]][] {
  return [
    ["report", ["report", name]],
    ["compare", ["compare", name, "other.jsonl"]],
    ["merge", ["merge", name, "-o", "merged.jsonl"]],
    ["--resume", ["run", "--resume", name]],
    ["--rerun-failed", ["run", "--rerun-failed", name, "--out", "rerun.jsonl"]],
    ["--retry-errors", ["run", "--retry-errors", name, "--out", "retry.jsonl"]],
  ];
}

/**
 * Runs every reader on `name` in capped subprocesses (at once: each is bounded on its own) and
 * checks each refused it with exit 2 and a message matching `why`.
 */
async function assertEveryReaderRefuses(dir: string, name: string, why: RegExp): Promise<void> {
  const runs = await Promise.all(
    readers(name).map(async ([label, args]) =>
      [label, await runMainCapped(args, dir, { limitMs: 60_000, memoryMb: 2048 })] as const
    ),
  );
  for (const [label, run] of runs) {
    assert.ok(!run.killed, `${label} was still waiting after 60 s:\n${run.err}`);
    assert.equal(run.code, 2, `${label}: ${run.err}`);
    assert.match(run.err, why, label);
  }
}

async function mkfifo(path: string): Promise<void> {
  const { code, stderr } = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
}

Deno.test("a FIFO given as the results file is refused by every reader at once, never waited on", async () => {
  await using p = await finishedRun();
  assert.equal((await cli(["run", "evals", "--out", "o.jsonl"], p.dir)).code, 1);
  await Deno.copyFile(join(p.dir, "o.jsonl"), join(p.dir, "other.jsonl"));
  // The run's results file becomes a pipe nobody writes to; its run record stays.
  await Deno.remove(join(p.dir, "o.jsonl"));
  await mkfifo(join(p.dir, "o.jsonl"));
  await assertEveryReaderRefuses(
    p.dir,
    "o.jsonl",
    /'o\.jsonl' as a results file: it is a named pipe \(FIFO\)/,
  );
});

Deno.test("a FIFO given as the run record beside a results file is refused, never waited on", async () => {
  await using p = await finishedRun();
  assert.equal((await cli(["run", "evals", "--out", "o.jsonl"], p.dir)).code, 1);
  await Deno.remove(join(p.dir, "o.jsonl.run.json"));
  await mkfifo(join(p.dir, "o.jsonl.run.json"));
  const [merge, resume, json] = await Promise.all([
    ["merge", "o.jsonl", "-o", "merged.jsonl"],
    ["run", "--resume", "o.jsonl"],
    ["report", "o.jsonl", "--format", "json"],
  ].map((args) => runMainCapped(args, p.dir, { limitMs: 60_000, memoryMb: 2048 })));
  for (const run of [merge, resume, json]) assert.ok(!run.killed, run.err);
  assert.equal(merge.code, 2, merge.err);
  assert.match(merge.err, /as a run record: it is a named pipe/);
  assert.equal(resume.code, 2, resume.err);
  assert.match(resume.err, /as a run record: it is a named pipe/);
  // The JSON report only takes the trials gate from the record: it is written without it.
  assert.equal(json.code, 0, json.err);
  assert.equal(JSON.parse(json.out).summary.total, 2);
});

Deno.test("a symlink to /dev/zero given as the results file is refused by every reader, reading nothing", async () => {
  await using p = await finishedRun();
  assert.equal((await cli(["run", "evals", "--out", "o.jsonl"], p.dir)).code, 1);
  await Deno.copyFile(join(p.dir, "o.jsonl"), join(p.dir, "other.jsonl"));
  await Deno.remove(join(p.dir, "o.jsonl"));
  await Deno.symlink("/dev/zero", join(p.dir, "o.jsonl"));
  // With 2 GiB of data memory, a reader that read the device would fail another way (or be
  // killed); only a refusal before reading exits 2 with this message.
  await assertEveryReaderRefuses(
    p.dir,
    "o.jsonl",
    /'o\.jsonl' as a results file: it is a character device/,
  );
});

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
