/**
 * How a label is kept in the store: its columns, and a key that is the SHA-256 of the label's
 * fields, so the same label imported twice (from the file and from the viewer) is kept once.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { Label } from "../schema/label.ts";
import type { SqlRow, SqlValue } from "./sql_driver.ts";

/** The columns of `agentv_labels`, in order. */
export const LABEL_COLUMNS: readonly string[] = [
  "label_key",
  "run_id",
  "dataset",
  "eval_id",
  "target",
  "trial",
  "evaluator",
  "label",
  "score",
  "reviewer",
  "note",
  "labelled_at",
];

/** The label's values for every column but the key. */
export function labelValues(l: Label): SqlValue[] {
  return [
    l.run_id,
    l.dataset,
    l.eval_id,
    l.target,
    l.trial,
    l.evaluator,
    l.label,
    l.score,
    l.reviewer,
    l.note,
    l.labelled_at,
  ];
}

/**
 * The key of a label: the SHA-256 of its fields in a fixed order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { labelKey } from "./store_labels.ts";
 * const label = { run_id: "r", dataset: "d", eval_id: "a", target: "t", trial: 0,
 *   evaluator: null, label: "pass" as const, score: null, reviewer: "ana", note: "",
 *   labelled_at: "2026-01-01T00:00:00Z" };
 * assert.equal(labelKey(label), labelKey({ ...label }));
 * assert.notEqual(labelKey(label), labelKey({ ...label, note: "x" }));
 * ```
 */
export function labelKey(l: Label): string {
  return createHash("sha256").update(JSON.stringify(labelValues(l))).digest("hex");
}

/** The label a row of `agentv_labels` holds. */
export function labelOf(r: SqlRow): Label {
  return {
    run_id: String(r.run_id),
    dataset: String(r.dataset),
    eval_id: String(r.eval_id),
    target: String(r.target),
    trial: Number(r.trial),
    evaluator: r.evaluator === null ? null : String(r.evaluator),
    label: r.label === null ? null : (String(r.label) as "pass" | "fail"),
    score: r.score === null ? null : Number(r.score),
    reviewer: String(r.reviewer),
    note: String(r.note),
    labelled_at: String(r.labelled_at),
  };
}
