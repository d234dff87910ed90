/**
 * The files generated from the run options (`lib/schema/run_spec.ts`) by `tools/generate.ts` are
 * current: the types of `lib/schema/run_spec_types.ts` and the options table of the README (the
 * run record's JSON Schema is checked by `tests/schema/run_record_schema_test.ts`).
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  OPTIONS_TABLE_MARKERS,
  runOptionsTable,
  runSpecTypesSource,
} from "../../lib/schema/run_spec_docs.ts";
import { RUN_OPTION_ENTRIES } from "../../lib/schema/run_spec.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const REGENERATE = "run: deno run --allow-read --allow-write --allow-run tools/generate.ts";

/** `text` laid out by `deno fmt`, as the generator writes it. */
async function formatted(text: string, ext: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", `--ext=${ext}`, "-"],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return new TextDecoder().decode(stdout);
}

/** The cells of a Markdown table, trimmed (`deno fmt` pads them to align the columns). */
function cells(table: string): string[][] {
  return table.trim().split("\n").filter((line) => !/^\|[\s|:-]+\|$/.test(line)).map((line) =>
    line.replace(/^\||\|$/g, "").split(/(?<!\\)\|/).map((cell) => cell.trim())
  );
}

Deno.test("lib/schema/run_spec_types.ts is the generated one", async () => {
  const committed = await Deno.readTextFile(`${ROOT}lib/schema/run_spec_types.ts`);
  assert.equal(committed, await formatted(runSpecTypesSource(), "ts"), REGENERATE);
});

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
