import assert from "node:assert/strict";
import { aggregateCaseScore } from "../../lib/scoring/case_score.ts";
import type { EvaluatorResult } from "../../lib/schema/result.ts";

function result(name: string, score: number, weight: number, extra: Partial<EvaluatorResult> = {}) {
  return {
    name,
    type: "contains",
    status: "ok",
    score,
    weight,
    verdict: "pass",
    hits: [`${name} hit`],
    misses: [`${name} miss`],
    reasoning: `${name} why`,
    ...extra,
  } satisfies EvaluatorResult;
}

Deno.test("aggregateCaseScore() weights 3/2/1 and ignores weight 0", () => {
  const c = aggregateCaseScore([
    result("a", 1, 3),
    result("b", 0.5, 2),
    result("c", 0, 1),
    result("d", 0, 0),
  ]);
  // (3·1 + 2·0.5 + 1·0) / 6 = 4/6
  assert.equal(c.score, 4 / 6);
  assert.equal(c.verdict, "borderline");
  assert.equal(c.status, "ok");
  assert.deepEqual(c.hits, ["a hit", "b hit", "c hit"]);
  assert.deepEqual(c.misses, ["a miss", "b miss", "c miss"]);
  assert.equal(c.reasoning, "a: a why | b: b why | c: c why");
  assert.equal(c.forced_by, undefined);
});

Deno.test("aggregateCaseScore() verdict thresholds at 0.8 and 0.6", () => {
  assert.equal(aggregateCaseScore([result("a", 1, 4), result("b", 0, 1)]).verdict, "pass"); // 0.8
  assert.equal(aggregateCaseScore([result("a", 1, 3), result("b", 0, 2)]).verdict, "borderline"); // 0.6
  assert.equal(aggregateCaseScore([result("a", 1, 1), result("b", 0, 1)]).verdict, "fail"); // 0.5
});

Deno.test("aggregateCaseScore() reads all-zero weights as equal weights", () => {
  const c = aggregateCaseScore([result("a", 1, 0), result("b", 0.5, 0)]);
  assert.equal(c.score, 0.75);
  assert.equal(c.verdict, "borderline");
  assert.deepEqual(c.hits, ["a hit", "b hit"]);
});

Deno.test("aggregateCaseScore() lets details.forces_fail force fail only with weight > 0", () => {
  const forced = aggregateCaseScore([
    result("rubric", 0.9, 1, { details: { forces_fail: "required rubric 'polite' failed" } }),
    result("b", 1, 1),
  ]);
  assert.equal(forced.score, 0.95);
  assert.equal(forced.verdict, "fail");
  assert.equal(forced.forced_by, "rubric: required rubric 'polite' failed");

  const ignored = aggregateCaseScore([
    result("rubric", 0, 0, { details: { forces_fail: "required rubric failed" } }),
    result("b", 1, 1),
  ]);
  assert.equal(ignored.verdict, "pass");
  assert.equal(ignored.forced_by, undefined);
});

Deno.test("aggregateCaseScore() marks the case error when any evaluator errored", () => {
  const c = aggregateCaseScore([
    result("a", 1, 1),
    result("broken", 0, 0, { status: "error", verdict: "fail", error: "boom" }),
  ]);
  assert.equal(c.status, "error");
  assert.equal(c.score, 1);
  const counted = aggregateCaseScore([
    result("a", 1, 1),
    result("broken", 0, 1, { status: "error", verdict: "fail" }),
  ]);
  assert.equal(counted.status, "error");
  assert.equal(counted.score, 0.5);
});

Deno.test("aggregateCaseScore() with no results is an error, not a pass", () => {
  const c = aggregateCaseScore([]);
  assert.equal(c.status, "error");
  assert.equal(c.score, 0);
  assert.equal(c.verdict, "fail");
});

Deno.test("aggregateCaseScore() clamps out-of-range scores and omits empty reasoning", () => {
  const c = aggregateCaseScore([
    result("a", 5, 1, { reasoning: undefined }),
    result("b", Number.NaN, 1, { reasoning: " " }),
  ]);
  assert.equal(c.score, 0.5);
  assert.equal(c.reasoning, undefined);
});
