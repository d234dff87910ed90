/** Evaluators: exact scores of the deterministic evaluators. */
import assert from "node:assert/strict";
import { evaluate } from "../_helpers/run_project.ts";

Deno.test("contains / equals / regex / is_json / json_schema: exact scores", async () => {
  const answer = '{"city": "Paris", "temp": 21}';
  const r = await evaluate(
    answer,
    `      - {name: c-all, type: contains, values: [Paris, temp, Rome, Oslo], mode: all}
      - {name: c-any, type: contains, values: [Rome, paris], mode: any, case_sensitive: false}
      - {name: c-case, type: contains, value: paris}
      - {name: eq, type: equals, value: {temp: 21, city: Paris}}
      - {name: eq-str, type: equals, value: "nope"}
      - {name: re, type: regex, pattern: '"temp":\\s*\\d+'}
      - {name: re-flags, type: regex, pattern: 'PARIS', flags: i}
      - {name: js, type: is_json}
      - name: schema-ok
        type: json_schema
        schema: {type: object, required: [city, temp], properties: {temp: {type: number}}}
      - name: schema-bad
        type: json_schema
        schema: {type: object, required: [country]}
`,
  );
  const scores = Object.fromEntries(r.evaluator_results.map((e) => [e.name, e.score]));
  assert.deepEqual(scores, {
    "c-all": 0.5,
    "c-any": 1,
    "c-case": 0,
    eq: 1,
    "eq-str": 0,
    re: 1,
    "re-flags": 1,
    js: 1,
    "schema-ok": 1,
    "schema-bad": 0,
  });
  assert.equal(r.score, 0.65);
  const notJson = await evaluate("not json", "      - {type: is_json}\n");
  assert.equal(notJson.score, 0);
  assert.equal(notJson.status, "ok");
});
