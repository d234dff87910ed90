/** Loader: the public API from `mod.ts` (errors, diagnostics, streaming, score shape). */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type EvalCase,
  type EvaluationScore,
  loadEvalCases,
  streamEvalCases,
  validateEvalFile,
} from "../../mod.ts";
import { dataset, EQUIV, load, loadError, yamlCase } from "./_helpers.ts";

Deno.test("file-level failures throw EvalLoadError; validateEvalFile never throws", async () => {
  await using ds = await dataset({
    "a.json": "{}",
    "a.txt": "x",
    "noext": "x",
    "syntax.yaml": "evalcases:\n  - id: a\n    expected_outcome: [Goal\n",
    "no_cases.yaml": "description: no cases\n",
    "list.yaml": "- a\n- b\n",
    "binary.yaml": new Uint8Array([0, 1, 2, 255, 254, 0]),
    "latin1.jsonl": new Uint8Array([123, 34, 105, 100, 34, 58, 34, 0xe9, 34, 125, 10]),
    "folder.yaml/x": "",
  });
  for (const name of ["a.json", "a.txt", "noext"]) {
    const error = await loadError(ds.path(name));
    for (const ext of [".yaml", ".yml", ".jsonl"]) assert.ok(error.message.includes(ext));
  }
  const syntax = await loadError(ds.path("syntax.yaml"));
  assert.equal(typeof syntax.diagnostics[0].line, "number");
  assert.equal(typeof syntax.diagnostics[0].column, "number");
  assert.match((await loadError(ds.path("no_cases.yaml"))).message, /evalcases/);
  await loadError(ds.path("list.yaml"));
  await loadError(ds.path("missing.yaml"));
  await loadError(ds.path("binary.yaml"));
  await loadError(ds.path("latin1.jsonl"));
  await loadError(ds.path("folder.yaml"));
  for (
    const name of [
      "a.json",
      "noext",
      "syntax.yaml",
      "no_cases.yaml",
      "list.yaml",
      "missing.yaml",
      "binary.yaml",
      "latin1.jsonl",
      "folder.yaml",
    ]
  ) {
    const report = await validateEvalFile(ds.path(name));
    assert.equal(report.valid, false, name);
    assert.equal(report.cases, 0);
    assert.ok(report.diagnostics.some((d) => d.severity === "error"));
    for (const d of report.diagnostics) assert.equal(typeof d.message, "string");
  }
});

Deno.test("Diagnostic has exactly the documented fields", async () => {
  await using ds = await dataset({
    "a.yaml": "evalcases:\n" + yamlCase("a", "    tpyo: 1\n") + "  - id: b\n    input: Q\n",
  });
  const report = await validateEvalFile(ds.path("a.yaml"));
  assert.equal(report.valid, true); // unknown key and missing outcome are warnings
  assert.equal(report.cases, 1);
  assert.deepEqual(Object.keys(report).sort(), [
    "cases",
    "diagnostics",
    "file",
    "targets",
    "valid",
  ]);
  assert.deepEqual(report.targets.map((t) => [t.id, t.target, t.line]), [["a", "default", 2]]);
  const allowed = new Set(["severity", "file", "line", "column", "path", "message"]);
  for (const d of report.diagnostics) {
    for (const key of Object.keys(d)) assert.ok(allowed.has(key), key);
    assert.ok(d.severity === "error" || d.severity === "warning");
  }
  const typo = report.diagnostics.find((d) => d.message.includes("tpyo"))!;
  assert.equal(typo.path, "evalcases[0].tpyo");
  assert.equal(typo.line, 5);
  assert.equal(typo.column, 5);
  const missing = report.diagnostics.find((d) => /missing expected_outcome/.test(d.message))!;
  assert.equal(missing.severity, "warning");
  assert.equal(missing.line, 6);
});

Deno.test("misplaced known keys are not answered with 'did you mean' the same key", async () => {
  await using ds = await dataset({
    "a.yaml": "evalcases:\n" + yamlCase(
      "a",
      "    evaluators:\n      - type: contains\n        value: x\n        rubrics: [a]\n",
    ),
  });
  const { diagnostics } = await load(ds.path("a.yaml"));
  assert.equal(diagnostics.length, 1);
  assert.doesNotMatch(diagnostics[0].message, /did you mean 'rubrics'/);
  assert.equal(diagnostics[0].path, "evalcases[0].evaluators[0].rubrics");
});

Deno.test("streamEvalCases yields what loadEvalCases returns", async () => {
  const path = join(EQUIV, "evals/sub/cases_jsonl.jsonl");
  const streamed: EvalCase[] = [];
  for await (const c of streamEvalCases(path)) streamed.push(c);
  assert.deepEqual(streamed, await loadEvalCases(path));
});

Deno.test("EvaluationScore has score, verdict?, hits, misses, reasoning?", () => {
  const full: EvaluationScore = {
    score: 0.5,
    verdict: "borderline",
    hits: ["a"],
    misses: [],
    reasoning: "r",
  };
  const minimal: EvaluationScore = { score: 1, hits: [], misses: [] };
  // @ts-expect-error: only pass | fail | borderline
  const wrong: EvaluationScore = { score: 1, hits: [], misses: [], verdict: "maybe" };
  assert.deepEqual([full.verdict, minimal.verdict, wrong.score], ["borderline", undefined, 1]);
});
