/**
 * Human labels: a reviewer's pass/fail (or score) for one case run (dataset, eval id, target,
 * trial), either for the case's overall verdict (`evaluator: null`) or for one evaluator, with a
 * note. Labels are lines of `.agentv/labels.jsonl`, appended by `agentv view` and
 * `agentv label import` and read by `agentv report` and `agentv calibrate`; a label never rewrites
 * a result row.
 *
 * @module
 */
import { z } from "zod";
import type { Assert, Same } from "./_type_check.ts";

/** A reviewer's label of one case run. */
export interface Label {
  /** The run the labelled row belongs to (its `run_id`). */
  run_id: string;
  /** The row's dataset. */
  dataset: string;
  /** The row's case id. */
  eval_id: string;
  /** The row's target. */
  target: string;
  /** The row's trial (0 when each case ran once). */
  trial: number;
  /** The evaluator labelled (its `name`), or `null` for the case's overall verdict. */
  evaluator: string | null;
  /** The reviewer's verdict, or `null` when only a score is given. */
  label: "pass" | "fail" | null;
  /** The reviewer's score in [0, 1], or `null` when only a verdict is given. */
  score: number | null;
  /** Who labelled it. */
  reviewer: string;
  /** Why (may be empty). */
  note: string;
  /** When, as an ISO-8601 date-time. */
  labelled_at: string;
}

/** The shape of a label line (see {@link LabelSchema}). */
const LabelObject = z.strictObject({
  run_id: z.string().min(1),
  dataset: z.string(),
  eval_id: z.string().min(1),
  target: z.string().min(1),
  trial: z.number().int().min(0),
  evaluator: z.string().min(1).nullable(),
  label: z.enum(["pass", "fail"]).nullable(),
  score: z.number().min(0).max(1).nullable(),
  reviewer: z.string().min(1),
  note: z.string(),
  labelled_at: z.iso.datetime({ offset: true }),
}).refine((l) => l.label !== null || l.score !== null, {
  message: "a label needs a `label` (pass or fail) or a `score` (0 to 1)",
  path: ["label"],
});

/**
 * One line of `.agentv/labels.jsonl`: every key present (`evaluator`, `label` and `score` may be
 * `null`), no other key, and at least one of `label` and `score` given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LabelSchema } from "./label.ts";
 * const ok = LabelSchema.safeParse({
 *   run_id: "r1", dataset: "qa", eval_id: "capital", target: "default", trial: 0,
 *   evaluator: null, label: "fail", score: null, reviewer: "ana", note: "wrong city",
 *   labelled_at: "2026-11-27T10:00:00.000Z",
 * });
 * assert.equal(ok.success, true);
 * ```
 */
export const LabelSchema: z.ZodType<Label> = LabelObject;

// The explicit type must say exactly what the schema produces.
type _Checks = [Assert<Same<Label, z.output<typeof LabelObject>>>];
