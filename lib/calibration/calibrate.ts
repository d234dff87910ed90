/**
 * A judge measured against people: for the overall verdict and each labelled evaluator, the
 * confusion matrix, accuracy, sensitivity, specificity and Cohen's κ (against the reviewers'
 * majority verdict), Krippendorff's α between reviewers and between reviewers and the judge (with
 * several reviewers), Spearman's ρ and the mean absolute difference of scores (when labels give
 * scores), every figure with its seeded bootstrap interval and the n it rests on; and the items
 * where judge and people disagree, with the judge's reasoning and the reviewers' notes.
 *
 * @module
 */
import {
  accuracy,
  cohensKappa,
  type ConfusionMatrix,
  confusionMatrix,
  sensitivity,
  specificity,
  type VerdictPair,
} from "./agreement.ts";
import {
  type BootstrapSettings,
  DEFAULT_BOOTSTRAP,
  type Estimate,
  estimateFigures,
} from "./bootstrap.ts";
import { type AlphaMetric, type AlphaUnit, krippendorffAlpha } from "./krippendorff.ts";
import {
  humanVerdict,
  type LabelledItem,
  matchLabels,
  type UnmatchedLabel,
} from "./match_labels.ts";
import { meanAbsoluteDifference, type ScorePair, spearman } from "./scores.ts";
import type { Label } from "../schema/label.ts";
import type { ResultRow, Verdict } from "../schema/result.ts";

/** Krippendorff's α between the reviewers, and between the reviewers and the judge. */
export interface AlphaFigures {
  /** Among the reviewers alone (items two or more of them labelled). */
  reviewers: Estimate;
  /** Among the reviewers and the judge as one more rater. */
  with_judge: Estimate;
}

/** Agreement on scores, over the items whose labels give a score. */
export interface ScoreFigures {
  /** Items with a labelled score (the people's score is the mean of the reviewers'). */
  n: number;
  /** Spearman's rank correlation of judge and people. */
  spearman: Estimate;
  /** Mean |judge − people|. */
  mad: Estimate;
  /** Interval α on scores, with several reviewers; else `null`. */
  alpha: AlphaFigures | null;
}

/** One reviewer's word on a disagreement. */
export interface ReviewerNote {
  /** Who. */
  reviewer: string;
  /** Their verdict (from their score when they gave only a score). */
  label: "pass" | "fail";
  /** Their score, when given. */
  score: number | null;
  /** Their note. */
  note: string;
}

/** An item where the judge and at least one reviewer disagree on pass/fail. */
export interface Disagreement {
  /** The run. */
  run_id: string;
  /** Dataset. */
  dataset: string;
  /** Case id. */
  eval_id: string;
  /** Target. */
  target: string;
  /** Trial. */
  trial: number;
  /** The judge's verdict. */
  judge_verdict: Verdict;
  /** The judge's score. */
  judge_score: number;
  /** The reviewers' majority verdict, or `split` when they are evenly divided. */
  human_verdict: "pass" | "fail" | "split";
  /** Why the judge decided so, when it said. */
  reasoning: string | null;
  /** Every reviewer's label and note. */
  reviewers: ReviewerNote[];
}

/** The figures of one evaluator (or of the overall verdict). */
export interface UnitCalibration {
  /** The evaluator's name; `null` for the case's overall verdict. */
  evaluator: string | null;
  /** The evaluator's type; `null` for the overall verdict. */
  type: string | null;
  /** The judge targets behind its verdicts, as recorded. */
  judge_targets: string[];
  /** The judge models behind its verdicts, as recorded. */
  models: string[];
  /** The reviewers who labelled it. */
  reviewers: string[];
  /** Labels counted (every reviewer's latest). */
  labels: number;
  /** Items with a majority human verdict: what the verdict figures rest on. */
  n: number;
  /** Items whose reviewers are evenly split (left out of the verdict figures). */
  ties: number;
  /** Judge against the reviewers' majority, pass = positive. */
  confusion: ConfusionMatrix;
  /** (tp + tn) / n. */
  accuracy: Estimate;
  /** tp / (tp + fn): the people's passes the judge passes. */
  sensitivity: Estimate;
  /** tn / (tn + fp): the people's fails the judge fails. */
  specificity: Estimate;
  /** Cohen's κ of the judge and the reviewers' majority. */
  kappa: Estimate;
  /** Krippendorff's α on verdicts with several reviewers; `null` with one. */
  alpha: AlphaFigures | null;
  /** Agreement on scores, when labels give scores; else `null`. */
  scores: ScoreFigures | null;
  /** Where judge and people disagree. */
  disagreements: Disagreement[];
}

