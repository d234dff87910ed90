/**
 * The reply of a mock judge that passes everything: one JSON object with every shape agentv asks
 * judges for, so it answers any judge request: a free-form score of 1, every rubric listed in the
 * prompt satisfied, and (for `generate rubrics`) one required rubric restating the expected
 * outcome. A `mock` target with `judge: true` and the `--dry-run` judge answer with it.
 *
 * @module
 */

/** Rubric ids listed in a judge prompt (`- [id] ...` lines, or `"id": "x"`), in order, unique. */
export function rubricIds(text: string): string[] {
  const ids = new Set<string>();
  for (const m of text.matchAll(/^\s*-\s*\[([^\]\n]+)\]/gm)) ids.add(m[1].trim());
  for (const m of text.matchAll(/"id"\s*:\s*"([^"]+)"/g)) ids.add(m[1]);
  return [...ids];
}

/** The `[[ ## expected_outcome ## ]]` section of a prompt, trimmed, or `undefined`. */
function expectedOutcome(text: string): string | undefined {
  const m = /\[\[ ## expected_outcome ## \]\]\n([\s\S]*?)(?:\n\[\[ ## |$)/.exec(text);
  const outcome = m?.[1].trim();
  return outcome === undefined || outcome === "" ? undefined : outcome;
}

/**
 * The JSON text a passing mock judge replies to `prompt` (system and user prompt together).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mockJudgeReply } from "./mock_judge.ts";
 * const reply = JSON.parse(mockJudgeReply("- [polite] (REQUIRED): Is polite", "mock judge"));
 * assert.equal(reply.score, 1);
 * assert.equal(reply.checks[0].id, "polite");
 * ```
 */
export function mockJudgeReply(prompt: string, who: string): string {
  const outcome = expectedOutcome(prompt) ?? "Answers the question";
  return JSON.stringify({
    score: 1,
    hits: [`${who}: passes every answer`],
    misses: [],
    reasoning: `${who}: scores every answer 1.0`,
    checks: rubricIds(prompt).map((id) => ({ id, satisfied: true, reasoning: who })),
    overall_reasoning: `${who}: satisfies every rubric`,
    rubrics: [{ id: "expected-outcome", description: outcome, weight: 1, required: true }],
  });
}
