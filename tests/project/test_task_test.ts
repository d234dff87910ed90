/** The `test` task: every test file in parallel plus the doc examples of `mod.ts` and `lib/`. */
import assert from "node:assert/strict";
import denoJson from "../../deno.json" with { type: "json" };

Deno.test("deno task test runs the doc examples of mod.ts and lib/ and the tests in parallel", () => {
  const task = denoJson.tasks.test;
  const run = task.split("&&").map((part) => part.trim()).find((part) =>
    part.startsWith("deno test")
  );
  assert.ok(run, task);
  const args = run.split(/\s+/);
  for (const flag of ["--doc", "--parallel", "--allow-net=127.0.0.1"]) {
    assert.ok(args.includes(flag), `${flag} missing from: ${run}`);
  }
  for (const path of ["mod.ts", "lib/", "tests/"]) {
    assert.ok(args.includes(path), `${path} missing from: ${run}`);
  }
});
