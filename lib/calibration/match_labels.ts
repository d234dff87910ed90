/**
 * Labels matched to the result rows they label. A label names a run (`run_id`), a case run
 * (dataset, case id, target, trial) and either an evaluator (its `name` among the row's
 * `evaluator_results`) or, with `evaluator: null`, the row's overall verdict. Only the latest label
 * of each reviewer counts (`latestLabels`). A label that names no row of the results given, an
 * error row, or an evaluator that did not score is not matched, and says why.
 *
 * @module
 */
import { caseRunKey, latestLabels } from "../results/labels.ts";
import type { Label } from "../schema/label.ts";
import {
  type EvaluatorResult,
  PASS_THRESHOLD,
  type ResultRow,
  type Verdict,
} from "../schema/result.ts";
import { suggest } from "../text/suggest.ts";

/** A judge target and the model it was asked for, as a judged evaluator recorded them. */
export interface JudgeIdentity {
  /** The judge target's name. */
  target: string;
  /** The model sent (an evaluator's `model`, else the target's), when recorded. */
  model: string | null;
}

/** What was judged: the row's overall verdict or one evaluator's result. */
export interface JudgedVerdict {
  /** The verdict (pass is the positive class; borderline counts as not passed). */
  verdict: Verdict;
  /** The score, from 0 to 1. */
  score: number;
  /** The evaluator's type (`null` for the overall verdict). */
  type: string | null;
  /** Why the judge decided so: its reasoning, else its first misses; `null` when none. */
  reasoning: string | null;
  /** The judges behind it (an evaluator's own; every judged evaluator's for the overall verdict). */
  judges: JudgeIdentity[];
}

/** One labelled thing: what the judge said and what each reviewer said. */
export interface LabelledItem {
  /** The labelled row's run. */
  run_id: string;
  /** Dataset. */
  dataset: string;
  /** Case id. */
  eval_id: string;
  /** Target. */
  target: string;
  /** Trial. */
  trial: number;
  /** The evaluator labelled, or `null` for the overall verdict. */
  evaluator: string | null;
  /** What the judge said. */
  judge: JudgedVerdict;
  /** Each reviewer's latest label of it, in file order. */
  labels: Label[];
}

/** A label that labels nothing in the results given, and why. */
export interface UnmatchedLabel {
  /** The label. */
  label: Label;
  /** Why it matches no judged verdict. */
  reason: string;
}

/** What {@link matchLabels} found. */
export interface LabelMatch {
  /** The labelled items, in the order their first label appears. */
  items: LabelledItem[];
  /** Labels that match nothing. */
  unmatched: UnmatchedLabel[];
  /** Labels after keeping each reviewer's latest. */
  latest: number;
}

/**
 * The people's verdict of a label: its `label`, else its score against the pass threshold
 * (a score of 0.8 or more passes, as agentv's verdicts do).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { humanVerdict } from "./match_labels.ts";
 * assert.equal(humanVerdict({ label: null, score: 0.8 }), "pass");
 * assert.equal(humanVerdict({ label: "fail", score: 0.9 }), "fail");
 * ```
 */
export function humanVerdict(label: Pick<Label, "label" | "score">): "pass" | "fail" {
  if (label.label !== null) return label.label;
  return (label.score ?? 0) >= PASS_THRESHOLD ? "pass" : "fail";
}

/** The judges a result (and its composite members) recorded in `evaluator_provider_request`. */
function judgesOf(
  results: readonly EvaluatorResult[],
  into: JudgeIdentity[] = [],
): JudgeIdentity[] {
  for (const r of results) {
    const request = r.evaluator_provider_request as { target?: unknown; model?: unknown } | null;
    if (request !== null && typeof request === "object" && typeof request.target === "string") {
      const model = typeof request.model === "string" ? request.model : null;
      if (!into.some((j) => j.target === request.target && j.model === model)) {
        into.push({ target: request.target, model });
      }
    }
    if (r.evaluator_results) judgesOf(r.evaluator_results, into);
  }
  return into;
}

