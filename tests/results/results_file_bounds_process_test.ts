/**
 * A FIFO (which would block a reader forever) or a link to `/dev/zero` (which would fill memory)
 * given as a results file or run record is refused by every reader before it is opened. These
 * attacks run the real CLI in a subprocess with a time limit and a data-memory cap, so a regression
 * fails the test instead of hanging the suite or the machine. The in-process bounds are
 * tests/results/results_file_bounds_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMainCapped } from "../_helpers/bounded_process.ts";
import { cli, containsSuite, mockTargets, project } from "../_helpers/run_project.ts";

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
