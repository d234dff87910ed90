/** await parseYamlSource(): values with positions; bounded aliases; syntax errors with positions. */
import assert from "node:assert/strict";
import { parseYamlSource } from "../../lib/dataset/yaml_source.ts";

const text = `evalcases:
  - id: a
    evaluators:
      - type: x
        weight: 2
  - id: b
`;

Deno.test("locate() finds nodes, keys, and the parent of a missing key", async () => {
  const r = await parseYamlSource(text);
  assert.ok(r.ok);
  const { source } = r;
  assert.deepEqual(source.locate(["evalcases", 0, "evaluators", 0, "weight"]), {
    line: 5,
    column: 17,
  });
  assert.deepEqual(source.locate(["evalcases", 0, "evaluators", 0, "weight"], { key: true }), {
    line: 5,
    column: 9,
  });
  assert.deepEqual(source.locate(["evalcases", 1, "input"]), { line: 6, column: 5 });
  assert.deepEqual(source.locate([]), { line: 1, column: 1 });
  assert.deepEqual(source.value, {
    evalcases: [{ id: "a", evaluators: [{ type: "x", weight: 2 }] }, { id: "b" }],
  });
});

Deno.test("YAML 1.2 core schema: dates and yes/no stay strings; duplicate keys are errors", async () => {
  const r = await parseYamlSource("a: 2025-01-01\nb: yes\n");
  assert.ok(r.ok);
  assert.deepEqual(r.source.value, { a: "2025-01-01", b: "yes" });
  const dup = await parseYamlSource("a: 1\na: 2\n");
  assert.ok(!dup.ok);
  assert.equal(dup.errors[0].position?.line, 2);
});

Deno.test("syntax errors carry positions; aliases are capped", async () => {
  const r = await parseYamlSource("a: [1, 2\nb: 3\n");
  assert.ok(!r.ok);
  assert.ok(r.errors[0].position);
  const aliases = await parseYamlSource("a: &x [1]\nb: [*x, *x, *x]\n", { maxAliasCount: 2 });
  assert.ok(!aliases.ok);
  assert.match(aliases.errors[0].message, /aliases expand too much/);
  assert.ok((await parseYamlSource("a: &x [1]\nb: [*x, *x, *x]\n")).ok);
});

Deno.test("a YAML mistake the parser reports several ways at one position is reported once there", async () => {
  const text = "evalcases:\n  - id: a\n    input: x\n  expected_outcome: y\n - z\n";
  const parsed = await parseYamlSource(text);
  assert.equal(parsed.ok, false);
  if (parsed.ok) return;
  const positions = parsed.errors.map((e) => `${e.position?.line}:${e.position?.column}`);
  assert.deepEqual(positions, ["4:3", "5:2"], JSON.stringify(parsed.errors));
  // The first of the parser's words for the mistake at 5:2 is kept.
  assert.match(parsed.errors[1].message, /^YAML syntax error: A block sequence may not be used/);
});
