/**
 * Human labels beside the automatic verdicts: which labelled case runs (or evaluators) a reviewer
 * judged differently from agentv. A `pass`/`fail` label disagrees when the automatic verdict is on
 * the other side, a `borderline` verdict counting as a pass (as JUnit counts it); for a label of
 * one evaluator, that evaluator's verdict is compared. A label with only a score is shown, not
 * counted. Only the latest label of each reviewer counts (see `latestLabels`).
 *
 * @module
 */
import type { Label } from "../schema/label.ts";
import type { ResultRow, Verdict } from "../schema/result.ts";
import { caseRunKey, latestLabels } from "./labels.ts";

/** One label and the verdict it is compared with. */
export interface LabelComparison {
  /** The label. */
  label: Label;
  /** The automatic verdict it is about (the row's, or the evaluator's); null when not found. */
  automatic: Verdict | null;
  /** Whether label and verdict disagree (null when the label has no pass/fail or no verdict). */
  disagrees: boolean | null;
}

/** What {@link compareLabels} found over a run. */
export interface LabelAgreement {
  /** Labels that count (latest per reviewer) of rows in the run. */
  labels: number;
  /** Those with a pass/fail compared with a verdict. */
  compared: number;
  /** Those that disagree. */
  disagreements: number;
  /** Every label that counts, with its comparison, in row order. */
  items: LabelComparison[];
}

/** The verdict a label is about: the row's, or the named evaluator's. */
function automaticVerdict(row: ResultRow, evaluator: string | null): Verdict | null {
  if (evaluator === null) return row.status === "ok" ? row.verdict : "fail";
  const result = row.evaluator_results.find((r) => r.name === evaluator);
  return result === undefined || result.status !== "ok" ? null : result.verdict;
}

/**
 * Compares the labels of `rows` (matched by run id, dataset, case id, target and trial) with the
 * automatic verdicts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ResultRow } from "../schema/result.ts";
 * import { compareLabels } from "./label_agreement.ts";
 * const row = { run_id: "r", dataset: "d", eval_id: "a", target: "t", trial: 0, status: "ok",
 *   verdict: "pass", evaluator_results: [] } as unknown as ResultRow;
 * const label = { run_id: "r", dataset: "d", eval_id: "a", target: "t", trial: 0,
 *   evaluator: null, label: "fail" as const, score: null, reviewer: "ana", note: "",
 *   labelled_at: "2026-01-01T00:00:00Z" };
 * assert.equal(compareLabels([row], [label]).disagreements, 1);
 * ```
 */
export function compareLabels(
  rows: readonly ResultRow[],
  labels: readonly Label[],
): LabelAgreement {
  const byKey = new Map<string, ResultRow>();
  for (const row of rows) byKey.set(`${row.run_id ?? ""}\0${caseRunKey(row)}`, row);
  const out: LabelAgreement = { labels: 0, compared: 0, disagreements: 0, items: [] };
  for (const label of latestLabels(labels)) {
    const row = byKey.get(`${label.run_id}\0${caseRunKey(label)}`);
    if (row === undefined) continue;
    const automatic = automaticVerdict(row, label.evaluator);
    const disagrees = label.label === null || automatic === null
      ? null
      : (label.label === "pass") !== (automatic !== "fail");
    out.labels++;
    if (disagrees !== null) out.compared++;
    if (disagrees) out.disagreements++;
    out.items.push({ label, automatic, disagrees });
  }
  return out;
}
