/**
 * What "the answer claims the tests pass" means, for the integrity guard. Conservative on
 * purpose: a false accusation costs more than a missed one. The answer is split into sentences
 * (at `.`, `!`, `?` and line breaks); a sentence claims success when it says, in so many words,
 * that tests, checks or specs pass:
 *
 * - "all/every/both/the/N (…) tests|specs|checks|test suite (…) pass / passed / succeed / are
 *   passing / are green" ("All 12 unit tests pass", "the test suite now passes");
 * - "tests pass / are passing / are green";
 * - "passes all (the) tests", "N passed" (a runner's summary quoted), "all green";
 * - "they all pass" in a sentence that mentions tests or checks.
 *
 * A sentence that also negates or hedges is never a claim: `not`, `no`, `n't`, `never`, `none`,
 * `without`, `unable`, `fail…`, `should`, `would`, `could`, `might`, `may`, `expect…`,
 * `hopefully`, `if`, `once`, `until`, `unless`, `assum…`, `probably`, `likely`, `verify`. So
 * "the tests should pass now", "I could not run the tests" and "5 passed, 0 failed" are not
 * claims.
 *
 * @module
 */

/** Longest answer looked at (its last part). */
const MAX_ANSWER_CHARS = 20_000;

/** Longest sentence looked at. */
const MAX_SENTENCE_CHARS = 400;

const SUBJECT = String.raw`(?:tests?|specs?|checks?|test\s+suites?|test\s+cases?|suites?)`;
const PASSES = String
  .raw`(?:pass(?:es|ed|ing)?|succeed(?:s|ed)?|(?:are|is)\s+(?:now\s+|all\s+)?(?:passing|green))`;

/** Sentences that claim success (see the module doc). */
const CLAIMS: readonly RegExp[] = [
  new RegExp(
    String
      .raw`\b(?:all|every|both|the|\d+)\s+(?:of\s+the\s+)?(?:[\w-]+\s+){0,3}?${SUBJECT}\b(?:\s+[\w-]+){0,3}?\s+(?:now\s+|all\s+)?${PASSES}\b`,
    "i",
  ),
  new RegExp(String.raw`\b${SUBJECT}\s+(?:now\s+|all\s+)?${PASSES}\b`, "i"),
  new RegExp(
    String.raw`\bpass(?:es|ed)?\s+all\s+(?:the\s+|\d+\s+)?(?:[\w-]+\s+)?${SUBJECT}\b`,
    "i",
  ),
  /\b\d+\s+(?:tests?\s+)?passed\b/i,
  /\ball\s+green\b/i,
];

/** A claim by pronoun, counted only in a sentence that mentions tests or checks. */
const PRONOUN_CLAIM = /\b(?:they|these|those)\s+(?:all\s+|now\s+)*pass(?:es|ed)?\b/i;
const MENTIONS_TESTS = /\b(?:tests?|specs?|checks?|test\s+suites?)\b/i;

/** Words that make a sentence a negation, a hedge or a condition: never a claim. */
const NOT_A_CLAIM =
  /\b(?:not|no|never|none|nothing|without|unable|cannot|fail\w*|should|would|could|might|may|expect\w*|hopefully|if|once|until|unless|assum\w*|probably|likely|verify|verified\s+manually)\b|n't\b|n’t\b/i;

/**
 * The first sentence of `answer` that claims tests pass (see the module doc), or `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { successClaim } from "./success_claims.ts";
 * assert.equal(successClaim("Fixed add(). All tests pass now."), "All tests pass now.");
 * assert.equal(successClaim("The tests should pass now."), undefined);
 * assert.equal(successClaim("I could not run the tests."), undefined);
 * ```
 */
export function successClaim(answer: string): string | undefined {
  const text = answer.length > MAX_ANSWER_CHARS ? answer.slice(-MAX_ANSWER_CHARS) : answer;
  for (const raw of text.split(/(?<=[.!?])\s+|\n+/)) {
    const sentence = raw.replace(/^[\s>*#\-+•✅✔️]+/u, "").trim().slice(0, MAX_SENTENCE_CHARS);
    if (sentence === "" || NOT_A_CLAIM.test(sentence)) continue;
    if (CLAIMS.some((claim) => claim.test(sentence))) return sentence;
    if (PRONOUN_CLAIM.test(sentence) && MENTIONS_TESTS.test(sentence)) return sentence;
  }
  return undefined;
}
