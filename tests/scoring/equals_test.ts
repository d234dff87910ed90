import assert from "node:assert/strict";
import { evaluateEquals } from "../../lib/scoring/equals.ts";
import { EqualsSchema } from "../../lib/schema/evaluator.ts";
import { answerContext } from "./_context.ts";

const run = (config: Record<string, unknown>, answer: string) =>
  evaluateEquals(EqualsSchema.parse({ type: "equals", ...config }), answerContext(answer));

Deno.test("equals compares strings after trimming, case-sensitively by default", async () => {
  const ok = await run({ value: " Paris " }, "Paris\n");
  assert.equal(ok.score, 1);
  assert.deepEqual(ok.hits, ['Answer equals " Paris "']);
  const wrongCase = await run({ value: "Paris" }, "paris");
  assert.equal(wrongCase.score, 0);
  assert.deepEqual(wrongCase.misses, ['Expected answer to equal "Paris", got "paris"']);
});

Deno.test("equals ignores case with case_sensitive: false", async () => {
  assert.equal((await run({ value: "Paris", case_sensitive: false }, "PARIS")).score, 1);
});

Deno.test("equals compares a non-string value deep-equal with the answer parsed as JSON", async () => {
  assert.equal((await run({ value: 42 }, " 42 ")).score, 1);
  assert.equal((await run({ value: { a: [1, 2], b: null } }, '{"b": null, "a": [1, 2]}')).score, 1);
  const differs = await run({ value: { a: 1 } }, '{"a": 1, "b": 2}');
  assert.equal(differs.score, 0);
  assert.deepEqual(differs.misses, ['Expected answer to equal {"a":1}, got {"a":1,"b":2}']);
  const notJson = await run({ value: true }, "yes");
  assert.equal(notJson.score, 0);
  assert.match(notJson.misses[0], /^Expected the JSON value true, but the answer is not JSON/);
});
