/**
 * A results file that cannot be written, in a real process: `--out /dev/full` (a device Deno
 * opens only with -A) and a file-size limit (`ulimit -f`, a process's own) fail writes. Each is a
 * diagnostic and exit 1, never an internal error; failing mid-run stops the scheduling of cases
 * and keeps every row already written, whole.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseResults } from "../../lib/results/read_results.ts";
import { readRunRecord, runRecordPath } from "../../lib/results/run_record.ts";
import { REPO_ROOT } from "../cli/_buffer_io.ts";
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
