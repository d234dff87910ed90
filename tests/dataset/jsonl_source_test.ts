/** JSONL splitting, parsing and column lookup. */
import assert from "node:assert/strict";
import { findNodeAtLocation, parseTree } from "jsonc-parser";
import {
  jsonLineErrorColumn,
  locateInJsonLine,
  parseJsonLine,
  splitJsonlLines,
} from "../../lib/dataset/jsonl_source.ts";

Deno.test("splitJsonlLines() keeps physical line numbers and skips blank lines", () => {
  assert.deepEqual([...splitJsonlLines('{"a":1}\r\n\n  \t\n{"b":2}\n\n')], [
    { line: 1, text: '{"a":1}' },
    { line: 4, text: '{"b":2}' },
  ]);
  assert.deepEqual([...splitJsonlLines("")], []);
  assert.deepEqual([...splitJsonlLines(" [1]")], [{ line: 1, text: " [1]" }]);
});

Deno.test("parseJsonLine() returns the parser's message; jsonLineErrorColumn() its column", async () => {
  assert.deepEqual(parseJsonLine('{"a": [1]}'), { ok: true, value: { a: [1] } });
  const bad = parseJsonLine('{"a": 1 "b": 2}');
  assert.ok(!bad.ok);
  assert.ok(bad.detail.length > 0);
  assert.equal(await jsonLineErrorColumn('{"a": 1 "b": 2}'), 9);
  assert.equal(await jsonLineErrorColumn('{"a": 1}'), undefined);
});

Deno.test("locateInJsonLine() finds values, keys and falls back to the parent", () => {
  const line = '{"id": 1, "input": [{"role": "x"}]}';
  assert.equal(locateInJsonLine(line, ["id"]), 8);
  assert.equal(locateInJsonLine(line, ["id"], { key: true }), 2);
  assert.equal(locateInJsonLine(line, ["input", 0, "role"]), 30);
  assert.equal(locateInJsonLine(line, ["input", 0, "content"]), 21);
});

/** The column `jsonc-parser` gives (the way agentv located values before it had its own scanner). */
function jsoncColumn(
  text: string,
  path: readonly (string | number)[],
  options: { key?: boolean } = {},
): number | undefined {
  const root = parseTree(text);
  if (!root) return undefined;
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n) as (string | number)[]);
    if (!node) continue;
    if (options.key && n === path.length && node.parent?.type === "property") {
      return node.parent.offset + 1;
    }
    return node.offset + 1;
  }
  return root.offset + 1;
}

/** A JSON value whose objects may repeat a key: objects are lists of [key, value] pairs. */
type Tree = null | boolean | number | string | Tree[] | { pairs: [string, Tree][] };

Deno.test("locateInJsonLine() agrees with jsonc-parser on generated lines, keys and paths", () => {
  let seed = 20261126;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const KEYS = ["id", "input", "a", "b", "role", 'q"uote', "back\\slash", "ünï", "日本", "\u0041"];
  const STRINGS = ["", "x", 'say "hi"', "a\\b", "tab\there", "line\nbreak", "é", "😀", "}]", ",:"];
  const tree = (depth: number): Tree => {
    const r = random();
    if (depth > 3 || r < 0.3) {
      return pick<Tree>([null, true, false, 0, -1.5e3, 42, pick(STRINGS)]);
    }
    if (r < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => tree(depth + 1));
    const pairs: [string, Tree][] = [];
    for (let i = Math.floor(random() * 5); i > 0; i--) pairs.push([pick(KEYS), tree(depth + 1)]);
    return { pairs };
  };
  const space = () => pick(["", "", " ", "  ", "\t"]);
  const write = (t: Tree): string => {
    if (Array.isArray(t)) {
      return `[${space()}${t.map(write).join(`${space()},${space()}`)}${space()}]`;
    }
    if (t !== null && typeof t === "object") {
      const body = t.pairs.map(([k, v]) => `${JSON.stringify(k)}${space()}:${space()}${write(v)}`);
      return `{${space()}${body.join(`${space()},${space()}`)}${space()}}`;
    }
    return JSON.stringify(t);
  };
  const randomPath = (t: Tree): (string | number)[] => {
    const path: (string | number)[] = [];
    for (let node = t; path.length < 5;) {
      if (Array.isArray(node) && node.length > 0 && random() < 0.85) {
        const i = random() < 0.8 ? Math.floor(random() * node.length) : node.length + 1;
        path.push(i);
        node = node[i] ?? null;
      } else if (
        node !== null && typeof node === "object" && !Array.isArray(node) && random() < 0.85
      ) {
        const [key, value] = random() < 0.8 && node.pairs.length > 0
          ? pick(node.pairs)
          : ["absent", null];
        path.push(key);
        node = value;
      } else {
        if (random() < 0.3) path.push(pick<string | number>(["id", 0]));
        return path;
      }
    }
    return path;
  };
  let compared = 0;
  for (let i = 0; i < 3000; i++) {
    const t = tree(0);
    const text = `${space()}${write(t)}${space()}`;
    JSON.parse(text); // the lines located are valid JSON
    for (let j = 0; j < 4; j++) {
      const path = randomPath(t);
      for (const key of [false, true]) {
        assert.equal(
          locateInJsonLine(text, path, { key }),
          jsoncColumn(text, path, { key }),
          `${text} at ${JSON.stringify(path)}${key ? " (key)" : ""}`,
        );
        compared++;
      }
    }
  }
  assert.ok(compared >= 24000);
  assert.equal(locateInJsonLine("   ", ["id"]), undefined);
});
