import assert from "node:assert/strict";
import { clampScore, scoreToVerdict } from "../../lib/scoring/verdict.ts";

Deno.test("scoreToVerdict() puts 0.8 in pass and 0.6 in borderline", () => {
  assert.equal(scoreToVerdict(1), "pass");
  assert.equal(scoreToVerdict(0.8), "pass");
  assert.equal(scoreToVerdict(0.7999), "borderline");
  assert.equal(scoreToVerdict(0.6), "borderline");
  assert.equal(scoreToVerdict(0.5999), "fail");
  assert.equal(scoreToVerdict(0), "fail");
});

Deno.test("scoreToVerdict() treats NaN as 0 and values above 1 as 1", () => {
  assert.equal(scoreToVerdict(Number.NaN), "fail");
  assert.equal(scoreToVerdict(3), "pass");
});

Deno.test("clampScore() maps NaN and infinities to 0 and clamps into [0, 1]", () => {
  assert.equal(clampScore(Number.NaN), 0);
  assert.equal(clampScore(Number.POSITIVE_INFINITY), 0);
  assert.equal(clampScore(Number.NEGATIVE_INFINITY), 0);
  assert.equal(clampScore(-0.5), 0);
  assert.equal(clampScore(1.5), 1);
  assert.equal(clampScore(0.42), 0.42);
  assert.equal(clampScore("0.5"), 0);
});
