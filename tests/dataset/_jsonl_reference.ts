/**
 * The reference for `validate`'s JSONL path: what the loader's full pipeline reports for a file.
 *
 * @module
 */
import type { Diagnostic } from "../../lib/schema/eval_case.ts";
import { loadEvalFile } from "../../lib/dataset/load_eval_file.ts";
import type { CaseTargetUse } from "../../lib/dataset/validate_eval_file.ts";
import { locateInJsonLine, splitJsonlLines } from "../../lib/dataset/jsonl_source.ts";
import { caseJudgeNeeds } from "../../lib/schema/judge_needs.ts";

/** What `validate` reported for a JSONL file before it had a quick path: the loader's own load. */
export async function referenceReport(file: string, root: string) {
  const diagnostics: Diagnostic[] = [];
  const uses: CaseTargetUse[] = [];
  await loadEvalFile(file, {
    root,
    sites: true,
    onDiagnostic: (d) => diagnostics.push(d),
    onCase: (c, site) =>
      uses.push({ ...site!, id: c.id, target: c.execution.target, needs: caseJudgeNeeds(c) }),
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

/** Two mock targets: `default` and `side`. */
export const TARGETS =
  "targets:\n  - name: default\n    provider: mock\n    judge_target: j\n  - name: side\n    provider: mock\n    judge_target: j\n  - name: j\n    provider: mock\n    judge: true\n";
