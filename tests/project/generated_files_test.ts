/**
 * The generated tables of the docs are current: each is what `tools/generate.ts` writes between its
 * markers (the options of `agentv run` from `lib/schema/run_spec.ts`, the exit codes from
 * `lib/errors/agentv_error.ts`, the commands from `lib/cli/commands.ts`). The types of
 * `lib/schema/run_spec_types.ts` (laid out by `deno fmt`) are checked in
 * generated_files_process_test.ts, and the run record's JSON Schema in
 * `tests/schema/run_record_schema_test.ts`.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { COMMANDS } from "../../lib/cli/commands.ts";
import { EXIT_CODES } from "../../lib/errors/agentv_error.ts";
import { OPTIONS_TABLE_MARKERS } from "../../lib/schema/run_spec_docs.ts";
import { RUN_OPTION_ENTRIES } from "../../lib/schema/run_spec.ts";
import {
  COMMANDS_MARKERS,
  EXIT_CODES_MARKERS,
  GENERATED_TABLES,
  replaceTable,
} from "../../tools/doc_tables.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const REGENERATE = "run: deno run --allow-read --allow-write --allow-run tools/generate.ts";

/** The cells of a Markdown table, trimmed (`deno fmt` pads them to align the columns). */
function cells(table: string): string[][] {
  return table.trim().split("\n").filter((line) => !/^\|[\s|:-]+\|$/.test(line)).map((line) =>
    line.replace(/^\||\|$/g, "").split(/(?<!\\)\|/).map((cell) => cell.trim())
  );
}

/** The committed table of `file` between `markers`. */
function committed(file: string, markers: { start: string; end: string }): string[][] {
  const text = Deno.readTextFileSync(`${ROOT}${file}`);
  const start = text.indexOf(markers.start);
  const end = text.indexOf(markers.end);
  assert.ok(start !== -1 && end > start, `${file} marks the table ${markers.start}`);
  return cells(text.slice(start + markers.start.length, end));
}

Deno.test("every generated table of the docs is the one tools/generate.ts writes", () => {
  assert.ok(GENERATED_TABLES.length >= 4);
  for (const table of GENERATED_TABLES) {
    assert.deepEqual(
      committed(table.file, table.markers),
      cells(table.text()),
      `${table.file}: ${REGENERATE}`,
    );
  }
});

Deno.test("the table of agentv run options has one row per option", () => {
  const rows = committed("docs/commands/run.md", OPTIONS_TABLE_MARKERS);
  assert.equal(rows.length, RUN_OPTION_ENTRIES.length + 1);
  for (const [, d] of RUN_OPTION_ENTRIES) {
    assert.ok(rows.some((row) => row[0]!.includes(`--${d.flag}`)), `--${d.flag} has a row`);
  }
});

Deno.test("the exit codes table has one row per exit code, and the commands table one per command", () => {
  const codes = committed("docs/commands/README.md", EXIT_CODES_MARKERS);
  assert.deepEqual(codes.slice(1).map((row) => Number(row[0])), EXIT_CODES.map((e) => e.code));
  for (const file of ["README.md", "docs/commands/README.md"]) {
    const commands = committed(file, COMMANDS_MARKERS);
    assert.equal(commands.length, COMMANDS.length + 1, file);
    for (const c of COMMANDS) {
      assert.ok(commands.some((row) => row[0]!.includes(`agentv ${c.name}`)), `${file}: ${c.name}`);
    }
  }
});

Deno.test("a stale table is told apart: the markers are required and the text replaced whole", () => {
  const markers = { start: "<!-- t:start -->", end: "<!-- t:end -->" };
  const md = "# x\n\n<!-- t:start -->\n\n| a |\n| - |\n| old |\n\n<!-- t:end -->\n";
  const fresh = replaceTable(md, markers, "| a |\n| - |\n| new |");
  assert.match(fresh, /\| new \|/);
  assert.doesNotMatch(fresh, /old/);
  assert.throws(() => replaceTable("# x\n", markers, "| a |"), /No markers/);
});
