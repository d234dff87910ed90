import assert from "node:assert/strict";
import { evaluateJsonSchema } from "../../lib/scoring/json_schema.ts";
import { checkJsonSchema } from "../../lib/scoring/json_schema_check.ts";
import { JsonSchemaEvaluatorSchema } from "../../lib/schema/evaluator.ts";
import { answerContext } from "./_context.ts";

const invoice = {
  type: "object",
  required: ["invoice_number", "total", "lines"],
  additionalProperties: false,
  properties: {
    invoice_number: { type: "string", pattern: "^INV-\\d+$" },
    total: { type: "number", minimum: 0 },
    currency: { enum: ["USD", "EUR"] },
    lines: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        required: ["sku"],
        properties: {
          sku: { type: "string", minLength: 3, maxLength: 8 },
          qty: { type: "integer" },
        },
      },
    },
  },
};

const run = (schema: Record<string, unknown>, answer: string) =>
  evaluateJsonSchema(
    JsonSchemaEvaluatorSchema.parse({ type: "json_schema", schema }),
    answerContext(answer),
  );

Deno.test("json_schema passes a valid answer", async () => {
  const r = await run(
    invoice,
    JSON.stringify({
      invoice_number: "INV-7",
      total: 10.5,
      currency: "EUR",
      lines: [{ sku: "ABC", qty: 2 }],
    }),
  );
  assert.equal(r.score, 1);
  assert.deepEqual(r.hits, ["Answer matches the JSON schema"]);
  assert.equal("details" in r, false);
});

Deno.test("json_schema reports each violation with its JSON pointer", async () => {
  const r = await run(
    invoice,
    JSON.stringify({
      invoice_number: "7",
      total: -1,
      currency: "GBP",
      lines: [{ sku: "AB", qty: 1.5 }, {}],
      note: "x",
    }),
  );
  assert.equal(r.score, 0);
  assert.deepEqual(r.misses, [
    '/invoice_number: "7" does not match pattern "^INV-\\\\d+$"',
    "/total: -1 is below minimum 0",
    '/currency: expected one of "USD", "EUR", found "GBP"',
    "/lines/0/sku: string is 2 characters, shorter than minLength 3",
    "/lines/0/qty: expected integer, found number",
    "/lines/1/sku: required property is missing",
    "/note: property is not allowed (additionalProperties)",
  ]);
});

Deno.test("json_schema reports a missing required key and a non-JSON answer", async () => {
  const missing = await run(invoice, '{"total": 1, "lines": [{"sku": "ABC"}]}');
  assert.deepEqual(missing.misses, ["/invoice_number: required property is missing"]);
  const notJson = await run(invoice, "total: 1");
  assert.equal(notJson.score, 0);
  assert.match(notJson.misses[0], /^Answer is not valid JSON: /);
});

Deno.test("checkJsonSchema() handles anyOf, oneOf, allOf, const, not and boolean schemas", () => {
  const schema = {
    anyOf: [{ type: "string" }, { type: "number" }],
  };
  assert.deepEqual(checkJsonSchema(schema, "x").violations, []);
  assert.deepEqual(checkJsonSchema(schema, true).violations, [
    {
      pointer: "",
      message:
        "matches none of the 2 anyOf schemas (first: (root): expected string, found boolean)",
    },
  ]);
  const oneOf = { oneOf: [{ type: "integer" }, { type: "number" }] };
  assert.deepEqual(checkJsonSchema(oneOf, 1.5).violations, []);
  assert.deepEqual(checkJsonSchema(oneOf, 2).violations, [
    { pointer: "", message: "matches 2 of the oneOf schemas; expected exactly one" },
  ]);
  const allOf = { allOf: [{ maxLength: 3 }, { const: "abcd" }] };
  assert.deepEqual(checkJsonSchema(allOf, "abcd").violations.map((v) => v.message), [
    "string is 4 characters, longer than maxLength 3",
  ]);
  assert.equal(checkJsonSchema({ not: { type: "null" } }, null).violations.length, 1);
  assert.equal(checkJsonSchema(false, 1).violations.length, 1);
  assert.deepEqual(
    checkJsonSchema({ type: "array", items: false, maxItems: 0 }, [1]).violations.map((v) =>
      v.pointer
    ),
    ["", "/0"],
  );
  assert.deepEqual(
    checkJsonSchema({ type: ["string", "null"] }, null).violations,
    [],
  );
});

Deno.test("checkJsonSchema() escapes pointer tokens and lists unsupported keywords", () => {
  const r = checkJsonSchema(
    {
      type: "object",
      title: "x",
      properties: { "a/b": { type: "string", format: "email" } },
      $defs: {},
    },
    { "a/b": 1 },
  );
  assert.deepEqual(r.violations, [{ pointer: "/a~1b", message: "expected string, found integer" }]);
  assert.deepEqual(r.unsupported, ["format"]);
});

Deno.test("json_schema lists unsupported keywords in details", async () => {
  const r = await run({ type: "object", propertyNames: { maxLength: 3 } }, "{}");
  assert.equal(r.score, 1);
  assert.deepEqual(r.details, { unsupported_keywords: ["propertyNames"] });
});
