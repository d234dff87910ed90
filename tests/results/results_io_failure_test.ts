/**
 * A results file that cannot be written is a diagnostic and exit 1 or 2, never an internal error
 * (exit 70): failing to open it stops the run before anything runs (2); failing mid-run stops the
 * scheduling of cases and keeps every row already written, whole (1): devices and process limits are
 * tests/results/results_io_failure_process_test.ts.
 */
import assert from "node:assert/strict";
import { runCli } from "../../lib/cli/app.ts";
import { createBufferIO } from "../cli/_buffer_io.ts";
import { readOnlyFolder, readOnlyHow } from "../_helpers/read_only_folder.ts";
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

// The mechanism that makes a folder refuse this process's writes: permission bits, or for root
// (whom they do not stop) the immutable attribute. Without either, the test is ignored, saying
// so, rather than passing without a check.
const READ_ONLY = Deno.build.os === "windows" ? undefined : await readOnlyHow();
if (READ_ONLY === undefined && Deno.build.os !== "windows") {
  console.warn(
    "ignoring the read-only folder test: permission bits do not stop this user (root) and " +
      "chattr +i is unavailable (needs CAP_LINUX_IMMUTABLE)",
  );
}

Deno.test({
  name: `--out in a read-only folder stops the run before anything runs (${READ_ONLY})`,
  ignore: READ_ONLY === undefined,
  fn: async () => {
    await using p = await project();
    await using ro = await readOnlyFolder(p.path("ro"));
    assert.equal(ro?.how, READ_ONLY, "the folder refuses writes");
    const { code, err, out } = await run(p.root, ["--out", "ro/run.jsonl"]);
    assert.equal(code, 2, err);
    assert.match(
      err,
      /Cannot write the results file .*ro\/run\.jsonl: .*([Pp]ermission denied|[Oo]peration not permitted)/,
    );
    assert.doesNotMatch(out, /\[1\/2\]/, "a case ran");
    assert.deepEqual([...Deno.readDirSync(p.path("ro"))], [], "nothing was written");
  },
});
