import assert from "node:assert/strict";
import { unifiedDiff } from "../../lib/scoring/line_diff.ts";

Deno.test("unifiedDiff shows insertions with three lines of context", () => {
  const before = "1\n2\n3\n4\n5\n6\n7\n8\n";
  const after = "1\n2\n3\n4\nnew\n5\n6\n7\n8\n";
  assert.equal(
    unifiedDiff(before, after, "f"),
    "--- a/f\n+++ b/f\n@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+new\n 5\n 6\n 7\n",
  );
});

Deno.test("unifiedDiff shows replaced lines and separate hunks", () => {
  const before = Array.from({ length: 12 }, (_, i) => `l${i + 1}`).join("\n") + "\n";
  const after = before.replace("l1\n", "L1\n").replace("l12\n", "L12\n");
  assert.equal(
    unifiedDiff(before, after, "f"),
    "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-l1\n+L1\n l2\n l3\n l4\n@@ -9,4 +9,4 @@\n l9\n l10\n l11\n-l12\n+L12\n",
  );
  assert.equal(unifiedDiff("same\n", "same\n", "f"), "");
});
