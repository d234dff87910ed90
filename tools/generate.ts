/**
 * Writes the files generated from the code, so the committed copies are current (a test fails
 * while one is stale): the run option types (`lib/schema/run_spec_types.ts`), the run record's
 * JSON Schema (`schema/run.schema.json`), the eval file's and sidecar's JSON Schemas
 * (`schema/eval.schema.json`, `schema/sidecar.schema.json`) and the generated tables of the docs
 * (`tools/doc_tables.ts`: the run options, the exit codes, the commands).
 * Run it after changing a run option (`lib/schema/run_spec.ts`), the run record or the eval file
 * format:
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-run tools/generate.ts
 * ```
 *
 * @module
 */
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

// The types first: the other generators import the schemas that are checked against them.
const { runSpecTypesSource } = await import("../lib/schema/run_spec_docs.ts");
await Deno.writeTextFile(`${ROOT}lib/schema/run_spec_types.ts`, runSpecTypesSource());

const { runRecordJsonSchema } = await import("../lib/schema/run_record.ts");
await Deno.writeTextFile(
  `${ROOT}schema/run.schema.json`,
  JSON.stringify(runRecordJsonSchema(), null, 2) + "\n",
);

const { evalFileJsonSchema, sidecarJsonSchema } = await import("../lib/schema/json_schema.ts");
for (const [file, schema] of [["eval", evalFileJsonSchema()], ["sidecar", sidecarJsonSchema()]]) {
  await Deno.writeTextFile(
    `${ROOT}schema/${file}.schema.json`,
    JSON.stringify(schema, null, 2) + "\n",
  );
}

const { GENERATED_TABLES, replaceTable } = await import("./doc_tables.ts");
const files = [...new Set(GENERATED_TABLES.map((t) => t.file))];
for (const file of files) {
  let text = await Deno.readTextFile(`${ROOT}${file}`);
  for (const table of GENERATED_TABLES.filter((t) => t.file === file)) {
    text = replaceTable(text, table.markers, table.text());
  }
  await Deno.writeTextFile(`${ROOT}${file}`, text);
}

// Laid out as `deno fmt` lays them out.
const fmt = await new Deno.Command(Deno.execPath(), {
  args: ["fmt", "--quiet", "lib/schema/run_spec_types.ts", ...files],
  cwd: ROOT,
}).output();
if (fmt.code !== 0) throw new Error(new TextDecoder().decode(fmt.stderr));
console.log(
  "wrote lib/schema/run_spec_types.ts, schema/{run,eval,sidecar}.schema.json and the tables of " +
    files.join(", "),
);
