/**
 * `deno task test` is its tiers: static checks, then `test:fast` (in-process, what a developer
 * runs after each change) and the slow tiers, each a task CI runs in a job of its own. A test
 * file's tier is its name: `*_<tier>_test.ts` for a slow tier, plain `*_test.ts` for the fast
 * one. Every test file must run in exactly one tier, so a new file cannot fall out of all.
 */
import assert from "node:assert/strict";
import {
  globRegExp,
  takes,
  TASKS,
  type TestCommand,
  testCommand,
  testFiles,
  tiers,
} from "./_tiers.ts";

/** The slow tiers: each takes the files named `*_<tier>_test.ts`. */
const SLOW = ["process", "browser", "e2e", "fuzz", "publish"];

Deno.test("every test file runs in exactly one tier of deno task test", () => {
  const all = tiers();
  const problems = testFiles().flatMap((file) => {
    const taken = all.filter((tier) => takes(tier, file)).map((tier) => tier.task);
    return taken.length === 1 ? [] : [`${file}: ${taken.length === 0 ? "no tier" : taken}`];
  });
  assert.deepEqual(problems, []);
});

Deno.test("deno task test runs the static checks, the doc examples and every tier, in that order", () => {
  const steps = TASKS.test!.split("&&").map((s) => s.trim());
  const tierTasks = tiers().map((t) => t.task);
  assert.deepEqual(steps, [
    "deno task test:static",
    "deno task test:fast",
    "deno task test:doc",
    ...tierTasks.filter((t) => t !== "test:fast").map((t) => `deno task ${t}`),
  ]);
  assert.deepEqual(TASKS["test:static"]!.split("&&").map((s) => s.trim()), [
    "deno fmt --check",
    "deno lint",
    "deno check main.ts mod.ts",
  ]);
});

Deno.test("each slow tier takes its file suffix and test:fast ignores every one of them", () => {
  const fast = testCommand("test:fast")!;
  assert.deepEqual(fast.paths, ["tests/"]);
  for (const tier of SLOW) {
    const command = testCommand(`test:${tier}`);
    assert.ok(command, `a test:${tier} task`);
    assert.deepEqual(command.paths, [`tests/**/*_${tier}_test.ts`]);
    assert.ok(fast.ignore.includes(`tests/**/*_${tier}_test.ts`), `test:fast ignores ${tier}`);
  }
  assert.deepEqual(fast.ignore.length, SLOW.length);
  assert.deepEqual(
    tiers().map((t) => t.task).sort(),
    ["test:fast", ...SLOW.map((t) => `test:${t}`)].sort(),
  );
});

Deno.test("every tier grants the network on 127.0.0.1 only, and runs the tests in parallel where it can", () => {
  const commands: TestCommand[] = [...tiers(), testCommand("test:doc")!];
  for (const { task, args } of commands) {
    assert.ok(args.includes("--allow-net=127.0.0.1"), `${task}: --allow-net=127.0.0.1`);
    const wider = args.filter((a) => /^(-A|--allow-all|--allow-net(=.*)?)$/.test(a));
    assert.deepEqual(wider, ["--allow-net=127.0.0.1"], task);
  }
  for (const task of ["test:fast", "test:process", "test:doc"]) {
    assert.ok(testCommand(task)!.args.includes("--parallel"), `${task} runs in parallel`);
  }
});

Deno.test("tier globs are read the way Deno reads them", () => {
  const suffix = globRegExp("tests/**/*_process_test.ts");
  assert.ok(suffix.test("tests/cli/main_process_test.ts"));
  assert.ok(suffix.test("tests/a/b/c_process_test.ts"));
  assert.ok(suffix.test("tests/x_process_test.ts"), "** matches no folder too");
  assert.ok(!suffix.test("tests/scoring/code_judge_subprocess_test.ts"));
  assert.ok(!suffix.test("tests/cli/main_test.ts"));
  assert.ok(globRegExp("tests/").test("tests/cli/main_test.ts"));
  assert.ok(!globRegExp("tests/").test("testsuite/a_test.ts"));
});
