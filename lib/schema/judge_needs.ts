/**
 * What a case asks of its judge, read from its evaluators alone (no file, no target): which reply
 * shapes the judge must give. `validate`, `run --dry-run` and `run` share it, so a case whose
 * judge is missing or cannot answer is reported the same way by all three before any call.
 *
 * @module
 */

/** The judge must reply `{score, hits, misses, reasoning}` (`llm_judge`, an `llm_judge` aggregator). */
export const JUDGE_FREEFORM = 1;
/** The judge must reply `{checks: [{id, satisfied, reasoning}]}` (`rubric`, rubrics). */
export const JUDGE_RUBRIC = 2;
/** A `code_judge` with `target:` calls the judge itself (any reply). */
export const JUDGE_RAW = 4;
/** The case lists no evaluator: its default kind (`llm_judge` unless it says otherwise) grades it. */
export const JUDGE_BY_DEFAULT = 8;

/**
 * A bit set of `JUDGE_*` flags; `0`: the case needs no judge.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { JUDGE_FREEFORM, JUDGE_RUBRIC, type JudgeNeeds } from "./judge_needs.ts";
 * const needs: JudgeNeeds = JUDGE_FREEFORM | JUDGE_RUBRIC;
 * assert.notEqual(needs & JUDGE_RUBRIC, 0);
 * ```
 */
export type JudgeNeeds = number;

/** Every reply a judge can be asked for. */
export const ANSWERS_EVERYTHING: JudgeNeeds = JUDGE_FREEFORM | JUDGE_RUBRIC | JUDGE_RAW;

/** The parts of an evaluator config the judge needs are read from (raw or normalised). */
export interface JudgedEvaluator {
  /** Evaluator type. */
  type?: unknown;
  /** Rubrics of `llm_judge` (rubric mode). */
  rubrics?: unknown;
  /** `code_judge`'s proxy to the judge target. */
  target?: unknown;
  /** Members of a `composite`. */
  evaluators?: unknown;
  /** Aggregator of a `composite`. */
  aggregator?: unknown;
}

/**
 * What one evaluator asks of the judge.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluatorJudgeNeeds, JUDGE_RUBRIC } from "./judge_needs.ts";
 * assert.equal(evaluatorJudgeNeeds({ type: "rubric", rubrics: ["Is polite"] }), JUDGE_RUBRIC);
 * assert.equal(evaluatorJudgeNeeds({ type: "contains" }), 0);
 * ```
 */
export function evaluatorJudgeNeeds(config: JudgedEvaluator): JudgeNeeds {
  switch (config.type) {
    case "rubric":
      return JUDGE_RUBRIC;
    case "llm_judge":
      return Array.isArray(config.rubrics) && config.rubrics.length > 0
        ? JUDGE_RUBRIC
        : JUDGE_FREEFORM;
    case "code_judge":
      return config.target !== undefined && config.target !== false ? JUDGE_RAW : 0;
    case "composite": {
      const aggregator = config.aggregator as { type?: unknown } | undefined;
      let needs = aggregator?.type === "llm_judge" ? JUDGE_FREEFORM : 0;
      const members = Array.isArray(config.evaluators) ? config.evaluators : [];
      for (const member of members) {
        if (member !== null && typeof member === "object") needs |= evaluatorJudgeNeeds(member);
      }
      return needs;
    }
    default:
      return 0;
  }
}

/**
 * What a case asks of the judge: the needs of its evaluators, or of its default kind (flagged
 * {@link JUDGE_BY_DEFAULT}) when it lists none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { caseJudgeNeeds, JUDGE_BY_DEFAULT, JUDGE_FREEFORM } from "./judge_needs.ts";
 * assert.equal(
 *   caseJudgeNeeds({ evaluator: "llm_judge", evaluators: [] }),
 *   JUDGE_FREEFORM | JUDGE_BY_DEFAULT,
 * );
 * ```
 */
export function caseJudgeNeeds(
  evalCase: { evaluator: string; evaluators: readonly JudgedEvaluator[] },
): JudgeNeeds {
  if (evalCase.evaluators.length === 0) {
    const needs = evaluatorJudgeNeeds({ type: evalCase.evaluator });
    return needs === 0 ? 0 : needs | JUDGE_BY_DEFAULT;
  }
  let needs = 0;
  for (const config of evalCase.evaluators) needs |= evaluatorJudgeNeeds(config);
  return needs;
}

/**
 * The needs as words, for messages: e.g. "rubric checks".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeJudgeNeeds, JUDGE_FREEFORM, JUDGE_RUBRIC } from "./judge_needs.ts";
 * assert.equal(describeJudgeNeeds(JUDGE_FREEFORM | JUDGE_RUBRIC), "a score and rubric checks");
 * ```
 */
export function describeJudgeNeeds(needs: JudgeNeeds): string {
  const parts: string[] = [];
  if (needs & JUDGE_FREEFORM) parts.push("a score");
  if (needs & JUDGE_RUBRIC) parts.push("rubric checks");
  if (needs & JUDGE_RAW) parts.push("a code judge's calls");
  return parts.join(" and ");
}
