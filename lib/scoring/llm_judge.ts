/**
 * The `llm_judge` evaluator: a judge model grades the answer free-form (`{score, hits, misses,
 * reasoning}`) with the default `[[ ## … ## ]]` template or a custom `prompt` (file or inline
 * text with `{{ variables }}`). With `rubrics` it runs in rubric mode instead.
 *
 * @module
 */
import type { LlmJudgeConfig } from "../schema/evaluator.ts";
import { FreeformReplySchema } from "../schema/judge_reply.ts";
import {
  DEFAULT_JUDGE_TEMPLATE,
  fillTemplate,
  FREEFORM_SYSTEM_PROMPT,
  loadPrompt,
  templateValues,
} from "./judge_prompt.ts";
import { askJudge, judgeError, judgeFailure, requireJudge } from "./judge_reply.ts";
import { evaluateRubric } from "./rubric.ts";
import type { EvaluationContext, EvaluatorOutcome } from "./types.ts";
import { clampScore, scoreToVerdict } from "./verdict.ts";

/** Most hits (and misses) kept from a free-form judge reply. */
const MAX_ITEMS = 4;

/**
 * Grades the candidate with the judge. Free-form: score clamped to [0, 1], verdict from the
 * thresholds, up to four non-blank hits and misses. A judge reply that stays unusable after
 * three attempts is `status: "error"` with the reason and a raw-reply excerpt. No judge
 * configured throws an error naming the fix.
 *
 * @example
 * ```ts ignore
 * import { evaluateLlmJudge } from "./llm_judge.ts";
 * const outcome = await evaluateLlmJudge(
 *   { type: "llm_judge", name: "quality", weight: 1, prompt: "../prompts/quality.md" },
 *   context,
 * );
 * ```
 */
export async function evaluateLlmJudge(
  config: LlmJudgeConfig,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  if (config.rubrics !== undefined && config.rubrics.length > 0) {
    // Rubric mode: reported as type `rubric` (runEvaluator honours an outcome's own type).
    const outcome = await evaluateRubric({
      type: "rubric",
      name: config.name,
      weight: config.weight,
      rubrics: config.rubrics,
      ...(config.model !== undefined ? { model: config.model } : {}),
    }, context);
    return { ...outcome, type: "rubric" } as EvaluatorOutcome;
  }
  return await gradeFreeform(config.prompt, {
    defaultTemplate: DEFAULT_JUDGE_TEMPLATE,
    values: templateValues(context),
    ...(config.model !== undefined ? { model: config.model } : {}),
  }, context);
}

/** What {@link gradeFreeform} fills its template with. */
export interface FreeformOptions {
  /** Template used when no `prompt` is given. */
  defaultTemplate: string;
  /** `{{ variable }}` values. */
  values: Record<string, string>;
  /** Overrides the judge target's model. */
  model?: string;
}

/**
 * Asks the judge for a free-form grade (`{score, hits, misses, reasoning}`) with the template
 * named by `prompt` (a file found like other references, or inline text) or the default one.
 * Shared by `llm_judge` and the composite `llm_judge` aggregator.
 *
 * @example
 * ```ts ignore
 * const outcome = await gradeFreeform(undefined, {
 *   defaultTemplate: DEFAULT_JUDGE_TEMPLATE,
 *   values: templateValues(context),
 * }, context);
 * ```
 */
export async function gradeFreeform(
  prompt: string | undefined,
  options: FreeformOptions,
  context: EvaluationContext,
): Promise<EvaluatorOutcome> {
  const judge = requireJudge(context);
  let template = options.defaultTemplate;
  if (prompt !== undefined) {
    const loaded = await loadPrompt(prompt, { fromDir: context.evalDir, root: context.root });
    if (!loaded.ok) return judgeError(loaded.error);
    template = loaded.template;
  }
  const reply = await askJudge(judge, {
    system: FREEFORM_SYSTEM_PROMPT,
    user: fillTemplate(template, options.values),
    ...(options.model !== undefined ? { model: options.model } : {}),
  }, { schema: FreeformReplySchema, signal: context.signal });
  if (!reply.ok) return judgeFailure(reply);
  const score = clampScore(reply.value.score);
  const reasoning = reply.value.reasoning?.trim();
  return {
    status: "ok",
    score,
    verdict: scoreToVerdict(score),
    hits: nonBlank(reply.value.hits).slice(0, MAX_ITEMS),
    misses: nonBlank(reply.value.misses).slice(0, MAX_ITEMS),
    ...(reasoning ? { reasoning } : {}),
    ...(reply.attempts > 1 ? { details: { judge_attempts: reply.attempts } } : {}),
    evaluator_provider_request: reply.request,
    ...reply.usage,
  };
}

function nonBlank(items: readonly string[]): string[] {
  return items.map((s) => s.trim()).filter((s) => s !== "");
}
