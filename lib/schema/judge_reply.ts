/**
 * Shapes of the JSON replies agentv asks judge models for: the free-form score, the rubric
 * checks, the generated rubrics and a composite aggregator's verdict. Each schema's messages
 * are written to be sent back to the judge when it must be asked again.
 *
 * @module
 */
import { z } from "zod";

const stringList = (what: string) =>
  z.array(z.string({ error: `every item of ${what} must be a string` }), {
    error: `${what} must be an array of strings`,
  }).default([]);

/** Free-form judge reply: `{score 0..1, hits, misses, reasoning}` (extra keys allowed). */
export const FreeformReplySchema = z.looseObject({
  score: z.number({ error: "score must be a number between 0.0 and 1.0" })
    .min(0, { error: "score must be between 0.0 and 1.0 (a fraction, not a percentage)" })
    .max(1, { error: "score must be between 0.0 and 1.0 (a fraction, not a percentage)" }),
  hits: stringList("hits"),
  misses: stringList("misses"),
  reasoning: z.string({ error: "reasoning must be a string" }).optional(),
});

/** A validated free-form judge reply. */
export type FreeformReply = z.output<typeof FreeformReplySchema>;

/** One rubric check in a rubric judge reply. */
export const RubricCheckSchema = z.looseObject({
  id: z.string({ error: "every check needs an `id` string naming the rubric" }),
  satisfied: z.boolean({ error: "every check needs `satisfied: true` or `satisfied: false`" }),
  reasoning: z.string({ error: "reasoning of a check must be a string" }).default(""),
});

/** Rubric judge reply: `{checks: [{id, satisfied, reasoning}], overall_reasoning}`. */
export const RubricReplySchema = z.looseObject({
  checks: z.array(RubricCheckSchema, { error: "checks must be an array of rubric checks" }),
  overall_reasoning: z.string({ error: "overall_reasoning must be a string" }).default(""),
});

/** A validated rubric judge reply. */
export type RubricReply = z.output<typeof RubricReplySchema>;

/** One generated rubric. */
export const GeneratedRubricSchema = z.looseObject({
  id: z.string({ error: "every rubric needs an `id` string" }).trim().min(1, {
    error: "rubric id must not be empty",
  }),
  description: z.string({ error: "every rubric needs a `description` string" }).trim().min(1, {
    error: "rubric description must not be empty",
  }),
  weight: z.number({ error: "weight must be a number" }).min(0, {
    error: "weight must be >= 0",
  }).default(1),
  required: z.boolean({ error: "required must be true or false" }).default(true),
});

/** Reply of `generate rubrics`: `{rubrics: [{id, description, weight, required}]}`. */
export const GeneratedRubricsReplySchema = z.looseObject({
  rubrics: z.array(GeneratedRubricSchema, { error: "rubrics must be an array" }).min(1, {
    error: "rubrics must list at least one rubric",
  }).refine((items) => new Set(items.map((r) => r.id)).size === items.length, {
    error: "rubric ids must be unique",
  }),
});

/** A validated `generate rubrics` reply. */
export type GeneratedRubricsReply = z.output<typeof GeneratedRubricsReplySchema>;

/** What a composite `code_judge` aggregator script prints: score plus optional verdict. */
export const AggregatorOutputSchema = z.looseObject({
  score: z.number({ error: "score must be a number between 0 and 1" }),
  verdict: z.enum(["pass", "borderline", "fail"]).optional().catch(undefined),
  hits: stringList("hits").catch([]),
  misses: stringList("misses").catch([]),
  reasoning: z.string().optional().catch(undefined),
  details: z.unknown().optional(),
});

/** A validated aggregator script output. */
export type AggregatorOutput = z.output<typeof AggregatorOutputSchema>;

/** Any reply schema (so modules outside `lib/schema` never import zod). */
export type ReplySchema = z.ZodType;

/** The value a reply schema produces. */
export type ReplyOf<T extends ReplySchema> = z.output<T>;

/**
 * Validates `value` against a schema and returns either the value or one line describing every
 * problem (`path: message; ...`), suitable to show a judge when re-asking.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FreeformReplySchema, validateReply } from "./judge_reply.ts";
 * assert.deepEqual(validateReply(FreeformReplySchema, { score: 7 }), {
 *   ok: false,
 *   error: "score: score must be between 0.0 and 1.0 (a fraction, not a percentage)",
 * });
 * ```
 */
export function validateReply<T extends z.ZodType>(
  schema: T,
  value: unknown,
): { ok: true; value: z.output<T> } | { ok: false; error: string } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const error = parsed.error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return path === "" ? issue.message : `${path}: ${issue.message}`;
  }).join("; ");
  return { ok: false, error };
}
