/**
 * `deno task test` is its tiers: static checks, then `test:fast` (in-process, what a developer
 * runs after each change, in lanes: tests/_fast/lanes.ts) and the slow tiers, each a task CI runs
 * in a job of its own. A test file's tier is its name: `*_<tier>_test.ts` for a slow tier, plain
 * `*_test.ts` for the fast one. Every test file must run in exactly one tier, so a new file
 * cannot fall out of all.
 */
import assert from "node:assert/strict";
import { fastTestFiles, laneFiles, LANES, SLOW_TIERS } from "../_fast/lanes.ts";
import { REPO_ROOT } from "../cli/_buffer_io.ts";
import {
  globRegExp,
  slowTiers,
  TASKS,
  taskSteps,
  type TestCommand,
  testCommand,
  testFiles,
  tiersOf,
} from "./_tiers.ts";

Deno.test("every test file runs in exactly one tier of deno task test", () => {
  const problems = testFiles().flatMap((file) => {
    const tiers = tiersOf(file);
    return tiers.length === 1 ? [] : [`${file}: ${tiers.length === 0 ? "no tier" : tiers}`];
  });
  assert.deepEqual(problems, []);
  assert.ok(fastTestFiles().length > 100, "the fast tier holds most files");
});

Deno.test("deno task test runs the static checks, the fast tier, the doc examples and every slow tier", () => {
  assert.deepEqual(taskSteps("test"), [
    "deno task test:static",
    "deno task test:fast",
    "deno task test:doc",
    ...SLOW_TIERS.map((tier) => `deno task test:${tier}`),
  ]);
  assert.deepEqual(taskSteps("test:static"), [
    "deno fmt --check",
    "deno lint",
    "deno check main.ts mod.ts",
  ]);
  const tiers = Object.keys(TASKS).filter((t) => /^test:/.test(t)).sort();
  assert.deepEqual(
    tiers,
    [
      "test:doc",
      "test:fast",
      "test:static",
      ...SLOW_TIERS.map((tier) => `test:${tier}`),
    ].sort(),
  );
});

Deno.test("each slow tier takes the files named for it", () => {
  for (const tier of SLOW_TIERS) {
    const command = testCommand(`test:${tier}`);
    assert.ok(command, `a test:${tier} task`);
    assert.deepEqual(command.paths, [`tests/**/*_${tier}_test.ts`]);
    assert.deepEqual(command.ignore, []);
  }
});

Deno.test("test:fast type-checks every test file, then runs the lanes, which share the fast files out", async () => {
  const [check, run] = taskSteps("test:fast");
  assert.equal(check, "deno check tests/", "dynamically imported files are type-checked first");
  assert.match(run!, /^DENO_JOBS=\d+ deno test /);
  assert.deepEqual(testCommand("test:fast")!.paths, ["tests/_fast/lane_*.ts"]);
  const lanes = [...Deno.readDirSync(`${REPO_ROOT}/tests/_fast`)]
    .map((e) => e.name).filter((n) => /^lane_\d+\.ts$/.test(n)).sort();
  assert.deepEqual(lanes, [...Array(LANES).keys()].map((i) => `lane_${i}.ts`));
  for (const [i, lane] of lanes.entries()) {
    const text = await Deno.readTextFile(`${REPO_ROOT}/tests/_fast/${lane}`);
    assert.match(text, new RegExp(`^await runLane\\(${i}\\);$`, "m"), lane);
  }
  const shared = [...Array(LANES).keys()].flatMap((i) => laneFiles(i));
  assert.deepEqual(shared.sort(), fastTestFiles(), "each fast file in one lane");
});

Deno.test("every tier grants the network on 127.0.0.1 only, and the big ones run in parallel", () => {
  const commands: TestCommand[] = [
    ...slowTiers(),
    testCommand("test:fast")!,
    testCommand("test:doc")!,
  ];
  for (const { task, args } of commands) {
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
