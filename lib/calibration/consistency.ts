/**
 * How much a judge disagrees with itself. The same stored answer is judged K times (`--repeat`:
 * the same prompt; `--orders`: the rubric items in K orders); per answer and evaluator, the flip
 * rate (the share of the K verdicts that differ from the most common one) and the standard
 * deviation of the scores; an answer is unstable when its verdicts are not all the same. Per
 * evaluator, the share of unstable answers (with a seeded bootstrap interval) and the answers
 * named. The K orders of rubric items are deterministic: the written one, then seeded shuffles.
 *
 * @module
 */
import { createRng } from "../compare/statistics.ts";
import type { Rubric } from "../schema/evaluator.ts";
import type { Verdict } from "../schema/result.ts";
import { type BootstrapSettings, type Estimate, estimateFigures } from "./bootstrap.ts";

/** One judgement of a re-ask: its verdict and score, or why it failed. */
export interface RejudgeSample {
  /** `ok` when the judge scored; `error` when it could not (see `error`). */
  status: "ok" | "error";
  /** The verdict (when `ok`). */
  verdict: Verdict;
  /** The score (when `ok`). */
  score: number;
  /** Why it could not score. */
  error?: string;
}

/** A stored answer judged again by one evaluator, K times. */
export interface RejudgedItem {
  /** The row's run. */
  run_id: string | null;
  /** Dataset. */
  dataset: string;
  /** Case id. */
  eval_id: string;
  /** Target. */
  target: string;
  /** Trial. */
  trial: number;
  /** The evaluator's name. */
  evaluator: string;
  /** The evaluator's type. */
  type: string;
  /** The verdict and score stored in the results. */
  original: { verdict: Verdict; score: number };
  /** The K judgements, in order (repeat or order index). */
  samples: RejudgeSample[];
}

/** An evaluator that was not judged again, and why. */
export interface RejudgeSkip {
  /** The evaluator's name. */
  evaluator: string;
  /** Why. */
  reason: string;
  /** Rows it was skipped on. */
  rows: number;
}

/** The consistency of one answer under one evaluator. */
export interface ItemConsistency {
  /** The row's run. */
  run_id: string | null;
  /** Dataset. */
  dataset: string;
  /** Case id. */
  eval_id: string;
  /** Target. */
  target: string;
  /** Trial. */
  trial: number;
  /** Evaluator name. */
  evaluator: string;
  /** Judgements that scored. */
  samples: number;
  /** Judgements that failed (left out of the figures). */
  errors: number;
  /** The verdicts counted. */
  verdicts: { pass: number; borderline: number; fail: number };
  /** Share of the verdicts that differ from the most common one; `null` below two. */
  flip_rate: number | null;
  /** Sample standard deviation of the scores; `null` below two. */
  score_sd: number | null;
  /** The scores, in order. */
  scores: number[];
  /** Whether its verdicts were not all the same. */
  unstable: boolean;
}

/** The consistency of one evaluator over the answers judged again. */
export interface EvaluatorConsistency {
  /** Evaluator name. */
  evaluator: string;
  /** Evaluator type. */
  type: string;
  /** Answers with two or more verdicts (what the figures rest on). */
  items: number;
  /** Answers whose verdicts were not all the same. */
  unstable: number;
  /** unstable / items, with its interval. */
  unstable_share: Estimate;
  /** Mean flip rate over the answers; `null` with none. */
  mean_flip_rate: number | null;
  /** Mean score standard deviation over the answers; `null` with none. */
  mean_score_sd: number | null;
}

/** What {@link summarizeConsistency} found. */
export interface ConsistencyReport {
  /** `repeat`: the same prompt K times; `order`: the rubric items in K orders. */
  kind: "repeat" | "order";
  /** K. */
  k: number;
  /** Per evaluator, in first-seen order. */
  evaluators: EvaluatorConsistency[];
  /** Every answer under every evaluator, unstable first. */
  items: ItemConsistency[];
}

function itemConsistency(item: RejudgedItem): ItemConsistency {
  const ok = item.samples.filter((s) => s.status === "ok");
  const verdicts = { pass: 0, borderline: 0, fail: 0 };
  for (const s of ok) verdicts[s.verdict]++;
  const scores = ok.map((s) => s.score);
  const most = Math.max(verdicts.pass, verdicts.borderline, verdicts.fail);
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const sd = scores.length < 2
    ? null
    : Math.sqrt(scores.reduce((a, v) => a + (v - mean) ** 2, 0) / (scores.length - 1));
  return {
    run_id: item.run_id,
    dataset: item.dataset,
    eval_id: item.eval_id,
    target: item.target,
    trial: item.trial,
    evaluator: item.evaluator,
    samples: ok.length,
    errors: item.samples.length - ok.length,
    verdicts,
    flip_rate: ok.length < 2 ? null : (ok.length - most) / ok.length,
    score_sd: sd,
    scores,
    unstable: ok.length >= 2 && most < ok.length,
  };
}