/** What {@link calibrateJudge} found. */
export interface CalibrationReport {
  /** The overall verdict first (when labelled), then each evaluator in first-labelled order. */
  units: UnitCalibration[];
  /** Labels read, kept (each reviewer's latest), matched, and those that matched nothing. */
  labels: { read: number; latest: number; matched: number; unmatched: UnmatchedLabel[] };
  /** How the intervals were computed. */
  bootstrap: BootstrapSettings;
}

/** Options of {@link calibrateJudge}. */
export interface CalibrateOptions {
  /** Bootstrap seed, resamples and coverage (default {@link DEFAULT_BOOTSTRAP}). */
  bootstrap?: Partial<BootstrapSettings>;
  /** Only these evaluators (`null` or `""` for the overall verdict); default all labelled. */
  evaluators?: readonly (string | null)[];
}

/**
 * Measures the judge behind `rows` against `labels` (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ResultRow } from "../schema/result.ts";
 * import { calibrateJudge } from "./calibrate.ts";
 * const row = (id: string, verdict: string) => ({ run_id: "r", dataset: "d", eval_id: id,
 *   target: "t", trial: 0, status: "ok", verdict, score: verdict === "pass" ? 1 : 0,
 *   reasoning: null, misses: [], evaluator_results: [] }) as unknown as ResultRow;
 * const label = (id: string, l: "pass" | "fail") => ({ run_id: "r", dataset: "d", eval_id: id,
 *   target: "t", trial: 0, evaluator: null, label: l, score: null, reviewer: "ana", note: "",
 *   labelled_at: "2026-11-27T10:00:00Z" });
 * const report = calibrateJudge([row("a", "pass"), row("b", "fail")], [label("a", "pass"), label("b", "pass")]);
 * assert.deepEqual(report.units[0].confusion, { tp: 1, fp: 0, fn: 1, tn: 0 });
 * assert.equal(report.units[0].disagreements[0].eval_id, "b");
 * ```
 */
export function calibrateJudge(
  rows: readonly ResultRow[],
  labels: readonly Label[],
  options: CalibrateOptions = {},
): CalibrationReport {
  const settings = { ...DEFAULT_BOOTSTRAP, ...options.bootstrap };
  const match = matchLabels(rows, labels);
  const wanted = options.evaluators?.map((e) => e === "" ? null : e);
  const groups = new Map<string | null, LabelledItem[]>();
  for (const item of match.items) {
    if (wanted !== undefined && !wanted.includes(item.evaluator)) continue;
    let group = groups.get(item.evaluator);
    if (!group) groups.set(item.evaluator, group = []);
    group.push(item);
  }
  const order = [...groups.keys()].sort((a, b) => (a === null ? -1 : b === null ? 1 : 0));
  return {
    units: order.map((evaluator) => calibrateUnit(evaluator, groups.get(evaluator)!, settings)),
    labels: {
      read: labels.length,
      latest: match.latest,
      matched: match.items.reduce((n, item) => n + item.labels.length, 0),
      unmatched: match.unmatched,
    },
    bootstrap: settings,
  };
}

/** The reviewers' majority verdict of an item, or `null` when they are evenly split. */
function majority(item: LabelledItem): "pass" | "fail" | null {
  let pass = 0;
  for (const label of item.labels) if (humanVerdict(label) === "pass") pass++;
  const fail = item.labels.length - pass;
  return pass === fail ? null : pass > fail ? "pass" : "fail";
}

