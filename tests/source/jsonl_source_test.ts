/** JSONL splitting, parsing and column lookup. */
import assert from "node:assert/strict";
import { locateInJsonLine, parseJsonLine, splitJsonlLines } from "../../lib/source/jsonl_source.ts";

Deno.test("splitJsonlLines() keeps physical line numbers and skips blank lines", () => {
  assert.deepEqual([...splitJsonlLines('{"a":1}\r\n\n  \t\n{"b":2}\n\n')], [
    { line: 1, text: '{"a":1}' },
    { line: 4, text: '{"b":2}' },
  ]);
  assert.deepEqual([...splitJsonlLines("")], []);
  assert.deepEqual([...splitJsonlLines(" [1]")], [{ line: 1, text: " [1]" }]);
});

Deno.test("parseJsonLine() returns the parser's message and the column", () => {
  assert.deepEqual(parseJsonLine('{"a": [1]}'), { ok: true, value: { a: [1] } });
  const bad = parseJsonLine('{"a": 1 "b": 2}');
  assert.ok(!bad.ok);
  assert.equal(bad.column, 9);
  assert.ok(bad.detail.length > 0);
});

Deno.test("locateInJsonLine() finds values, keys and falls back to the parent", () => {
  const line = '{"id": 1, "input": [{"role": "x"}]}';
  assert.equal(locateInJsonLine(line, ["id"]), 8);
  assert.equal(locateInJsonLine(line, ["id"], { key: true }), 2);
  assert.equal(locateInJsonLine(line, ["input", 0, "role"]), 30);
  assert.equal(locateInJsonLine(line, ["input", 0, "content"]), 21);
});
