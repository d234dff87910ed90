import assert from "node:assert/strict";
import { insertYamlKeys, readYaml, YamlEditError } from "../../lib/dataset/yaml_edit.ts";

Deno.test("insertYamlKeys adds a block after the mapping's last entry, keeping comments", () => {
  const text = "cases:\n  # c1\n  - id: a   # first\n    input: 'x'\n\n  # c2\n  - id: b\n";
  const out = insertYamlKeys(text, [{
    path: ["cases", 0],
    key: "rubrics",
    value: [{ id: "r", weight: 1 }],
  }]);
  assert.equal(
    out,
    "cases:\n  # c1\n  - id: a   # first\n    input: 'x'\n    rubrics:\n      - id: r\n        weight: 1\n\n  # c2\n  - id: b\n",
  );
});

Deno.test("insertYamlKeys handles a trailing comment on the last line, no final newline, and CRLF", () => {
  assert.equal(
    insertYamlKeys("- id: a # note", [{ path: [0], key: "k", value: "v" }]),
    "- id: a # note\n  k: v\n",
  );
  assert.equal(
    insertYamlKeys("list:\r\n  - id: a\r\n", [{ path: ["list", 0], key: "k", value: ["x"] }]),
    "list:\r\n  - id: a\r\n    k:\r\n      - x\r\n",
  );
});

Deno.test("insertYamlKeys adds to flow mappings before the closing brace", () => {
  assert.equal(
    insertYamlKeys("- {id: a}  # flow\n", [{ path: [0], key: "rubrics", value: [{ id: "r" }] }]),
    '- {id: a, rubrics: [{"id":"r"}]}  # flow\n',
  );
});

Deno.test("insertYamlKeys places several inserts and the result parses back", () => {
  const text = "evalcases:\n  - id: a\n    x: |-\n      block\n      text\n  - id: b\n  - id: c\n";
  const out = insertYamlKeys(text, [
    { path: ["evalcases", 2], key: "r", value: 3 },
    { path: ["evalcases", 0], key: "r", value: 1 },
  ]);
  assert.deepEqual(readYaml(out), {
    evalcases: [{ id: "a", x: "block\ntext", r: 1 }, { id: "b" }, { id: "c", r: 3 }],
  });
});

Deno.test("insertYamlKeys refuses existing keys and non-mappings", () => {
  assert.throws(
    () => insertYamlKeys("- id: a\n", [{ path: [0], key: "id", value: 1 }]),
    YamlEditError,
  );
  assert.throws(
    () => insertYamlKeys("- x\n", [{ path: [0], key: "id", value: 1 }]),
    /is not a mapping/,
  );
  assert.throws(() => insertYamlKeys("a: [\n", []), YamlEditError);
});
