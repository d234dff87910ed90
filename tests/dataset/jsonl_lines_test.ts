/** Loader: JSONL physical line numbers, blank lines and non-object lines. */
import assert from "node:assert/strict";
import { validateEvalFile } from "../../mod.ts";
import { dataset, line, load, loadError } from "./_helpers.ts";

Deno.test("JSONL evaluator errors name the physical line, the field and the type", async () => {
  await using ds = await dataset({
    "a.jsonl": [
      "",
      line({ id: "a", expected_outcome: "G", input: "Q" }),
      "   ",
      line({
        id: "b",
        expected_outcome: "G",
        input: "Q",
        evaluators: [{ type: "contains", value: "x", weight: -2 }],
      }),
      line({ id: "c", expected_outcome: "G", input_messages: "a string" }),
    ].join("\n"),
  });
  const { cases, diagnostics } = await load(ds.path("a.jsonl"));
  assert.deepEqual(cases.map((c) => c.id), ["a"]);
  assert.equal(diagnostics.length, 2);
  const [weight, type] = diagnostics;
  assert.equal(weight.severity, "error");
  assert.equal(weight.line, 4);
  assert.match(weight.message, /Line 4/);
  assert.match(weight.message, />= 0/);
  assert.equal(weight.path, "evaluators[0].weight");
  const text = line({
    id: "b",
    expected_outcome: "G",
    input: "Q",
    evaluators: [{ type: "contains", value: "x", weight: -2 }],
  });
  assert.equal(weight.column, text.indexOf("-2") + 1);
  assert.equal(type.line, 5);
  assert.match(type.message, /Line 5/);
  assert.match(type.message, /input_messages/);
  assert.match(type.message, /array/);
});

Deno.test("JSONL blank lines are skipped and line numbers stay physical", async () => {
  const ok = (id: string) => line({ id, expected_outcome: "G", input: "Q" });
  await using ds = await dataset({
    "skip.jsonl": [ok("t1"), "", ok("t2"), "   \t", ok("t3"), ""].join("\n"),
    "missing.jsonl": ["", "", ok("t1"), line({ id: "t2", input: "Q" }), ok("t3")].join("\r\n"),
    "bad.jsonl": [
      ok("t1"),
      "",
      ok("t2"),
      ok("t3"),
      '{"id": "t5", "expected_outcome": "G" "input": []}',
    ]
      .join("\n"),
  });
  const skip = await load(ds.path("skip.jsonl"));
  assert.deepEqual(skip.cases.map((c) => c.id), ["t1", "t2", "t3"]);
  assert.deepEqual(skip.diagnostics, []);

  const missing = await load(ds.path("missing.jsonl"));
  assert.deepEqual(missing.cases.map((c) => c.id), ["t1", "t3"]);
  assert.equal(missing.diagnostics.length, 1);
  assert.equal(missing.diagnostics[0].severity, "warning");
  assert.equal(missing.diagnostics[0].line, 4);
  assert.match(missing.diagnostics[0].message, /Line 4/);
  assert.match(missing.diagnostics[0].message, /missing expected_outcome/);

  const error = await loadError(ds.path("bad.jsonl"));
  assert.match(error.message, /Line 5: Invalid JSON/);
  let detail = "";
  try {
    JSON.parse('{"id": "t5", "expected_outcome": "G" "input": []}');
  } catch (e) {
    detail = (e as Error).message;
  }
  // The parser's detail and the column within line 5: never its "(line 1 column 38)".
  const words = detail.replace(/ at position \d+.*$/, "");
  assert.ok(
    error.message.includes(`Line 5: Invalid JSON - ${words} (column 38)`),
    `${error.message} should include '${words} (column 38)'`,
  );
  assert.doesNotMatch(error.message, /line 1 column|at position/);
  assert.equal(error.diagnostics[0].column, 38);
  assert.equal(error.diagnostics[0].line, 5);
  assert.equal(error.diagnostics[0].severity, "error");
  const report = await validateEvalFile(ds.path("bad.jsonl"));
  assert.equal(report.valid, false);
  assert.equal(report.cases, 0);
  assert.match(report.diagnostics[0].message, /Line 5: Invalid JSON/);
});

Deno.test("a JSONL line that is valid JSON but not an object is Invalid JSON", async () => {
  await using ds = await dataset({
    "a.jsonl": `${line({ id: "a", expected_outcome: "G", input: "Q" })}\n[1, 2]\n`,
  });
  const error = await loadError(ds.path("a.jsonl"));
  assert.match(error.message, /Line 2: Invalid JSON/);
});
