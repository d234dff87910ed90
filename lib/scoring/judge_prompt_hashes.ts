/**
 * What a judge is asked, as hashes: for every judged evaluator of some cases, the SHA-256 of its
 * prompt text before a case fills it in (the system prompt and the template of a free-form
 * `llm_judge` or of a composite's `llm_judge` aggregator, the system prompt and the rubric lines
 * of a rubric judge). A calibration keeps the hashes it was measured with; a later run whose
 * judge is asked something else (a reworded rubric, an edited prompt file) is told apart.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { EvalCase } from "../schema/eval_case.ts";
import type { EvaluatorConfig, Rubric } from "../schema/evaluator.ts";
import type { JudgePromptHashes } from "../schema/calibration.ts";
import {
  DEFAULT_AGGREGATOR_TEMPLATE,
  DEFAULT_JUDGE_TEMPLATE,
  FREEFORM_SYSTEM_PROMPT,
  loadPrompt,
  RUBRIC_SYSTEM_PROMPT,
} from "./judge_prompt.ts";

/** A case with the folders its prompt files are found from. */
export interface CaseInSet {
  /** The case. */
  evalCase: EvalCase;
  /** Folder of its eval file. */
  evalDir: string;
  /** Its dataset root. */
  root: string;
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The rubric lines as the rubric judge's prompt lists them (ids, required, weights, texts). */
function rubricText(rubrics: readonly Rubric[]): string {
  return rubrics.map((r) =>
    `- [${r.id}]${r.required ? " (REQUIRED)" : ""}${
      r.weight !== 1 ? ` (weight: ${r.weight})` : ""
    }: ${r.description}`
  ).join("\n");
}

/** Where prompt files are found from, and the templates loaded so far (by folder and prompt). */
interface Where {
  fromDir: string;
  root: string;
  loaded: Map<string, Promise<string>>;
}

/** A template: the prompt file's text or the inline text; the file's error text when unreadable. */
function templateOf(prompt: string | undefined, fallback: string, where: Where): Promise<string> {
  if (prompt === undefined) return Promise.resolve(fallback);
  const key = `${where.root}\0${where.fromDir}\0${prompt}`;
  let template = where.loaded.get(key);
  if (template === undefined) {
    template = loadPrompt(prompt, where).then((loaded) =>
      loaded.ok ? loaded.template : `unreadable prompt ${prompt}: ${loaded.error}`
    );
    where.loaded.set(key, template);
  }
  return template;
}

/** The judge texts of one evaluator config (and its composite members), appended to `into`. */
async function judgeTexts(
  config: EvaluatorConfig,
  where: Where,
  into: string[],
): Promise<void> {
  if (config.type === "rubric" || (config.type === "llm_judge" && config.rubrics?.length)) {
    into.push(`${RUBRIC_SYSTEM_PROMPT}\n\n${rubricText(config.rubrics ?? [])}`);
  } else if (config.type === "llm_judge") {
    const template = await templateOf(config.prompt, DEFAULT_JUDGE_TEMPLATE, where);
    into.push(`${FREEFORM_SYSTEM_PROMPT}\n\n${template}`);
  } else if (config.type === "composite") {
    for (const member of config.evaluators) await judgeTexts(member, where, into);
    if (config.aggregator.type === "llm_judge") {
      const template = await templateOf(
        config.aggregator.prompt,
        DEFAULT_AGGREGATOR_TEMPLATE,
        where,
      );
      into.push(`${FREEFORM_SYSTEM_PROMPT}\n\n${template}`);
    }
  }
}

/**
 * The hashes of every judge prompt of `cases` (see the module doc): each distinct text's SHA-256,
 * sorted, and the SHA-256 of that list. A case without evaluators uses its default kind (a
 * free-form `llm_judge` with the default template when it is `llm_judge`). A prompt file that
 * cannot be read is hashed as its error, so it never matches a readable one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { EvalCase } from "../schema/eval_case.ts";
 * import { judgePromptHashes } from "./judge_prompt_hashes.ts";
 * const evalCase = (description: string) => ({
 *   id: "a", evaluator: "llm_judge", evaluators: [{ type: "rubric", name: "r", weight: 1,
 *     rubrics: [{ id: "r1", description, weight: 1, required: true }] }],
 * }) as unknown as EvalCase;
 * const at = { evalDir: "/nowhere", root: "/nowhere" };
 * const before = await judgePromptHashes([{ evalCase: evalCase("Is polite"), ...at }]);
 * const after = await judgePromptHashes([{ evalCase: evalCase("Is very polite"), ...at }]);
 * assert.notEqual(before.sha256, after.sha256);
 * ```
 */
export async function judgePromptHashes(cases: Iterable<CaseInSet>): Promise<JudgePromptHashes> {
  const hashes = new Set<string>();
  const loaded = new Map<string, Promise<string>>();
  for (const { evalCase, evalDir, root } of cases) {
    const texts: string[] = [];
    const configs = evalCase.evaluators.length > 0
      ? evalCase.evaluators
      : [{ type: evalCase.evaluator, name: evalCase.evaluator, weight: 1 } as EvaluatorConfig];
    for (const config of configs) {
      await judgeTexts(config, { fromDir: evalDir, root, loaded }, texts);
    }
    for (const text of texts) hashes.add(sha256(text));
  }
  const texts = [...hashes].sort();
  return { sha256: sha256(texts.join("\n")), texts };
}