function calibrateUnit(
  evaluator: string | null,
  items: readonly LabelledItem[],
  settings: BootstrapSettings,
): UnitCalibration {
  const pairs: VerdictPair[] = [];
  let ties = 0;
  for (const item of items) {
    const human = majority(item);
    if (human === null) ties++;
    else pairs.push({ judge: item.judge.verdict === "pass", human: human === "pass" });
  }
  const confusion = confusionMatrix(pairs);
  const verdicts = estimateFigures(
    pairs,
    {
      accuracy: (s) => accuracy(confusionMatrix(s)),
      sensitivity: (s) => sensitivity(confusionMatrix(s)),
      specificity: (s) => specificity(confusionMatrix(s)),
      kappa: (s) => cohensKappa(confusionMatrix(s)),
    },
    settings,
    {
      sensitivity: confusion.tp + confusion.fn,
      specificity: confusion.tn + confusion.fp,
    },
  );
  const reviewers = [...new Set(items.flatMap((i) => i.labels.map((l) => l.reviewer)))];
  const judges = items.flatMap((i) => i.judge.judges);
  return {
    evaluator,
    type: items.find((i) => i.judge.type !== null)?.judge.type ?? null,
    judge_targets: [...new Set(judges.map((j) => j.target))],
    models: [...new Set(judges.flatMap((j) => (j.model === null ? [] : [j.model])))],
    reviewers,
    labels: items.reduce((n, i) => n + i.labels.length, 0),
    n: pairs.length,
    ties,
    confusion,
    ...verdicts,
    alpha: reviewers.length < 2 ? null : alphaFigures(items, reviewers, "nominal", settings),
    scores: scoreFigures(items, settings),
    disagreements: items.flatMap((item) => disagreement(item) ?? []),
  };
}

/** The value each rater gave an item: the reviewers in order, then the judge. */
type RatedItem = { reviewers: (string | number | null)[]; judge: string | number };

function alphaFigures(
  items: readonly LabelledItem[],
  reviewers: readonly string[],
  metric: AlphaMetric,
  settings: BootstrapSettings,
): AlphaFigures | null {
  const rated: RatedItem[] = [];
  for (const item of items) {
    const values = reviewers.map((reviewer) => {
      const label = item.labels.find((l) => l.reviewer === reviewer);
      if (label === undefined) return null;
      return metric === "nominal" ? humanVerdict(label) : label.score;
    });
    if (values.every((v) => v === null)) continue;
    const judge = metric === "nominal"
      ? (item.judge.verdict === "pass" ? "pass" : "fail")
      : item.judge.score;
    rated.push({ reviewers: values, judge });
  }
  const among = (s: readonly RatedItem[]): AlphaUnit[] => s.map((r) => r.reviewers);
  const withJudge = (s: readonly RatedItem[]): AlphaUnit[] =>
    s.map((r) => [...r.reviewers, r.judge]);
  const pairable = (units: AlphaUnit[]) =>
    units.filter((u) => u.filter((v) => v !== null).length >= 2).length;
  if (pairable(among(rated)) === 0) return null;
  const figures = estimateFigures(
    rated,
    {
      reviewers: (s) => krippendorffAlpha(among(s), metric),
      with_judge: (s) => krippendorffAlpha(withJudge(s), metric),
    },
    settings,
    { reviewers: pairable(among(rated)), with_judge: pairable(withJudge(rated)) },
  );
  return figures;
}

function scoreFigures(
  items: readonly LabelledItem[],
  settings: BootstrapSettings,
): ScoreFigures | null {
  const scored = items.filter((i) => i.labels.some((l) => l.score !== null));
  if (scored.length === 0) return null;
  const pairs: ScorePair[] = scored.map((item) => {
    const scores = item.labels.flatMap((l) => (l.score === null ? [] : [l.score]));
    return { judge: item.judge.score, human: scores.reduce((a, b) => a + b, 0) / scores.length };
  });
  const figures = estimateFigures(pairs, { spearman, mad: meanAbsoluteDifference }, settings);
  const scorers = [
    ...new Set(
      scored.flatMap((i) => i.labels.filter((l) => l.score !== null).map((l) => l.reviewer)),
    ),
  ];
  return {
    n: pairs.length,
    ...figures,
    alpha: scorers.length < 2 ? null : alphaFigures(scored, scorers, "interval", settings),
  };
}

function disagreement(item: LabelledItem): Disagreement | undefined {
  const judgePass = item.judge.verdict === "pass";
  if (item.labels.every((l) => (humanVerdict(l) === "pass") === judgePass)) return undefined;
  return {
    run_id: item.run_id,
    dataset: item.dataset,
    eval_id: item.eval_id,
    target: item.target,
    trial: item.trial,
    judge_verdict: item.judge.verdict,
    judge_score: item.judge.score,
    human_verdict: majority(item) ?? "split",
    reasoning: item.judge.reasoning,
    reviewers: item.labels.map((l) => ({
      reviewer: l.reviewer,
      label: humanVerdict(l),
      score: l.score,
      note: l.note,
    })),
  };
}
