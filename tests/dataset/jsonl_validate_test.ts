/**
 * `validate`'s JSONL path (plain cases counted without the case pipeline, ids kept as hashes,
 * targets as line numbers) reports exactly what the loader's full pipeline reports: the same
 * diagnostics (line, column, path, message, in file order), the same count of valid cases and the
 * same target for each, and so the same target errors, on a corpus of ~5,000 mutated cases.
 */
import assert from "node:assert/strict";
import { confirmDuplicates, IdDigests } from "../../lib/dataset/id_digests.ts";
import { checkEvalFile } from "../../lib/dataset/validate_eval_file.ts";
import {
  caseTargetDiagnostics,
  createTargetsVerdictLoader,
} from "../../lib/dataset/check_case_targets.ts";
import { dataset } from "./_helpers.ts";
import { referenceReport, TARGETS } from "./_jsonl_reference.ts";

Deno.test("validate's JSONL path reports a duplicate id at the later case, after its other problems", async () => {
  const lines = [
    { id: "a", expected_outcome: "x", input: "q" },
    { id: "b", expected_outcome: "x", input: "q", typo: 1 },
    { id: "a", expected_outcome: "x", input: "q", typo: 2 },
    { id: "b", expected_outcome: "x", input: "q" },
    { id: "a", expected_outcome: "x", input: "q" },
  ];
  await using tree = await dataset({
    "cases.jsonl": lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  });
  const file = tree.path("cases.jsonl");
  const { report, targets } = await checkEvalFile(file, { root: tree.root });
  assert.deepEqual(report.diagnostics, (await referenceReport(file, tree.root)).diagnostics);
  assert.deepEqual(
    report.diagnostics.map((d) => [d.line, d.column, d.severity, d.message.split(";")[0]]),
    [
      [2, 46, "warning", "Line 2: Unknown key 'typo'"],
      [3, 46, "warning", "Line 3: Unknown key 'typo'"],
      [3, 7, "error", "Line 3: duplicate case id 'a' (first used at line 1)"],
      [4, 7, "error", "Line 4: duplicate case id 'b' (first used at line 2)"],
      [5, 7, "error", "Line 5: duplicate case id 'a' (first used at line 1)"],
    ],
  );
  assert.equal(report.cases, 2);
  assert.deepEqual((await targets.select(() => true)).map((u) => [u.line, u.id]), [
    [1, "a"],
    [2, "b"],
  ]);
});

Deno.test("IdDigests makes a repeated id a suspect, and only equal ids are confirmed duplicates", () => {
  const digests = new IdDigests();
  const ids = ["x", "y", "x", "z", "y", "x"];
  ids.forEach((id, i) => digests.add(id, i + 1));
  assert.deepEqual(digests.suspects(), [
    { line: 3, first: 1 },
    { line: 5, first: 2 },
    { line: 6, first: 1 },
  ]);
  const idOf = new Map(ids.map((id, i) => [i + 1, id]));
  assert.deepEqual(confirmDuplicates(digests.suspects(), idOf), [
    { line: 3, first: 1 },
    { line: 5, first: 2 },
    { line: 6, first: 1 },
  ]);
  // Lines that only hashed alike (a collision) are not duplicates; a later equal id still is.
  const collided = new Map([[1, "p"], [4, "q"], [9, "q"]]);
  assert.deepEqual(
    confirmDuplicates([{ line: 4, first: 1 }, { line: 9, first: 1 }], collided),
    [{ line: 9, first: 4 }],
  );
});

Deno.test("IdDigests keeps 100,000 distinct ids apart (no suspect) while growing", () => {
  const digests = new IdDigests();
  for (let i = 1; i <= 100_000; i++) digests.add(`case-${i}`, i);
  assert.deepEqual(digests.suspects(), []);
  digests.add("case-77", 100_001);
  assert.deepEqual(digests.suspects(), [{ line: 100_001, first: 77 }]);
});

Deno.test("validate of a JSONL file whose target is undefined names each case, at its target", async () => {
  const lines = [
    { id: "own", expected_outcome: "x", input: "q", execution: { target: "nope" } },
    { id: "inherited", expected_outcome: "x", input: "q" },
    { id: "fine", expected_outcome: "x", input: "q", execution: { target: "side" } },
  ];
  await using tree = await dataset({
    "evals/cases.jsonl": lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
    "evals/cases.yaml": "execution:\n  target: missing\n",
    ".agentv/targets.yaml": TARGETS,
  });
  const file = tree.path("evals/cases.jsonl");
  const { targets } = await checkEvalFile(file, { root: tree.root });
  const verdict = await createTargetsVerdictLoader()(file, tree.root);
  const found = await caseTargetDiagnostics(verdict, file, targets);
  assert.deepEqual(found.map((d) => [d.line, d.column, d.path]), [
    [1, 70, "execution.target"],
    [2, 7, "id"],
  ]);
  assert.match(found[0].message, /^Case 'own': target 'nope' is not defined in .*; expected one/);
  assert.match(found[1].message, /^Case 'inherited': target 'missing' \(the file's default/);
});
