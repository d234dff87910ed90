/**
 * A results file that cannot be written is a diagnostic and exit 1 or 2, never an internal error
 * (exit 70): failing to open it stops the run before anything runs (2); failing mid-run stops the
 * scheduling of cases and keeps every row already written, whole (1).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../../lib/cli/app.ts";
import { parseResults } from "../../lib/results/read_results.ts";
import { readRunRecord, runRecordPath } from "../../lib/results/run_record.ts";
import { createBufferIO, REPO_ROOT } from "../cli/_buffer_io.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

const TARGETS = "targets:\n  - name: default\n    provider: mock\n    response: ok\n";

function suite(cases: number): string {
  const lines = ["dataset: io", "execution:", "  evaluators:", "    - {type: contains, value: ok}"];
  lines.push("evalcases:");
  for (let i = 1; i <= cases; i++) {
    lines.push(`  - id: case-${i}`, "    expected_outcome: Says ok", "    input: Say ok");
  }
  return lines.join("\n") + "\n";
}

function project(cases = 2): Promise<Tree> {
  return tempTree({ ".agentv/targets.yaml": TARGETS, "evals/suite.yaml": suite(cases) }, {
    git: true,
    prefix: "agentv-io-",
  });
}

async function run(cwd: string, args: string[]) {
  const io = createBufferIO({ cwd });
  const code = await runCli(["run", "evals/suite.yaml", ...args], io);
  return { code, out: io.out(), err: io.err() };
}

/** Runs the real CLI in a subprocess (`-A`: `/dev` paths need it), under `sh -c "<prefix> exec …"`. */
async function runProcess(cwd: string, args: string[], shellPrefix = "") {
  const script = `${shellPrefix} exec "$0" run --quiet --unstable-worker-options -A ${
    join(REPO_ROOT, "main.ts")
  } run evals/suite.yaml ${args.join(" ")}`;
  const child = await new Deno.Command("sh", {
    args: ["-c", script, Deno.execPath()],
    cwd,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: child.code, err: new TextDecoder().decode(child.stderr) };
}

Deno.test({
  name: "--out /dev/full is a diagnostic and exit 1, not an internal error",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await using p = await project();
    const { code, err } = await runProcess(p.root, ["--out", "/dev/full"]);
    assert.equal(code, 1, err);
    assert.match(err, /error: Could not write to the results file \/dev\/full: .*No space left/);
    assert.match(err, /0 rows were written and kept; no case was started after the failure/);
    assert.doesNotMatch(err, /\n\s+at /, "a stack trace was printed");
    // A device gets rows but no run record beside it.
    assert.equal(await Deno.stat("/dev/full.run.json").then(() => true, () => false), false);
  },
});

Deno.test("--out below a file (a folder that is a file) stops the run before anything runs", async () => {
  await using p = await project();
  const { code, err, out } = await run(p.root, ["--out", "evals/suite.yaml/run.jsonl"]);
  assert.equal(code, 2, err);
  assert.match(err, /Cannot write the results file .*run\.jsonl: a folder on its path is a file/);
  assert.doesNotMatch(out, /\[1\/2\]/, "a case ran");
});

Deno.test("--out naming a folder stops the run before anything runs", async () => {
  await using p = await project();
  await Deno.mkdir(p.path("out"));
  const { code, err } = await run(p.root, ["--out", "out"]);
  assert.equal(code, 2, err);
  assert.match(err, /Cannot write the results file .*out: it is a folder/);
});

Deno.test({
  name: "--out in a read-only folder stops the run before anything runs",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using p = await project();
    await Deno.mkdir(p.path("ro"));
    await Deno.chmod(p.path("ro"), 0o555);
    try {
      // root writes through folder permissions: nothing to check then
      const writable = await Deno.writeTextFile(p.path("ro/probe"), "").then(
        () => true,
        () => false,
      );
      if (writable) return;
      const { code, err } = await run(p.root, ["--out", "ro/run.jsonl"]);
      assert.equal(code, 2, err);
      assert.match(err, /Cannot write the results file .*ro\/run\.jsonl: .*[Pp]ermission denied/);
    } finally {
      await Deno.chmod(p.path("ro"), 0o755);
    }
  },
});

Deno.test({
  name:
    "a write failure mid-run stops scheduling, says so, exits 1, keeps whole rows and records failed",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await using p = await project(40);
    const out = p.path("results.jsonl");
    // The file-size limit (8 blocks: 4 KiB) makes writes past it fail (EFBIG) after a few rows;
    // the run record (smaller) is still written.
    const { code, err } = await runProcess(
      p.root,
      ["--workers", "1", "--out", out],
      "ulimit -f 8; trap '' XFSZ;",
    );
    assert.equal(code, 1, err);
    const said = err.match(/(\d+) rows? (?:was|were) written and kept; no case was started/);
    assert.ok(said, `no diagnostic about the failure:\n${err}`);
    assert.match(err, /Could not write to the results file .*results\.jsonl: /);
    assert.match(err, /\(\d+ not started\)/);
    const text = await Deno.readTextFile(out);
    const { rows, bad_lines, partial_line } = parseResults(text);
    assert.equal(partial_line, undefined, "a torn row was left in the file");
    assert.deepEqual(bad_lines, []);
    assert.ok(rows.length >= 1 && rows.length < 40, `${rows.length} rows`);
    assert.equal(rows.length, Number(said[1]));
    // The run record says the run failed, why, and summarises every case that ran.
    const record = await readRunRecord(runRecordPath(out));
    assert.equal(record.status, "failed");
    assert.match(record.error ?? "", /Could not write to the results file .*results\.jsonl: /);
    assert.notEqual(record.ended_at, null);
    assert.ok(record.summary !== null && record.summary.total >= rows.length);
  },
});
