/**
 * Plain patterns: the everyday patterns are plain, the rest is left to the engines. (Generated
 * patterns checked against both engines are plain_pattern_fuzz_test.ts.)
 */
import assert from "node:assert/strict";
import { isPlainPattern } from "../../lib/text/plain_pattern.ts";

Deno.test("isPlainPattern accepts the everyday patterns and leaves the rest to the engines", () => {
  const plain: [string, string][] = [
    ["ticket 42\\b", "i"],
    ["^\\d{3}-\\d{4}$", ""],
    ["(?:yes|no)\\.?", "gi"],
    ["[A-Za-z_][A-Za-z0-9_]*", ""],
    ["[^-a-z.]+", "s"],
    ["a{2,}?", "y"],
    ["(a|b)*c+", "mu"],
  ];
  for (const [pattern, flags] of plain) assert.ok(isPlainPattern(pattern, flags), pattern);
  const notPlain: [string, string][] = [
    ["", ""], // the schema's min(1) speaks for it
    ["(a)\\1", ""], // a backreference
    ["(?=a)", ""], // lookahead
    ["(?<year>\\d+)", ""], // named group
    ["a**", ""],
    ["a{2}{3}", ""],
    ["(a{10}){10}", ""], // a counted repeat inside another
    ["a{101}", ""],
    ["[]", ""],
    ["[\\s-z]", ""],
    ["é", ""],
    ["\\u0041", ""],
    ["a", "ii"], // JavaScript rejects a repeated flag
    ["a", "v"],
    ["a".repeat(1001), ""],
    ["(".repeat(21) + ")".repeat(21), ""],
  ];
  for (const [pattern, flags] of notPlain) assert.ok(!isPlainPattern(pattern, flags), pattern);
});
