/** A YAML syntax error points at its cause, not at the place the parser gave up. */
import assert from "node:assert/strict";
import { runCli } from "../../lib/cli/app.ts";
import { parseYamlSource } from "../../lib/dataset/yaml_source.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { createBufferIO, normalize } from "../cli/_buffer_io.ts";

async function firstError(text: string) {
  const r = await parseYamlSource(text);
  assert.ok(!r.ok, "expected a syntax error");
  return r.errors[0];
}

const TAIL = "  - id: two\n    expected_outcome: y\n    input: hi\n";

Deno.test("an unclosed double quote is reported at the opening quote, not at the end of the file", async () => {
  const e = await firstError(`evalcases:\n  - id: "one\n    expected_outcome: x\n${TAIL}`);
  assert.match(e.message, /Missing closing "quote/);
  assert.deepEqual(e.position, { line: 2, column: 9 });
});

Deno.test("an unclosed single quote (with an escaped '' inside) is reported at the opening quote", async () => {
  const e = await firstError(`evalcases:\n  - id: one\n    input: 'it''s\n${TAIL}`);
  assert.deepEqual(e.position, { line: 3, column: 12 });
});

Deno.test("an over-indented line is reported at that line, not at the value before it", async () => {
  const text = `evalcases:\n  - id: one\n    expected_outcome: x\n      input: hi\n${TAIL}`;
  const r = await parseYamlSource(text);
  assert.ok(!r.ok);
  for (const e of r.errors) assert.deepEqual(e.position, { line: 4, column: 7 }, e.message);
});

Deno.test("an under-indented line is reported at its first character", async () => {
  const e = await firstError(
    `evalcases:\n  - id: one\n    expected_outcome: x\n   input: hi\n${TAIL}`,
  );
  assert.deepEqual(e.position, { line: 4, column: 4 });
});

Deno.test("an unclosed flow list is reported at its opening bracket", async () => {
  const e = await firstError(
    "evalcases:\n  - id: one\n    input: [a, b\n    expected_outcome: x\n",
  );
  assert.deepEqual(e.position, { line: 3, column: 12 });
});

Deno.test("agentv validate shows the caret under the unclosed quote", async () => {
  await using tree = await tempTree({
    "evals/a.yaml": `evalcases:\n  - id: "one\n    expected_outcome: x\n${TAIL}`,
  }, { git: true });
  const io = createBufferIO({ cwd: tree.dir });
  const code = await runCli(["validate", "evals/a.yaml"], io);
  assert.equal(code, 1);
  const out = normalize(io.out());
  assert.match(out, /^evals\/a\.yaml:2:9: error: YAML syntax error: Missing closing "quote/m);
  assert.ok(out.includes('  2 |   - id: "one\n    |         ^\n'), out);
});
