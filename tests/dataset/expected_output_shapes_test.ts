/**
 * `expected_output` shapes: `null` (YAML's empty key) is no expected output, a list of data
 * items (no `role`) is structured content, a list of messages stays messages, and a list that
 * mixes the two is rejected at the item that breaks the rule.
 */
import assert from "node:assert/strict";
import { loadEvalCases } from "../../lib/dataset/load_eval_cases.ts";
import { validateEvalFile } from "../../lib/dataset/validate_eval_file.ts";
import { referenceAnswer } from "../../lib/scoring/judge_prompt.ts";
import { tempTree } from "../_helpers/temp_tree.ts";

const RECORDS = [
  { invoice: "A-1", amount: 120.5, lines: [{ sku: "x", qty: 2 }] },
  { invoice: "A-2", amount: 8 },
];

Deno.test("expected_output: null (an empty YAML key or JSONL null) means no expected output", async () => {
  await using tree = await tempTree({
    "cases.yaml": `evalcases:
  - id: empty-key
    expected_outcome: Greets
    input: Hi
    expected_output:
  - id: explicit-null
    expected_outcome: Greets
    input: Hi
    expected_output: null
`,
    "nulls.jsonl": JSON.stringify({
      id: "jsonl-null",
      expected_outcome: "Greets",
      input: "Hi",
      expected_output: null,
    }) + "\n" +
      JSON.stringify({
        id: "jsonl-messages-null",
        expected_outcome: "Greets",
        input: "Hi",
        expected_messages: null,
      }) + "\n",
  }, { git: true });
  for (const file of ["cases.yaml", "nulls.jsonl"]) {
    const report = await validateEvalFile(tree.path(file));
    assert.deepEqual(report.diagnostics, [], file);
    const cases = await loadEvalCases(tree.path(file));
    assert.equal(cases.length, 2, file);
    for (const c of cases) assert.deepEqual(c.expected_output, [], c.id);
  }
});

Deno.test("an expected_output list of data items is one assistant message with the list as content", async () => {
  await using tree = await tempTree({
    "cases.yaml": `evalcases:
  - id: records
    expected_outcome: Extracts both invoices
    input: Extract the invoices
    expected_output:
      - invoice: A-1
        amount: 120.5
        lines:
          - { sku: x, qty: 2 }
      - invoice: A-2
        amount: 8
  - id: scalars
    expected_outcome: Lists the cities
    input: Cities?
    expected_output: [Paris, Lyon]
`,
    "records.jsonl": JSON.stringify({
      id: "records",
      expected_outcome: "Extracts both invoices",
      input: "Extract the invoices",
      expected_output: RECORDS,
    }) + "\n",
  }, { git: true });
  const report = await validateEvalFile(tree.path("cases.yaml"));
  assert.deepEqual(report.diagnostics, []);
  const [records, scalars] = await loadEvalCases(tree.path("cases.yaml"));
  assert.deepEqual(records.expected_output, [{ role: "assistant", content: RECORDS }]);
  assert.deepEqual(scalars.expected_output, [{ role: "assistant", content: ["Paris", "Lyon"] }]);
  const [fromJsonl] = await loadEvalCases(tree.path("records.jsonl"));
  assert.deepEqual(fromJsonl.expected_output, records.expected_output);
  assert.match(referenceAnswer(records.expected_output), /A-2/);
});

Deno.test("an expected_output list of messages stays a list of messages", async () => {
  await using tree = await tempTree({
    "cases.yaml": `evalcases:
  - id: messages
    expected_outcome: Searches then answers
    input: Go
    expected_output:
      - role: assistant
        tool_calls:
          - tool: search
            input: { q: paris }
      - role: assistant
        content: Paris
`,
  }, { git: true });
  const [c] = await loadEvalCases(tree.path("cases.yaml"));
  assert.deepEqual(c.expected_output, [
    { role: "assistant", tool_calls: [{ tool: "search", input: { q: "paris" } }] },
    { role: "assistant", content: "Paris" },
  ]);
});

Deno.test("a list mixing messages and data items is rejected at the item that breaks the rule", async () => {
  await using tree = await tempTree({
    "cases.yaml": `evalcases:
  - id: data-then-message
    expected_outcome: G
    input: Hi
    expected_output:
      - invoice: A-1
      - role: assistant
        content: A-2
  - id: message-then-data
    expected_outcome: G
    input: Hi
    expected_output:
      - role: assistant
        content: A-1
      - invoice: A-2
  - id: bad-role
    expected_outcome: G
    input: Hi
    expected_output:
      - role: bot
        content: x
`,
  }, { git: true });
  const report = await validateEvalFile(tree.path("cases.yaml"));
  assert.equal(report.valid, false);
  const errors = report.diagnostics.filter((d) => d.severity === "error");
  assert.equal(errors.length, 3, JSON.stringify(errors, null, 2));
  const [dataFirst, messageFirst, badRole] = errors;
  assert.equal(dataFirst.path, "evalcases[0].expected_output[1].role");
  assert.equal(dataFirst.line, 7);
  assert.match(dataFirst.message, /either all messages .* or all data items/);
  assert.equal(messageFirst.path, "evalcases[1].expected_output[1].role");
  assert.equal(messageFirst.line, 15);
  assert.match(messageFirst.message, /missing role/);
  assert.equal(badRole.path, "evalcases[2].expected_output[0].role");
  assert.match(badRole.message, /role must be one of system, user, assistant, tool/);
});
