import assert from "node:assert/strict";
import { evaluateRegex } from "../../lib/scoring/regex.ts";
import { RegexSchema } from "../../lib/schema/evaluator.ts";
import { answerContext } from "./_context.ts";

const run = (config: Record<string, unknown>, answer: string) =>
  evaluateRegex(RegexSchema.parse({ type: "regex", ...config }), answerContext(answer));

Deno.test("regex scores 1 on a match and records it", async () => {
  const r = await run({ pattern: "\\b\\d{4}-\\d{2}-\\d{2}\\b" }, "Due 2025-01-15, ok");
  assert.equal(r.score, 1);
  assert.deepEqual(r.hits, ["Matches /\\b\\d{4}-\\d{2}-\\d{2}\\b/"]);
  assert.deepEqual(r.details, { match: "2025-01-15" });
});

Deno.test("regex scores 0 without a match and honours flags", async () => {
  const miss = await run({ pattern: "^paris$" }, "Paris");
  assert.equal(miss.score, 0);
  assert.deepEqual(miss.misses, ['Does not match /^paris$/: "Paris"']);
  assert.equal((await run({ pattern: "^paris$", flags: "i" }, "Paris")).score, 1);
});

Deno.test("regex with the g flag gives the same answer on every call", async () => {
  const config = RegexSchema.parse({ type: "regex", pattern: "a", flags: "g" });
  const ctx = answerContext("a");
  assert.equal((await evaluateRegex(config, ctx)).score, 1);
  assert.equal((await evaluateRegex(config, ctx)).score, 1);
});
