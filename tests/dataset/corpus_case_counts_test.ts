/** Loader: every corpus eval file loads with the case count its README states. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { validateEvalFile } from "../../mod.ts";
import { REPO_ROOT } from "../cli/_buffer_io.ts";
import { CORPUS } from "./_helpers.ts";

Deno.test("every corpus eval file loads with its README case count", async () => {
  const readme = await Deno.readTextFile(join(REPO_ROOT, "fixtures/corpus/README.md"));
  const rows = [...readme.matchAll(/^\| ([\w/.-]+\.(?:yaml|jsonl))[^|]*\| \w+ \| (\d+) \|$/gm)];
  assert.ok(rows.length >= 20);
  for (const [, rel, count] of rows) {
    const report = await validateEvalFile(join(CORPUS, rel));
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], rel);
    assert.equal(report.cases, Number(count), rel);
  }
});
