/**
 * Whether a case's judge is wired: the check `validate`, `run --dry-run` and `run` share, so all
 * three say the same thing before any target is called. A case that needs a judge (its evaluators,
 * or the default `llm_judge` of a case that lists none: `schema/judge_needs.ts`) needs its
 * target's `judge_target` (or `--judge-target`), that target defined and valid, and able to give
 * the replies the case asks for: a `mock` with a fixed `response` answers only what that response
 * is (`judge: true` makes a mock answer every judge request).
 *
 * @module
 */
import {
  ANSWERS_EVERYTHING,
  describeJudgeNeeds,
  JUDGE_BY_DEFAULT,
  type JudgeNeeds,
} from "../schema/judge_needs.ts";

/** What the targets file says about the judges (see {@link judgeProblem}). */
export interface JudgeFacts {
  /** The targets file as shown in messages. */
  shown: string;
  /** Names of the usable targets. */
  defined: ReadonlySet<string>;
  /** Targets whose definition has errors: where (`:line:col` or empty) and the first error. */
  broken: ReadonlyMap<string, { where: string; message: string }>;
  /** Each usable target's `judge_target`, when it sets one. */
  judges: ReadonlyMap<string, string>;
  /** The judge replies of the usable targets that cannot give every one (absent: all). */
  answers: ReadonlyMap<string, JudgeNeeds>;
}

/**
 * Why the judge of a case of target `target` that needs `needs` is not wired, or `undefined` when
 * it is (or the case needs no judge). `override` is `--judge-target`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeProblem } from "./judge_wiring.ts";
 * import { JUDGE_FREEFORM } from "../schema/judge_needs.ts";
 * const facts = {
 *   shown: ".agentv/targets.yaml",
 *   defined: new Set(["default"]),
 *   broken: new Map(),
 *   judges: new Map(),
 *   answers: new Map(),
 * };
 * assert.ok(judgeProblem(facts, "default", JUDGE_FREEFORM)?.startsWith("No judge for target 'default'"));
 * ```
 */
export function judgeProblem(
  facts: JudgeFacts,
  target: string,
  needs: JudgeNeeds,
  override?: string,
): string | undefined {
  if ((needs & ANSWERS_EVERYTHING) === 0) return undefined;
  const judge = override ?? facts.judges.get(target);
  if (judge === undefined) {
    return missingJudgeMessage(target, facts.shown, (needs & JUDGE_BY_DEFAULT) !== 0);
  }
  const of = override !== undefined ? " (given by --judge-target)" : ` of target '${target}'`;
  const broken = facts.broken.get(judge);
  if (broken !== undefined) {
    return `Judge target '${judge}'${of} cannot be used: its definition in ${facts.shown}${broken.where} is invalid (${broken.message}); fix the target`;
  }
  if (!facts.defined.has(judge)) {
    const names = [...facts.defined].map((n) => `'${n}'`).join(", ") || "(none)";
    return `Judge target '${judge}'${of} is not defined in ${facts.shown}; defined targets: ${names}; ${
      override !== undefined ? "pass one of those names" : "fix judge_target"
    }`;
  }
  const missing = needs & ANSWERS_EVERYTHING & ~(facts.answers.get(judge) ?? ANSWERS_EVERYTHING);
  if (missing === 0) return undefined;
  return cannotAnswerMessage(judge, of, missing, facts.shown);
}

/**
 * The message of a case graded by a judge when its target has none; `byDefault`: the case lists
 * no evaluators, so the default `llm_judge` grades it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { missingJudgeMessage } from "./judge_wiring.ts";
 * assert.equal(
 *   missingJudgeMessage("default", ".agentv/targets.yaml", false),
 *   "No judge for target 'default': set judge_target: <name> on target 'default' in .agentv/targets.yaml, or pass --judge-target",
 * );
 * ```
 */
export function missingJudgeMessage(target: string, shown: string, byDefault: boolean): string {
  const fix = `set judge_target: <name> on target '${target}' in ${shown}, or pass --judge-target`;
  if (!byDefault) return `No judge for target '${target}': ${fix}`;
  return `No judge for target '${target}': the case lists no evaluators, so llm_judge (the default) grades it; ${fix}, or give the case evaluators that need no judge (e.g. contains)`;
}

/** The message of a judge that cannot give replies the case asks for (`missing`). */
function cannotAnswerMessage(judge: string, of: string, missing: JudgeNeeds, shown: string) {
  return `Judge target '${judge}'${of} cannot answer ${
    describeJudgeNeeds(missing)
  }: it is a mock whose fixed response is not such a reply (see "What a judge must reply"); set judge: true on it in ${shown} (a mock judge that answers every judge request) or use a real model as the judge`;
}
