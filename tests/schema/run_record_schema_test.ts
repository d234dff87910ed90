/**
 * The published run record schema (`schema/run.schema.json`) is the generated one, and a real
 * draft 2020-12 validator (ajv) accepts the record a real run writes and rejects broken ones.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import Ajv2020Module from "ajv/dist/2020.js";
import { runRecordPath } from "../../lib/results/run_record.ts";
import { runEval } from "../../lib/run/run_eval.ts";
import { runRecordJsonSchema } from "../../lib/schema/run_record.ts";
import { project } from "../_helpers/run_project.ts";

type Validate = ((value: unknown) => boolean) & { errors?: unknown };

function compile(schema: object): Validate {
  // ajv's CommonJS default export, as Deno sees it.
  const Ajv2020 = (Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module;
  const ajv = new (Ajv2020 as new (options: object) => { compile(s: object): Validate })({
    allErrors: true,
    strict: false,
  });
  return ajv.compile(schema);
}

Deno.test("schema/run.schema.json is the generated run record schema", async () => {
  const committed = JSON.parse(
    await Deno.readTextFile(new URL("../../schema/run.schema.json", import.meta.url)),
  );
  assert.deepEqual(
    committed,
    JSON.parse(JSON.stringify(runRecordJsonSchema())),
    "regenerate schema/run.schema.json from runRecordJsonSchema()",
  );
});

Deno.test("the published schema accepts the record of a real run and rejects broken ones", async () => {
  await using p = await project({
    ".agentv/targets.yaml": "targets:\n  - name: default\n    provider: mock\n    response: ok\n",
    "evals/a.yaml":
      "evalcases:\n  - id: one\n    expected_outcome: x\n    input: x\n    evaluators: [{type: contains, value: ok}]\n",
  });
  const out = join(p.dir, "r.jsonl");
  await runEval({ files: ["evals/a.yaml"], env: {}, cwd: p.dir, out });
  const record = JSON.parse(await Deno.readTextFile(runRecordPath(out)));
  const validate = compile(runRecordJsonSchema());
  assert.equal(validate(record), true, JSON.stringify(validate.errors));
  assert.equal(validate({ ...record, status: "done" }), false);
  const { run_id: _, ...noId } = record;
  assert.equal(validate(noId), false);
  assert.equal(validate({ ...record, datasets: [{ path: "a", sha256: "xyz" }] }), false);
});
