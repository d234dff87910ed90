/**
 * The tier guard (tests/project/test_tiers_test.ts) reads the slow tiers' paths and globs itself
 * and asks tests/_fast/lanes.ts for the fast tier's files; here Deno runs each tier's own
 * `deno test` arguments (the fast tier's with a copy of its lanes) over probe files named for
 * every tier, and each tier runs exactly the probes the guard says it takes.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { REPO_ROOT } from "../cli/_buffer_io.ts";
import { slowTiers, type TestCommand, testCommand, tiersOf } from "./_tiers.ts";

const PROBES = [
  "tests/a_test.ts",
  "tests/cli/b_test.ts",
  "tests/scoring/code_judge_subprocess_test.ts",
  "tests/cli/main_process_test.ts",
  "tests/process_test.ts",
  "tests/render/page_browser_test.ts",
  "tests/store/history_store_postgres_test.ts",
  "tests/store/postgres_test.ts",
  "tests/targets/deep/agent_e2e_test.ts",
  "tests/fuzz/loader_fuzz_test.ts",
  "tests/project/jsr_publish_test.ts",
];

/** The probes `command` runs in `dir`: each probe's one test is named by its file. */
async function ran(command: TestCommand, dir: string): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    // Without --parallel, which changes only the order and the report's form.
    args: ["test", "--no-check", ...command.args.filter((a) => a !== "--parallel")],
    cwd: dir,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, text + new TextDecoder().decode(output.stderr));
  return [...text.matchAll(/^(tests\/\S+_test\.ts) \.\.\. ok/gm)].map((m) => m[1]!).sort();
}

Deno.test("Deno runs in each tier exactly the probe files the tier guard says it takes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agentv-tiers-" });
  try {
    await Deno.writeTextFile(join(dir, "deno.json"), "{}\n");
    for (const file of PROBES) {
      await Deno.mkdir(join(dir, dirname(file)), { recursive: true });
      await Deno.writeTextFile(join(dir, file), `Deno.test(${JSON.stringify(file)}, () => {});\n`);
    }
    await Deno.mkdir(join(dir, "tests/_fast"));
    for (const entry of Deno.readDirSync(join(REPO_ROOT, "tests/_fast"))) {
      await Deno.copyFile(
        join(REPO_ROOT, "tests/_fast", entry.name),
        join(dir, "tests/_fast", entry.name),
      );
    }
    // The lanes lend sandbox workers: the one library module they import comes along.
    await Deno.mkdir(join(dir, "lib/dataset"), { recursive: true });
    await Deno.copyFile(
      join(REPO_ROOT, "lib/dataset/sandbox_worker.ts"),
      join(dir, "lib/dataset/sandbox_worker.ts"),
    );
    const expected = (task: string) =>
      PROBES.filter((f) => {
        const tiers = tiersOf(f, dir);
        return tiers.length === 1 && tiers[0] === task;
      }).sort();
    for (const command of [testCommand("test:fast")!, ...slowTiers()]) {
      const want = expected(command.task);
      assert.ok(want.length > 0, `${command.task} takes a probe`);
      assert.deepEqual(await ran(command, dir), want, command.task);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
