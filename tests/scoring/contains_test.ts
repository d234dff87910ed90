import assert from "node:assert/strict";
import { evaluateContains } from "../../lib/scoring/contains.ts";
import { ContainsSchema } from "../../lib/schema/evaluator.ts";
import { answerContext } from "./_context.ts";

const run = (config: Record<string, unknown>, answer: string) =>
  evaluateContains(ContainsSchema.parse({ type: "contains", ...config }), answerContext(answer));

Deno.test("contains with one value scores 1 or 0", async () => {
  assert.equal((await run({ value: "Paris" }, "It is Paris.")).score, 1);
  const miss = await run({ value: "Lyon" }, "It is Paris.");
  assert.equal(miss.score, 0);
  assert.deepEqual(miss.misses, ['Does not contain "Lyon"']);
});

Deno.test("contains mode all scores the fraction found, with hits and misses per value", async () => {
  const r = await run({ values: ["Paris", "France", "Seine", "Eiffel"] }, "Paris, France");
  assert.equal(r.score, 0.5);
  assert.equal(r.verdict, "fail");
  assert.deepEqual(r.hits, ['Contains "Paris"', 'Contains "France"']);
  assert.deepEqual(r.misses, ['Does not contain "Seine"', 'Does not contain "Eiffel"']);
});

Deno.test("contains mode any scores 1 when one value is found", async () => {
  const r = await run({ values: ["Lyon", "Paris"], mode: "any" }, "Paris");
  assert.equal(r.score, 1);
  assert.deepEqual(r.misses, ['Does not contain "Lyon"']);
  assert.equal((await run({ values: ["Lyon", "Nice"], mode: "any" }, "Paris")).score, 0);
});

Deno.test("contains honours case_sensitive", async () => {
  assert.equal((await run({ value: "paris" }, "PARIS")).score, 0);
  assert.equal((await run({ value: "paris", case_sensitive: false }, "PARIS")).score, 1);
});

Deno.test("contains combines value and values", async () => {
  const r = await run({ value: "a", values: ["b", "c"] }, "a b");
  assert.equal(r.score, 2 / 3);
});
