import assert from "node:assert/strict";
import { deepEqual, findPartialMismatch, matchesPartial } from "../../lib/scoring/match.ts";

Deno.test("deepEqual() ignores key order but not array order or extra keys", () => {
  assert.equal(deepEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }), true);
  assert.equal(deepEqual([1, 2], [2, 1]), false);
  assert.equal(deepEqual({ a: 1 }, { a: 1, b: 2 }), false);
  assert.equal(deepEqual(1, "1"), false);
  assert.equal(deepEqual(null, {}), false);
});

Deno.test("matchesPartial() lets actual objects have extra keys at every depth", () => {
  assert.equal(matchesPartial({ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 }), true);
  assert.equal(matchesPartial({}, { anything: true }), true);
  assert.equal(matchesPartial({}, "text"), false);
});

Deno.test("matchesPartial() compares arrays element-wise and allows longer actual arrays", () => {
  assert.equal(matchesPartial([{ id: 1 }], [{ id: 1, x: 0 }, { id: 2 }]), true);
  assert.equal(matchesPartial([1, 2], [2, 1]), false);
  assert.equal(matchesPartial([1, 2], [1]), false);
});

Deno.test("findPartialMismatch() names the path of the first difference", () => {
  assert.equal(
    findPartialMismatch({ q: { items: [{ id: 1 }, { id: 2 }] } }, {
      q: { items: [{ id: 1 }, { id: 3 }] },
    }),
    "q.items[1].id: expected 2, found 3",
  );
  assert.equal(
    findPartialMismatch({ filePath: "a.ts" }, {}),
    'filePath: missing (expected "a.ts")',
  );
  assert.equal(findPartialMismatch({ a: [1] }, { a: "x" }), "a: expected an array, found a string");
  assert.equal(findPartialMismatch("x", "y"), '(root): expected "x", found "y"');
  assert.equal(findPartialMismatch(null, null), undefined);
  assert.equal(findPartialMismatch({ n: 1 }, { n: "1" }), 'n: expected 1, found "1"');
});
