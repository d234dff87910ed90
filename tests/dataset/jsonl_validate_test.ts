/**
 * `validate`'s JSONL path (plain cases counted without the case pipeline, ids kept as hashes,
 * targets as line numbers) reports exactly what the loader's full pipeline reports: the same
 * diagnostics (line, column, path, message, in file order), the same count of valid cases and the
 * same target for each, and so the same target errors, on a corpus of ~5,000 mutated cases.
 */
import assert from "node:assert/strict";
import { ListedTargets } from "../../lib/dataset/case_targets.ts";
import { confirmDuplicates, IdDigests } from "../../lib/dataset/id_digests.ts";
import { loadEvalFile } from "../../lib/dataset/load_eval_file.ts";
import { isPlainCase } from "../../lib/dataset/plain_case.ts";
import { type CaseTargetUse, checkEvalFile } from "../../lib/dataset/validate_eval_file.ts";
import {
  caseTargetDiagnostics,
  createTargetsVerdictLoader,
} from "../../lib/dataset/check_case_targets.ts";
import type { Diagnostic } from "../../lib/schema/eval_case.ts";
import { locateInJsonLine, splitJsonlLines } from "../../lib/dataset/jsonl_source.ts";
import { dataset } from "./_helpers.ts";
import { corpusText } from "./_mutated_cases.ts";

/** What `validate` reported for a JSONL file before it had a quick path: the loader's own load. */
async function referenceReport(file: string, root: string) {
  const diagnostics: Diagnostic[] = [];
  const uses: CaseTargetUse[] = [];
  await loadEvalFile(file, {
    root,
    sites: true,
    onDiagnostic: (d) => diagnostics.push(d),
    onCase: (c, site) => uses.push({ ...site!, id: c.id, target: c.execution.target }),
  });
  // A JSONL site has its line; the column is where the case names its target.
  const texts = new Map([...splitJsonlLines(await Deno.readTextFile(file))].map((l) => [
    l.line,
    l.text,
  ]));
  const located = uses.map((u) => ({
    ...u,
    column: locateInJsonLine(texts.get(u.line!)!, u.ownTarget ? ["execution", "target"] : ["id"]),
  }));
  return { cases: uses.length, diagnostics, uses: located };
}

const TARGETS =
  "targets:\n  - name: default\n    provider: mock\n  - name: side\n    provider: mock\n";

for (
  const [label, sidecar] of [
    ["without a sidecar", undefined],
    ["with a sidecar target", "execution:\n  target: side\n"],
    ["with a legacy sidecar target", "target: legacy\n"],
  ] as const
) {
  Deno.test(`validate's JSONL path reports what the full pipeline reports on mutated cases, ${label}`, async () => {
    const text = corpusText();
    // Over 2 MiB: the compiled case parser takes over once a line needs the schemas.
    assert.ok(text.length >= 2 * 1024 * 1024);
    await using tree = await dataset({
      "evals/cases.jsonl": text,
      ...(sidecar !== undefined ? { "evals/cases.yaml": sidecar } : {}),
      "evals/docs/guide.md": "Be kind.\n",
      ".agentv/targets.yaml": TARGETS,
    });
    const file = tree.path("evals/cases.jsonl");
    const reference = await referenceReport(file, tree.root);
    for (const plainCases of [true, false]) {
      const { report, targets } = await checkEvalFile(file, { root: tree.root, plainCases });
      assert.deepEqual(report.diagnostics, reference.diagnostics);
      assert.equal(report.cases, reference.cases);
      assert.equal(report.valid, !reference.diagnostics.some((d) => d.severity === "error"));
      assert.deepEqual(await targets.select(() => true), reference.uses);
      const verdict = await createTargetsVerdictLoader()(file, tree.root);
      assert.deepEqual(
        await caseTargetDiagnostics(verdict, file, targets),
        await caseTargetDiagnostics(verdict, file, new ListedTargets(reference.uses)),
      );
    }
    // Both sides of the quick check are exercised: many cases are plain, many are not.
    const records = [...splitJsonlLines(text)].map((l) => JSON.parse(l.text));
    const plain = records.filter(isPlainCase).length;
    assert.ok(plain > 500 && records.length - plain > 2000, `${plain} of ${records.length} plain`);
    assert.ok(reference.diagnostics.length > 2000 && reference.cases > 1000);
  });
}

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
