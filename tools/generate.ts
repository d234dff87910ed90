/**
 * Writes the files generated from the code, so the committed copies are current (a test fails
 * while one is stale): the run option types (`lib/schema/run_spec_types.ts`), the run record's
 * JSON Schema (`schema/run.schema.json`), the eval file's and sidecar's JSON Schemas
 * (`schema/eval.schema.json`, `schema/sidecar.schema.json`) and the options table of the README.
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

const { OPTIONS_TABLE_MARKERS, runOptionsTable } = await import("../lib/schema/run_spec_docs.ts");
const readme = await Deno.readTextFile(`${ROOT}README.md`);
const start = readme.indexOf(OPTIONS_TABLE_MARKERS.start);
const end = readme.indexOf(OPTIONS_TABLE_MARKERS.end);
if (start === -1 || end < start) throw new Error("README.md has no run options table markers");
await Deno.writeTextFile(
  `${ROOT}README.md`,
  readme.slice(0, start + OPTIONS_TABLE_MARKERS.start.length) + "\n\n" + runOptionsTable() +
    "\n\n" + readme.slice(end),
);

// Laid out as `deno fmt` lays them out.
const fmt = await new Deno.Command(Deno.execPath(), {
  args: ["fmt", "--quiet", "lib/schema/run_spec_types.ts", "README.md"],
  cwd: ROOT,
}).output();
if (fmt.code !== 0) throw new Error(new TextDecoder().decode(fmt.stderr));
console.log(
  "wrote lib/schema/run_spec_types.ts, schema/{run,eval,sidecar}.schema.json, README.md " +
    "(options table)",
);
