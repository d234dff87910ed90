/**
 * Doc examples are either run and assert something, or are type-checked only: `deno task
 * test:doc` type-checks every example of `mod.ts` and `lib/` (`deno check --doc`) and runs those
 * of the files not in deno.json's `test.exclude` (`deno test --doc`). Every example of a run file
 * must assert (call `assert`, `assert.*`, an `assertX` helper, or throw), so no run is paid for
 * and proves nothing; a file whose examples all assert must be run.
 */
import assert from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };
import { asserts, docExamples, sourceFiles, taskSteps } from "./_tiers.ts";

/** The files whose examples are type-checked only. */
const CHECKED_ONLY: string[] = denoJson.test.exclude;

Deno.test("every example of a file deno test --doc runs asserts something", () => {
  const silent = sourceFiles().filter((file) => !CHECKED_ONLY.includes(file))
    .flatMap((file) => docExamples(file))
    .filter((example) => !asserts(example.code))
    .map((example) => `${example.file}:${example.line}`);
  assert.deepEqual(
    silent,
    [],
    "these examples assert nothing: assert what they show, or add the file to test.exclude " +
      "in deno.json (type-checked only)",
  );
});

Deno.test("a file whose examples are type-checked only is a source file with an example that does not assert", () => {
  const sources = sourceFiles();
  for (const file of CHECKED_ONLY) {
    assert.ok(sources.includes(file), `test.exclude names ${file}, not a file of mod.ts or lib/`);
    assert.ok(
      docExamples(file).some((example) => !asserts(example.code)),
      `every example of ${file} asserts: remove it from test.exclude so that they run`,
    );
  }
});

Deno.test("test:doc type-checks every example of mod.ts and lib/ and runs the rest", () => {
  const steps = taskSteps("test:doc");
  assert.equal(steps[0], "deno check --doc mod.ts lib/");
  const run = steps[1]!.split(/\s+/);
  assert.deepEqual(run.slice(0, 3), ["deno", "test", "--doc"]);
  assert.deepEqual(run.filter((a) => !a.startsWith("-")).slice(2), ["mod.ts", "lib/"]);
});

Deno.test("an example asserts when it calls assert or throws, not when it shows a value", () => {
  assert.ok(asserts('assert.equal(f("x"), "y");'));
  assert.ok(asserts("assertEquals(x, 1);"));
  assert.ok(asserts("assert(ok);"));
  assert.ok(asserts('if (summary.errors.length > 0) throw new Error("evals failed");'));
  assert.ok(!asserts('f("x"); // "y"'));
  assert.ok(!asserts("console.log(cases.length); // 1"));
  assert.ok(!asserts("const asserted = reassert(x);"));
});
