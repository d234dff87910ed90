/**
 * Judge prompts: the system prompts and default templates of the original tool, the
 * `{{ variables }}` a template may use, and loading a `prompt` that is a file or inline text.
 *
 * @module
 */
import { resolveReference } from "../fs/resolve.ts";
import type { Message } from "../schema/message.ts";
import type { EvaluationContext } from "./types.ts";

/** System prompt of free-form judges (and the composite `llm_judge` aggregator). */
export const FREEFORM_SYSTEM_PROMPT =
  `You must respond with a single JSON object matching this schema:

{
  "score": <number between 0.0 and 1.0>,
  "hits": [<array of strings, max 4 items, brief specific achievements>],
  "misses": [<array of strings, max 4 items, brief specific failures or omissions, empty if none>],
  "reasoning": "<string, concise explanation for the score, 1-2 sentences max>"
}`;

/** Default user prompt of the free-form `llm_judge`. */
export const DEFAULT_JUDGE_TEMPLATE =
  `You are an expert evaluator. Your goal is to grade the candidate_answer based on how well it achieves the expected_outcome for the original task.

Use the reference_answer as a gold standard for a high-quality response (if provided). The reference_answer may be a simple text response, or it may contain a sequence of expected agent messages including tool calls. When it contains multiple messages, the last message represents the final expected answer. The candidate_answer does not need to match it verbatim, but should capture the key points and follow the same spirit.

Be concise and focused in your evaluation. Provide succinct, specific feedback rather than verbose explanations.

[[ ## expected_outcome ## ]]
{{ expected_outcome }}

[[ ## question ## ]]
{{ question }}

[[ ## reference_answer ## ]]
{{ reference_answer }}

[[ ## candidate_answer ## ]]
{{ candidate_answer }}`;

/** System prompt of rubric judges. */
export const RUBRIC_SYSTEM_PROMPT =
  `You are an expert evaluator. Evaluate the candidate answer against each rubric item.
You must return a valid JSON object matching this schema:
{
  "checks": [
    {
      "id": "string (rubric id)",
      "satisfied": boolean,
      "reasoning": "string (brief explanation)"
    }
  ],
  "overall_reasoning": "string (summary)"
}`;

/** Default user prompt of a composite `llm_judge` aggregator. */
export const DEFAULT_AGGREGATOR_TEMPLATE =
  `Several evaluators graded the same candidate answer. Their results, by evaluator name:
{{ evaluator_results_json }}

Weigh their findings and give the final score for the candidate answer, with the hits and misses that decided it.`;

/** The values of the `{{ variables }}` of a judge template (by lower-case name). */
export type TemplateValues = Record<string, string>;

/** The variables of the original tool's judge templates. */
export interface JudgeTemplateValues extends TemplateValues {
  /** Candidate answer, trimmed. */
  candidate_answer: string;
  /** The prompt the target received, trimmed (raw input text when empty). */
  question: string;
  /** Expected outcome, trimmed. */
  expected_outcome: string;
  /** Last expected message as text, trimmed. */
  reference_answer: string;
  /** Expected messages as pretty JSON. */
  expected_messages: string;
  /** Input messages as pretty JSON. */
  input_messages: string;
  /** Output messages (the trace) as pretty JSON. */
  output_messages: string;
}

/**
 * Computes the template variables of the original tool from the evaluation context:
 * `candidate_answer`, `question`, `expected_outcome`, `reference_answer`, `expected_messages`,
 * `input_messages`, `output_messages`.
 *
 * @example
 * ```ts ignore
 * import { templateValues } from "./judge_prompt.ts";
 * templateValues(context).question; // the rendered prompt the target received, trimmed
 * ```
 */
export function templateValues(context: EvaluationContext): JudgeTemplateValues {
  const c = context.evalCase;
  const question = context.prompt.trim() !== "" ? context.prompt.trim() : rawQuestion(c.input);
  return {
    candidate_answer: context.candidate.trim(),
    question,
    expected_outcome: c.expected_outcome.trim(),
    reference_answer: referenceAnswer(c.expected_output).trim(),
    expected_messages: JSON.stringify(c.expected_output, null, 2),
    input_messages: JSON.stringify(c.input, null, 2),
    output_messages: JSON.stringify(context.outputMessages ?? [], null, 2),
  };
}

