/**
 * The `rubric` evaluator (also inline `rubrics:` and `llm_judge` with `rubrics`): the judge
 * checks every rubric; the score is the satisfied weight over the weight of all rubrics.
 *
 * @module
 */
import type { Rubric, RubricConfig } from "../schema/evaluator.ts";
import { type RubricReply, RubricReplySchema } from "../schema/judge_reply.ts";
import { RUBRIC_SYSTEM_PROMPT, templateValues } from "./judge_prompt.ts";
import { askJudge, judgeFailure, requireJudge } from "./judge_reply.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";
import { clampScore, scoreToVerdict } from "./verdict.ts";

/**
 * Builds the rubric judge's user prompt (the original's layout): question, expected outcome,
 * reference answer (when non-blank), candidate answer and one line per rubric
 * (`- [id] (REQUIRED) (weight: w): description`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rubricPrompt } from "./rubric.ts";
 * const prompt = rubricPrompt(
 *   { question: "Q", expected_outcome: "E", reference_answer: "", candidate_answer: "A" },
 *   [{ id: "polite", description: "Is polite", weight: 1, required: true }],
 * );
 * assert.ok(prompt.includes("- [polite] (REQUIRED): Is polite"));
 * ```
 */
export function rubricPrompt(
  values: {
    question: string;
    expected_outcome: string;
    reference_answer: string;
    candidate_answer: string;
  },
  rubrics: readonly Rubric[],
): string {
  const sections = [
    "You are an expert evaluator. Evaluate the candidate answer against each rubric item below.",
    `[[ ## question ## ]]\n${values.question}`,
    `[[ ## expected_outcome ## ]]\n${values.expected_outcome}`,
  ];
  if (values.reference_answer.trim() !== "") {
    sections.push(`[[ ## reference_answer ## ]]\n${values.reference_answer}`);
  }
  sections.push(`[[ ## candidate_answer ## ]]\n${values.candidate_answer}`);
  sections.push(`[[ ## rubrics ## ]]\n${rubrics.map(rubricLine).join("\n")}`);
  sections.push("For each rubric, determine if it is satisfied and provide brief reasoning.");
  return sections.join("\n\n");
}

function rubricLine(r: Rubric): string {
  return `- [${r.id}]${r.required ? " (REQUIRED)" : ""}${
    r.weight !== 1 ? ` (weight: ${r.weight})` : ""
  }: ${r.description}`;
}

/** The scored outcome of a rubric judge reply. */
export interface RubricScore {
  /** Satisfied weight / total weight over all rubrics. */
  score: number;
  /** `fail` when a required rubric failed, else from the score. */
  verdict: "pass" | "borderline" | "fail";
  /** `[id] description: reasoning` of satisfied rubrics. */
  hits: string[];
  /** Unsatisfied and unanswered rubrics. */
  misses: string[];
  /** Ids of required rubrics that were not satisfied (or not answered). */
  failed_required: string[];
  /** Ids the judge answered more than once (the first answer counts). */
  duplicate_checks: string[];
  /** Ids the judge answered that match no rubric (ignored). */
  unknown_checks: string[];
  /** Ids the judge did not answer (counted as not satisfied). */
  unanswered: string[];
}

/**
 * Scores a rubric reply: every rubric counts in the denominator; an unanswered rubric is
 * unsatisfied (with a miss saying so); only the first answer for an id counts; answers for
 * unknown ids are ignored. When all weights are 0, each rubric counts 1. A required rubric
 * that is not satisfied makes the verdict `fail` whatever the score.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreRubrics } from "./rubric.ts";
 * const s = scoreRubrics(
 *   [
 *     { id: "a", description: "A", weight: 3, required: false },
 *     { id: "b", description: "B", weight: 1, required: false },
 *   ],
 *   { checks: [{ id: "a", satisfied: true, reasoning: "ok" }], overall_reasoning: "" },
 * );
 * assert.equal(s.score, 0.75); // b was not answered
 * ```
 */
