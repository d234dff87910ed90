/** The published JSON Schema and the "did you mean" helper. */
import assert from "node:assert/strict";
import { evalFileJsonSchema, evalFormatKeys } from "../../lib/schema/json_schema.ts";
import { editDistance, suggest } from "../../lib/text/suggest.ts";

Deno.test("schema/eval.schema.json equals evalFileJsonSchema()", async () => {
  const committed = JSON.parse(
    await Deno.readTextFile(new URL("../../schema/eval.schema.json", import.meta.url)),
  );
  assert.deepStrictEqual(
    committed,
    JSON.parse(JSON.stringify(evalFileJsonSchema())),
    "regenerate schema/eval.schema.json from evalFileJsonSchema()",
  );
});

Deno.test("evalFileJsonSchema() describes evalcases with the case fields", () => {
  const schema = evalFileJsonSchema() as {
    $id: string;
    required: string[];
    properties: { evalcases: { items: { properties: Record<string, unknown> } } };
  };
  assert.match(schema.$id, /eval\.schema\.json$/);
  assert.ok(schema.required.includes("evalcases"));
  for (
    const key of ["id", "expected_outcome", "input", "expected_output", "rubrics", "evaluators"]
  ) {
    assert.ok(key in schema.properties.evalcases.items.properties, key);
  }
  assert.ok(evalFormatKeys().includes("guideline_patterns"));
});

Deno.test("suggest() proposes close names only", () => {
  assert.equal(suggest("expected_outcom", ["expected_outcome", "input"]), "expected_outcome");
  assert.equal(suggest("--verbos", ["--verbose", "--json"]), "--verbose");
  assert.equal(suggest("--VERBOSE", ["--verbose"]), "--verbose");
  assert.equal(suggest("imput", ["input", "id"]), "input");
  assert.equal(suggest("zzz", ["input", "rubrics"]), undefined);
  assert.equal(suggest("x", []), undefined);
  assert.equal(editDistance("ab", "ba"), 1);
  assert.equal(editDistance("kitten", "sitting"), 3);
});