/**
 * Replaces every `{{ name }}` (names matched case-insensitively) in one pass; unknown names are
 * left as written, and substituted text is never re-scanned.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fillTemplate } from "./judge_prompt.ts";
 * assert.equal(fillTemplate("A: {{ candidate_answer }}", { candidate_answer: "42" }), "A: 42");
 * ```
 */
export function fillTemplate(template: string, values: TemplateValues): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (whole, name: string) => {
    const key = name.toLowerCase();
    return Object.hasOwn(values, key) ? values[key] : whole;
  });
}

/**
 * The reference answer: the last expected message's content (text as is, segments joined,
 * objects as pretty JSON), else its tool calls as pretty JSON, else `""`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { referenceAnswer } from "./judge_prompt.ts";
 * assert.equal(referenceAnswer([{ role: "assistant", content: "Paris" }]), "Paris");
 * ```
 */
export function referenceAnswer(expected: readonly Message[]): string {
  const last = expected.at(-1);
  if (last === undefined) return "";
  if (last.content !== undefined && last.content !== null) return contentText(last.content);
  if (last.tool_calls !== undefined) return JSON.stringify(last.tool_calls, null, 2);
  return "";
}

/** Text of a message content: string, joined segment texts, or pretty JSON. */
export function contentText(content: Message["content"]): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((s) => {
      const seg = s as Record<string, unknown>;
      if (typeof seg.text === "string") return seg.text;
      if (seg.type === "text" && typeof seg.value === "string") return seg.value;
      return JSON.stringify(seg);
    }).join("\n");
  }
  return JSON.stringify(content, null, 2);
}

function rawQuestion(messages: readonly Message[]): string {
  return messages.filter((m) => m.role !== "assistant" && m.content !== undefined)
    .map((m) => contentText(m.content).trim()).filter((t) => t !== "").join(" ");
}

/** A loaded judge prompt, or why it could not be loaded. */
export type LoadedPrompt = { ok: true; template: string; file?: string } | {
  ok: false;
  error: string;
};

/**
 * Loads a `prompt` setting: a reference that resolves to a file (eval file folder, then parents
 * up to the dataset root) is read; a path-like value that does not resolve is an error (not a
 * template made of a file name); anything else is inline template text.
 *
 * @example
 * ```ts ignore
 * import { loadPrompt } from "./judge_prompt.ts";
 * const p = await loadPrompt("../prompts/safety.md", { fromDir: evalDir, root });
 * if (p.ok) console.log(p.template);
 * ```
 */
export async function loadPrompt(
  prompt: string,
  options: { fromDir: string; root: string },
): Promise<LoadedPrompt> {
  const pathLike = looksLikePath(prompt);
  if (!pathLike && /[\r\n]|\{\{/.test(prompt)) return { ok: true, template: prompt };
  const resolved = await resolveReference(prompt, options);
  if ("path" in resolved) {
    try {
      return { ok: true, template: await Deno.readTextFile(resolved.path), file: resolved.path };
    } catch (e) {
      return {
        ok: false,
        error: `Prompt file '${prompt}' could not be read: ${e instanceof Error ? e.message : e}`,
      };
    }
  }
  if (pathLike) {
    return {
      ok: false,
      error: `Prompt file '${prompt}' was not found: ${resolved.error}; ` +
        "fix the path (relative to the eval file's folder) or write the template inline",
    };
  }
  return { ok: true, template: prompt };
}

function looksLikePath(value: string): boolean {
  const v = value.trim();
  if (v === "" || /[\r\n]/.test(v) || v.includes("{{")) return false;
  if (/\.(md|markdown|txt|prompt|jinja2?|j2|tmpl|tpl|hbs|mustache)$/i.test(v)) return true;
  return !/\s/.test(v) && /[\\/]/.test(v);
}
