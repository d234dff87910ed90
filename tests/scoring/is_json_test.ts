import assert from "node:assert/strict";
import { evaluateIsJson } from "../../lib/scoring/is_json.ts";
import { IsJsonSchema } from "../../lib/schema/evaluator.ts";
import { answerContext } from "./_context.ts";

const run = (answer: string) =>
  evaluateIsJson(IsJsonSchema.parse({ type: "is_json" }), answerContext(answer));

Deno.test("is_json accepts any strict JSON value, surrounding whitespace allowed", async () => {
  assert.equal((await run(' {"a": [1, 2]}\n')).score, 1);
  assert.equal((await run("42")).score, 1);
  assert.equal((await run("null")).score, 1);
});

Deno.test("is_json says what failed", async () => {
  const broken = await run("{'a': 1}");
  assert.equal(broken.score, 0);
  assert.match(broken.misses[0], /^Answer is not valid JSON: /);
  const fenced = await run('```json\n{"a": 1}\n```');
  assert.equal(fenced.score, 0);
  assert.match(fenced.misses[0], /wrapped in a ``` code fence/);
  assert.deepEqual((await run("  ")).misses, ["Answer is not valid JSON: the answer is empty"]);
});
