/**
 * The files generated from the run options (`lib/schema/run_spec.ts`) by `tools/generate.ts` are
 * current: here the options table of the README; the types of `lib/schema/run_spec_types.ts`
 * (laid out by `deno fmt`) in generated_files_process_test.ts, and the run record's JSON Schema in
 * `tests/schema/run_record_schema_test.ts`.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { OPTIONS_TABLE_MARKERS, runOptionsTable } from "../../lib/schema/run_spec_docs.ts";
import { RUN_OPTION_ENTRIES } from "../../lib/schema/run_spec.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const REGENERATE = "run: deno run --allow-read --allow-write --allow-run tools/generate.ts";

/** The cells of a Markdown table, trimmed (`deno fmt` pads them to align the columns). */
function cells(table: string): string[][] {
  return table.trim().split("\n").filter((line) => !/^\|[\s|:-]+\|$/.test(line)).map((line) =>
    line.replace(/^\||\|$/g, "").split(/(?<!\\)\|/).map((cell) => cell.trim())
  );
}

Deno.test("the README's table of agentv run options is the generated one, one row per option", async () => {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const start = readme.indexOf(OPTIONS_TABLE_MARKERS.start);
  const end = readme.indexOf(OPTIONS_TABLE_MARKERS.end);
  assert.ok(start !== -1 && end > start, "the README marks the options table");
  const committed = cells(readme.slice(start + OPTIONS_TABLE_MARKERS.start.length, end));
  assert.deepEqual(committed, cells(runOptionsTable()), REGENERATE);
  assert.equal(committed.length, RUN_OPTION_ENTRIES.length + 1);
  for (const [, d] of RUN_OPTION_ENTRIES) {
    assert.ok(committed.some((row) => row[0].includes(`--${d.flag}`)), `--${d.flag} has a row`);
  }
});
