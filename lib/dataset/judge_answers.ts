/**
 * Which judge replies a target definition can give. Its own module because it needs the reply
 * schemas (zod): the wiring check (`judge_wiring.ts`), which `validate`'s case worker applies to
 * every case, does not.
 *
 * @module
 */
import { FreeformReplySchema, RubricReplySchema } from "../schema/judge_reply.ts";
import {
  ANSWERS_EVERYTHING,
  JUDGE_FREEFORM,
  JUDGE_RAW,
  JUDGE_RUBRIC,
  type JudgeNeeds,
} from "../schema/judge_needs.ts";

/**
 * The judge replies a target definition can give (`JUDGE_*` flags): every one, unless it is a
 * `mock` with a fixed answer, which gives only the shapes its `response` has (a string without a
 * `{` gives none; one with a `{` is not second-guessed). Any target can take a code judge's calls.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeAnswers } from "./judge_answers.ts";
 * import { JUDGE_RUBRIC } from "../schema/judge_needs.ts";
 * const answers = judgeAnswers({ name: "j", provider: "mock", response: { score: 1 } });
 * assert.equal(answers & JUDGE_RUBRIC, 0); // no `checks`: it cannot answer rubrics
 * ```
 */
export function judgeAnswers(definition: Record<string, unknown>): JudgeNeeds {
  if (definition.provider !== "mock" || isTrue(definition.judge)) return ANSWERS_EVERYTHING;
  const response = definition.response;
  if (isTrue(definition.echo) || response === undefined) return JUDGE_RAW;
  if (typeof response === "string") return response.includes("{") ? ANSWERS_EVERYTHING : JUDGE_RAW;
  let answers = JUDGE_RAW;
  if (FreeformReplySchema.safeParse(response).success) answers |= JUDGE_FREEFORM;
  if (RubricReplySchema.safeParse(response).success) answers |= JUDGE_RUBRIC;
  return answers;
}

function isTrue(value: unknown): boolean {
  return value === true || (typeof value === "string" && /^\s*(true|1)\s*$/i.test(value));
}
