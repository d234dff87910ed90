/**
 * `agentv run` as a real process: SIGINT aborts the calls in flight and records them, after
 * SIGKILL every row written is whole, and the demo runs as `deno task demo` runs it (its agents
 * and judges are Deno processes).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseResults, readResults } from "../../lib/results/read_results.ts";
import denoJson from "../../deno.json" with { type: "json" };
import { REPO_ROOT } from "./_buffer_io.ts";
import { runUntilKilled, runUntilSignalled } from "../_helpers/run_project.ts";
import { tempTree, type Tree } from "../_helpers/temp_tree.ts";

/** A temp repo: `.agentv/targets.yaml` plus the given files. */
function repo(files: Record<string, string>): Promise<Tree> {
  return tempTree(files, { prefix: "agentv-run-" });
}

const PERMS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-net",
  "--allow-run",
  "--unstable-worker-options",
];

const manyCases = (n: number) =>
  `dataset: slow\nevalcases:\n${
    Array.from({ length: n }, (_, i) =>
      `  - id: c${i}\n    expected_outcome: ok\n    input: q${i}\n    evaluators:\n      - type: contains\n        value: ok\n`)
      .join("")
  }`;

Deno.test("agentv run: Ctrl-C aborts in-flight cases, records them interrupted, prints a summary, exits 130", async () => {
  await using r = await repo({
    ".agentv/targets.yaml":
      "targets:\n  - name: default\n    provider: mock\n    response: ok\n    delay_ms: 30000\n",
    "evals/slow.yaml": manyCases(6),
  });
  const out = join(r.dir, "r.jsonl");
  // Interrupt once both workers' cases are in flight: `--verbose` prints `start <id>` on the
  // `case_started` event. A 30 s delay: the run ending at all shows the calls were aborted.
  const { signalled, stdout, stderr, status } = await runUntilSignalled(
    ["run", "evals", "--workers", "2", "--verbose", "--out", out],
    r.dir,
    {
      when: (text) => (text.match(/^start c\d/gm) ?? []).length >= 2,
      signal: "SIGINT",
      flags: PERMS,
    },
  );
  assert.ok(signalled, stdout + stderr);
  assert.equal(status.code, 130, stderr);
  const { rows, partial_line } = await readResults(out);
  assert.equal(partial_line, undefined);
  assert.equal(rows.length, 2);
  assert.ok(rows.every((x) => x.status === "error" && x.error === "interrupted"));
  assert.match(stdout, /Interrupted/);
  assert.match(stdout, /4 not started/);
  assert.match(stdout, /Summary/);
});

Deno.test("agentv run: after kill -9 every written row is intact", async () => {
  await using r = await repo({
    ".agentv/targets.yaml":
      "targets:\n  - name: default\n    provider: mock\n    response: ok\n    delay_ms: 40\n",
    "evals/slow.yaml": manyCases(400),
  });
  const out = join(r.dir, "r.jsonl");
  // A `[n/400]` progress line is printed after its row is written: kill after eight.
  const { killed, progress } = await runUntilKilled(
    ["run", "evals", "--workers", "4", "--out", out],
    r.dir,
    { rows: 8, flags: PERMS },
  );
  assert.ok(killed, progress);
  const text = await Deno.readTextFile(out);
  const { rows, bad_lines } = parseResults(text);
  assert.ok(rows.length >= 8 && rows.length < 400);
  assert.deepEqual(bad_lines, []);
  for (const row of rows) assert.equal(row.status, "ok");
  // A torn last line (if the kill hit mid-write) is skipped, never an error.
  const torn = parseResults(text + '{"eval_id": "c9');
  assert.equal(torn.rows.length, rows.length);
  assert.equal(torn.partial_line, '{"eval_id": "c9');
});

Deno.test("the demo (deno task demo) runs end to end with no API key and exits 0", async () => {
  const out = join(await Deno.makeTempDir(), "demo.jsonl");
  try {
    // `deno task demo`'s own command line, with --out; its agents and judges are Deno scripts
    // its commands start.
    const [, , ...demo] = denoJson.tasks.demo.split(/\s+/);
    assert.deepEqual(demo.slice(-4), ["main.ts", "run", "fixtures/demo/evals", "--allow-run"]);
    const result = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...demo, "--out", out],
      cwd: REPO_ROOT,
      env: { NO_COLOR: "1", OPENAI_API_KEY: "" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(result.stdout);
    assert.equal(result.code, 0, stdout + new TextDecoder().decode(result.stderr));
    assert.match(stdout, /Verdicts: +pass 7 +borderline 1 +fail 0/);
    const { rows } = await readResults(out);
    assert.equal(rows.length, 8);
    const types = new Set(rows.flatMap((r) => r.evaluator_results.map((e) => e.type)));
    assert.deepEqual([...types].sort(), [
      "code_judge",
      "contains",
      "file_changes",
      "is_json",
      "regex",
      "tool_trajectory",
    ]);
    assert.ok(rows.every((r) => r.status === "ok" && r.output_messages.length > 0));
    // The coding agent's case ran in its own copy of the template; the row holds the changes.
    const coding = rows.find((r) => r.eval_id === "fix-add")!;
    assert.deepEqual(coding.workspace, {
      ...(coding.workspace as object),
      added: ["NOTES.md"],
      modified: ["src/calc.ts"],
      deleted: [],
      path: null,
    });
    assert.equal(coding.score, 1);
    assert.equal(
      await Deno.readTextFile(join(REPO_ROOT, "fixtures/demo/workspaces/calc/src/calc.ts"))
        .then((t) => t.includes("return a - b;")),
      true,
    );
  } finally {
    await Deno.remove(join(out, ".."), { recursive: true });
  }
});
