/**
 * `{{ variable }}` templates of judge prompts: the variables each kind of prompt may use, and a
 * checker that reports unknown ones with a suggestion.
 *
 * @module
 */

/** Variables an `llm_judge` prompt template may use. */
export const JUDGE_TEMPLATE_VARIABLES = [
  "candidate_answer",
  "question",
  "expected_outcome",
  "reference_answer",
  "expected_messages",
  "input_messages",
  "output_messages",
] as const;

/** Variables a composite `llm_judge` aggregator prompt may use. */
export const AGGREGATOR_TEMPLATE_VARIABLES = [
  ...JUDGE_TEMPLATE_VARIABLES,
  "evaluator_results_json",
] as const;

/** Matches `{{ name }}` with optional inner whitespace. */
export const TEMPLATE_VARIABLE_PATTERN = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** An unknown variable found in a template. */
export interface TemplateProblem {
  /** The variable as written. */
  variable: string;
  /** 0-based offset of the `{{` in the template. */
  offset: number;
  /** The closest allowed name, when one is close. */
  suggestion?: string;
}

/**
 * Lists the `{{ variables }}` of a template that are not in `allowed` (names are matched
 * case-insensitively, so `{{EVALUATOR_RESULTS_JSON}}` is accepted).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findTemplateProblems, JUDGE_TEMPLATE_VARIABLES } from "./judge_template.ts";
 * assert.deepEqual(findTemplateProblems("{{ candidate_anwser }}", JUDGE_TEMPLATE_VARIABLES), [
 *   { variable: "candidate_anwser", offset: 0, suggestion: "candidate_answer" },
 * ]);
 * ```
 */
export function findTemplateProblems(
  template: string,
  allowed: readonly string[],
): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  for (const m of template.matchAll(TEMPLATE_VARIABLE_PATTERN)) {
    const name = m[1];
    if (allowed.includes(name.toLowerCase())) continue;
    problems.push({ variable: name, offset: m.index ?? 0, suggestion: closest(name, allowed) });
  }
  return problems;
}

function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}
