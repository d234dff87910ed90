/** Loader: evaluator configs are normalised, and invalid ones skip the case with located diagnostics. */
import assert from "node:assert/strict";
import { validateEvalFile } from "../../mod.ts";
import { dataset, load, yamlCase } from "./_helpers.ts";

Deno.test("inline rubrics, explicit rubric options, tool_trajectory and weights are normalised", async () => {
  await using ds = await dataset({
    "a.yaml": "evalcases:\n" + yamlCase(
      "c",
      [
        "    rubrics:",
        '      - "Must be polite"',
        "    evaluators:",
        "      - type: rubric",
        '        rubrics: ["Must be polite"]',
        '        model: "gpt-4"',
        "      - name: minimum_search_calls",
        "        type: tool_trajectory",
        "        mode: any_order",
        "        minimums:",
        "          knowledgeSearch: 3",
        "      - name: expected_search_pattern",
        "        type: tool_trajectory",
        "        mode: in_order",
        "        expected:",
        "          - tool: knowledgeSearch",
        "          - tool: knowledgeSearch",
        "      - name: safety",
        "        type: llm_judge",
        "        weight: 3",
        "      - type: tool_trajectory",
        "        mode: exact",
        "        expected: [{ tool: a }]",
        "        weight: 0",
        "",
      ].join("\n"),
    ),
  });
  const { cases, diagnostics } = await load(ds.path("a.yaml"));
  assert.deepEqual(diagnostics, []);
  const evs = cases[0].evaluators as unknown as Record<string, unknown>[];
  assert.deepEqual(evs.map((e) => [e.name, e.type, e.weight]), [
    ["rubric", "rubric", 1],
    ["rubric", "rubric", 1], // name defaults to the type
    ["minimum_search_calls", "tool_trajectory", 1],
    ["expected_search_pattern", "tool_trajectory", 1],
    ["safety", "llm_judge", 3],
    ["tool_trajectory", "tool_trajectory", 0],
  ]);
  const descriptions = (e: Record<string, unknown>) =>
    (e.rubrics as { description: string }[]).map((r) => r.description);
  assert.deepEqual(descriptions(evs[0]), ["Must be polite"]);
  assert.deepEqual(descriptions(evs[1]), ["Must be polite"]); // plain strings accepted
  assert.equal(evs[1].model, "gpt-4");
  assert.deepEqual(evs[2].minimums, { knowledgeSearch: 3 });
  assert.equal(evs[3].mode, "in_order");
  assert.deepEqual(evs[3].expected, [{ tool: "knowledgeSearch" }, { tool: "knowledgeSearch" }]);
  assert.equal(evs[5].mode, "exact");
});

Deno.test("invalid evaluators skip the case with located error diagnostics", async () => {
  const bad = (field: string) =>
    `    evaluators:\n      - name: safety\n        type: llm_judge\n        ${field}\n`;
  await using ds = await dataset({
    "a.yaml": "evalcases:\n" + [
      yamlCase("ok"),
      yamlCase("negative", bad("weight: -1")),
      yamlCase("word", bad("weight: high")),
      yamlCase("infinite", bad("weight: .inf")),
      yamlCase(
        "mode",
        "    evaluators:\n      - type: tool_trajectory\n        mode: sometimes\n" +
          "        expected: [{ tool: knowledgeSearch }]\n",
      ),
      yamlCase("unknown-type", "    evaluators:\n      - type: psychic\n"),
    ].join(""),
  });
  const report = await validateEvalFile(ds.path("a.yaml"));
  assert.equal(report.valid, false);
  assert.equal(report.cases, 1);
  assert.equal(report.file, ds.path("a.yaml"));
  const errors = report.diagnostics.filter((d) => d.severity === "error");
  assert.equal(errors.length, 5, JSON.stringify(report.diagnostics, null, 2));
  const [negative, word, infinite, mode, unknown] = errors;
  assert.match(negative.message, /weight/);
  assert.match(negative.message, />= 0/);
  assert.equal(negative.path, "evalcases[1].evaluators[0].weight");
  assert.equal(negative.line, 11);
  assert.equal(negative.column, 17); // the offending value, not the case
  assert.equal(negative.file, ds.path("a.yaml"));
  assert.match(word.message, /weight/);
  assert.equal(word.path, "evalcases[2].evaluators[0].weight");
  assert.equal(word.line, 18);
  assert.equal(infinite.path, "evalcases[3].evaluators[0].weight");
  for (const m of ["any_order", "in_order", "exact"]) assert.match(mode.message, new RegExp(m));
  assert.equal(mode.path, "evalcases[4].evaluators[0].mode");
  assert.equal(mode.line, 31);
  assert.equal(mode.column, 15);
  assert.match(unknown.path ?? "", /^evalcases\[5\]\.evaluators\[0\]/);
  // the same through loadEvalCases: skipped cases reported, valid one returned
  const { cases, diagnostics } = await load(ds.path("a.yaml"));
  assert.deepEqual(cases.map((c) => c.id), ["ok"]);
  assert.deepEqual(diagnostics, report.diagnostics);
});