function reasoningOf(reasoning: string | null | undefined, misses: readonly string[]) {
  const text = reasoning?.trim();
  if (text) return text;
  return misses.length > 0 ? misses.slice(0, 3).join("; ") : null;
}

/** What the judge said on `row` for `evaluator`, or why there is nothing to compare. */
function judgedVerdict(row: ResultRow, evaluator: string | null): JudgedVerdict | string {
  if (row.status !== "ok") {
    return `its row is an ${row.status} row (${row.error ?? "not scored"}): there is no verdict`;
  }
  if (evaluator === null) {
    return {
      verdict: row.verdict,
      score: row.score,
      type: null,
      reasoning: reasoningOf(row.reasoning, row.misses),
      judges: judgesOf(row.evaluator_results),
    };
  }
  const result = row.evaluator_results.find((e) => e.name === evaluator);
  if (result === undefined) {
    const names = row.evaluator_results.map((e) => e.name);
    const guess = suggest(evaluator, names);
    return `its row has no evaluator '${evaluator}'${guess ? `; did you mean '${guess}'?` : ""}` +
      ` (it has ${names.map((n) => `'${n}'`).join(", ") || "none"})`;
  }
  if (result.status !== "ok") {
    return `evaluator '${evaluator}' did not score on its row (${result.status}` +
      `${result.error ? `: ${result.error}` : ""})`;
  }
  return {
    verdict: result.verdict,
    score: result.score,
    type: result.type,
    reasoning: reasoningOf(result.reasoning, result.misses),
    judges: judgesOf([result]),
  };
}

/**
 * Matches labels to the rows of the results given (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ResultRow } from "../schema/result.ts";
 * import { matchLabels } from "./match_labels.ts";
 * const row = { run_id: "r1", dataset: "qa", eval_id: "a", target: "t", trial: 0, status: "ok",
 *   verdict: "pass", score: 1, reasoning: null, misses: [], evaluator_results: [] } as unknown as ResultRow;
 * const label = { run_id: "r1", dataset: "qa", eval_id: "a", target: "t", trial: 0, evaluator: null,
 *   label: "fail" as const, score: null, reviewer: "ana", note: "", labelled_at: "2026-11-27T10:00:00Z" };
 * const { items, unmatched } = matchLabels([row], [label, { ...label, run_id: "r2" }]);
 * assert.equal(items.length, 1);
 * assert.equal(unmatched.length, 1);
 * ```
 */
export function matchLabels(rows: readonly ResultRow[], labels: readonly Label[]): LabelMatch {
  const byKey = new Map<string, ResultRow>();
  const runs = new Set<string>();
  for (const row of rows) {
    if (row.run_id === null) continue;
    runs.add(row.run_id);
    byKey.set(`${row.run_id}\0${caseRunKey(row)}`, row);
  }
  const latest = latestLabels(labels);
  const items = new Map<string, LabelledItem>();
  const unmatched: UnmatchedLabel[] = [];
  for (const label of latest) {
    const row = byKey.get(`${label.run_id}\0${caseRunKey(label)}`);
    if (row === undefined) {
      unmatched.push({ label, reason: noRowReason(label, runs) });
      continue;
    }
    const key = `${label.run_id}\0${caseRunKey(label)}\0${label.evaluator ?? ""}`;
    let item = items.get(key);
    if (item === undefined) {
      const judged = judgedVerdict(row, label.evaluator);
      if (typeof judged === "string") {
        unmatched.push({ label, reason: judged });
        continue;
      }
      item = {
        run_id: label.run_id,
        dataset: label.dataset,
        eval_id: label.eval_id,
        target: label.target,
        trial: label.trial,
        evaluator: label.evaluator,
        judge: judged,
        labels: [],
      };
      items.set(key, item);
    }
    item.labels.push(label);
  }
  return { items: [...items.values()], unmatched, latest: latest.length };
}

function noRowReason(label: Label, runs: ReadonlySet<string>): string {
  if (!runs.has(label.run_id)) {
    return `no results file given holds run '${label.run_id}'`;
  }
  return `run '${label.run_id}' has no row for case '${label.eval_id}' (dataset '${label.dataset}',` +
    ` target '${label.target}', trial ${label.trial})`;
}
