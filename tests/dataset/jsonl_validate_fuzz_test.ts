/**
 * `validate`'s JSONL path, fuzz tier: on a corpus of ~5,000 mutated cases, the quick path (plain
 * cases counted without the case pipeline, ids kept as hashes, targets as line numbers) reports
 * exactly what the loader's full pipeline reports: the same diagnostics (line, column, path,
 * message, in file order), the same count of valid cases and the same target for each, and so the
 * same target errors. (The hand-written cases are jsonl_validate_test.ts.)
 */
import assert from "node:assert/strict";
import { ListedTargets } from "../../lib/dataset/case_targets.ts";
import { isPlainCase } from "../../lib/dataset/plain_case.ts";
import { checkEvalFile } from "../../lib/dataset/validate_eval_file.ts";
import {
  caseTargetDiagnostics,
  createTargetsVerdictLoader,
} from "../../lib/dataset/check_case_targets.ts";
import { splitJsonlLines } from "../../lib/dataset/jsonl_source.ts";
import { dataset } from "./_helpers.ts";
import { corpusText } from "./_mutated_cases.ts";
import { referenceReport, TARGETS } from "./_jsonl_reference.ts";

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