export function scoreRubrics(rubrics: readonly Rubric[], reply: RubricReply): RubricScore {
  const known = new Set(rubrics.map((r) => r.id));
  const answers = new Map<string, RubricReply["checks"][number]>();
  const duplicates = new Set<string>();
  const unknown = new Set<string>();
  for (const check of reply.checks) {
    const id = check.id.trim();
    if (!known.has(id)) unknown.add(id);
    else if (answers.has(id)) duplicates.add(id);
    else answers.set(id, check);
  }
  const allZero = rubrics.every((r) => r.weight === 0);
  const weightOf = (r: Rubric) => allZero ? 1 : r.weight;
  let earned = 0;
  let total = 0;
  const hits: string[] = [];
  const misses: string[] = [];
  const failedRequired: string[] = [];
  const unanswered: string[] = [];
  for (const r of rubrics) {
    const check = answers.get(r.id);
    total += weightOf(r);
    const label = `[${r.id}] ${r.description}`;
    if (check === undefined) {
      unanswered.push(r.id);
      misses.push(`${label}: not answered by the judge (counted as not satisfied)`);
    } else {
      const text = check.reasoning.trim() === "" ? label : `${label}: ${check.reasoning.trim()}`;
      if (check.satisfied) {
        earned += weightOf(r);
        hits.push(text);
        continue;
      }
      misses.push(text);
    }
    if (r.required) failedRequired.push(r.id);
  }
  const score = total > 0 ? clampScore(earned / total) : 0;
  return {
    score,
    verdict: failedRequired.length > 0 ? "fail" : scoreToVerdict(score),
    hits,
    misses,
    failed_required: failedRequired,
    duplicate_checks: [...duplicates],
    unknown_checks: [...unknown],
    unanswered,
  };
}

/**
 * Asks the judge to check each rubric and scores the reply (see {@link scoreRubrics}). A
 * failed required rubric sets `details.forces_fail` naming it, which makes the case verdict
 * `fail` when this evaluator's weight is > 0.
 *
 * @example
 * ```ts ignore
 * import { evaluateRubric } from "./rubric.ts";
 * const outcome = await evaluateRubric(
 *   { type: "rubric", name: "rubric", weight: 1, rubrics: [
 *     { id: "rubric-1", description: "Must be polite", weight: 1, required: true },
 *   ] },
 *   context,
 * );
 * ```
 */
export async function evaluateRubric(
  config: RubricConfig,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const judge = requireJudge(context);
  const values = templateValues(context);
  const reply = await askJudge(judge, {
    system: RUBRIC_SYSTEM_PROMPT,
    user: rubricPrompt({ ...values, candidate_answer: context.candidate }, config.rubrics),
    ...(config.model !== undefined ? { model: config.model } : {}),
  }, { schema: RubricReplySchema, signal: context.signal });
  if (!reply.ok) return judgeFailure(reply);
  const scored = scoreRubrics(config.rubrics, reply.value);
  const byId = new Map(config.rubrics.map((r) => [r.id, r]));
  const forcesFail = scored.failed_required.map((id) =>
    `required rubric '${id}' (${byId.get(id)?.description}) not satisfied`
  ).join("; ");
  const reasoning = reply.value.overall_reasoning.trim();
  return {
    status: "ok",
    score: scored.score,
    verdict: scored.verdict,
    hits: scored.hits,
    misses: scored.misses,
    ...(reasoning !== "" ? { reasoning } : {}),
    details: {
      ...(forcesFail !== "" ? { forces_fail: forcesFail } : {}),
      ...(scored.unanswered.length > 0 ? { unanswered: scored.unanswered } : {}),
      ...(scored.duplicate_checks.length > 0 ? { duplicate_checks: scored.duplicate_checks } : {}),
      ...(scored.unknown_checks.length > 0 ? { unknown_checks: scored.unknown_checks } : {}),
      ...(reply.attempts > 1 ? { judge_attempts: reply.attempts } : {}),
    },
    evaluator_provider_request: reply.request,
    ...reply.usage,
  };
}