/**
 * The consistency figures of items judged K times (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_BOOTSTRAP } from "./bootstrap.ts";
 * import { summarizeConsistency } from "./consistency.ts";
 * const sample = (verdict: "pass" | "fail", score: number) => ({ status: "ok" as const, verdict, score });
 * const item = (id: string, samples: ReturnType<typeof sample>[]) => ({
 *   run_id: "r", dataset: "d", eval_id: id, target: "t", trial: 0, evaluator: "q", type: "llm_judge",
 *   original: { verdict: "pass" as const, score: 1 }, samples,
 * });
 * const report = summarizeConsistency([
 *   item("steady", [sample("pass", 0.9), sample("pass", 0.9), sample("pass", 0.9)]),
 *   item("shaky", [sample("pass", 0.9), sample("fail", 0.3), sample("pass", 0.8)]),
 * ], { kind: "repeat", k: 3, bootstrap: DEFAULT_BOOTSTRAP });
 * assert.deepEqual(report.items.filter((i) => i.unstable).map((i) => i.eval_id), ["shaky"]);
 * assert.equal(report.items[0].flip_rate, 1 / 3);
 * assert.equal(report.evaluators[0].unstable_share.value, 0.5);
 * ```
 */
export function summarizeConsistency(
  rejudged: readonly RejudgedItem[],
  options: { kind: "repeat" | "order"; k: number; bootstrap: BootstrapSettings },
): ConsistencyReport {
  const items = rejudged.map(itemConsistency);
  const byEvaluator = new Map<string, { type: string; items: ItemConsistency[] }>();
  rejudged.forEach((r, i) => {
    let group = byEvaluator.get(r.evaluator);
    if (!group) byEvaluator.set(r.evaluator, group = { type: r.type, items: [] });
    group.items.push(items[i]);
  });
  const evaluators: EvaluatorConsistency[] = [];
  for (const [evaluator, group] of byEvaluator) {
    const measured = group.items.filter((i) => i.samples >= 2);
    const unstable = measured.filter((i) => i.unstable).length;
    const { share } = estimateFigures(measured, {
      share: (s) => (s.length === 0 ? null : s.filter((i) => i.unstable).length / s.length),
    }, options.bootstrap);
    const meanOf = (values: number[]) =>
      values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
    evaluators.push({
      evaluator,
      type: group.type,
      items: measured.length,
      unstable,
      unstable_share: share,
      mean_flip_rate: meanOf(measured.flatMap((i) => (i.flip_rate === null ? [] : [i.flip_rate]))),
      mean_score_sd: meanOf(measured.flatMap((i) => (i.score_sd === null ? [] : [i.score_sd]))),
    });
  }
  const ordered = [...items].sort((a, b) => Number(b.unstable) - Number(a.unstable));
  return { kind: options.kind, k: options.k, evaluators, items: ordered };
}

/**
 * Up to `k` distinct orders of `rubrics`, the written order first, then seeded shuffles
 * (Fisher–Yates); fewer when there are fewer than `k` orders.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rubricOrders } from "./consistency.ts";
 * const r = (id: string) => ({ id, description: id, weight: 1, required: false });
 * const orders = rubricOrders([r("a"), r("b"), r("c")], 4, 7);
 * assert.equal(orders.length, 4);
 * assert.deepEqual(orders[0].map((x) => x.id), ["a", "b", "c"]);
 * assert.equal(new Set(orders.map((o) => o.map((x) => x.id).join())).size, 4);
 * assert.equal(rubricOrders([r("a"), r("b")], 5, 7).length, 2);
 * ```
 */
export function rubricOrders(rubrics: readonly Rubric[], k: number, seed: number): Rubric[][] {
  let possible = 1;
  for (let i = 2; i <= rubrics.length && possible < k; i++) possible *= i;
  const want = Math.min(k, possible);
  const orders: Rubric[][] = [[...rubrics]];
  const seen = new Set([rubrics.map((r) => r.id).join("\0")]);
  const rng = createRng(seed);
  for (let attempt = 0; orders.length < want && attempt < 100 * k; attempt++) {
    const order = [...rubrics];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const key = order.map((r) => r.id).join("\0");
    if (seen.has(key)) continue;
    seen.add(key);
    orders.push(order);
  }
  return orders;
}
