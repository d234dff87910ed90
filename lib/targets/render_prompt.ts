/**
 * The prompt a target receives for a case: guidelines first (`[[ ## Guidelines ## ]]`), then
 * the input messages, flat or with `@[Role]:` markers; and the chat form for HTTP models.
 *
 * @module
 */
import type { EvalCase } from "../schema/eval_case.ts";
import type { Message } from "../schema/message.ts";
import type { ChatMessage } from "./types.ts";

/** Header of the guidelines block. */
export const GUIDELINES_HEADER = "[[ ## Guidelines ## ]]";

/**
 * The guideline files of a case, each as `<file path="...">` + content + `</file>`, joined by
 * blank lines; empty when the case has none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderGuidelines } from "./render_prompt.ts";
 * import type { EvalCase } from "../schema/eval_case.ts";
 *
 * const evalCase: EvalCase = {
 *   id: "add",
 *   dataset: "math",
 *   expected_outcome: "Says 4",
 *   input: [{ role: "system", content: "You are a calculator" }, {
 *     role: "user",
 *     content: [
 *       { type: "file", value: "a.instructions.md", path: "/d/a.instructions.md", text: "Be exact.",
 *         guideline: true },
 *       { type: "text", value: "2+2?" },
 *     ],
 *   }],
 *   expected_output: [],
 *   execution: { target: "default" },
 *   evaluator: "llm_judge",
 *   evaluators: [],
 *   guideline_paths: ["/d/a.instructions.md"],
 *   file_paths: [],
 * };
 * assert.equal(renderGuidelines(evalCase), '<file path="a.instructions.md">\nBe exact.\n</file>');
 * ```
 */
export function renderGuidelines(evalCase: EvalCase): string {
  const seen = new Set<string>();
  const blocks: string[] = [];
  for (const message of evalCase.input) {
    if (!Array.isArray(message.content)) continue;
    for (const segment of message.content) {
      const file = asFile(segment);
      if (!file?.guideline || seen.has(file.path)) continue;
      seen.add(file.path);
      blocks.push(fileBlock(file.value, file.text));
    }
  }
  return blocks.join("\n\n");
}

/**
 * The text prompt of a case (for CLI targets and `{PROMPT}`): the guidelines block first, then
 * the input. A single visible user message is rendered as its text; several messages, or any
 * `assistant`/`tool` message, are rendered with `@[Role]:` markers. Attached files are inlined
 * as `<file path="...">` blocks; structured content is pretty JSON.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderPrompt } from "@agentv/agentv";
 * import type { EvalCase } from "../schema/eval_case.ts";
 *
 * const evalCase: EvalCase = {
 *   id: "add",
 *   dataset: "math",
 *   expected_outcome: "Says 4",
 *   input: [{ role: "system", content: "You are a calculator" }, {
 *     role: "user",
 *     content: [
 *       { type: "file", value: "a.instructions.md", path: "/d/a.instructions.md", text: "Be exact.",
 *         guideline: true },
 *       { type: "text", value: "2+2?" },
 *     ],
 *   }],
 *   expected_output: [],
 *   execution: { target: "default" },
 *   evaluator: "llm_judge",
 *   evaluators: [],
 *   guideline_paths: ["/d/a.instructions.md"],
 *   file_paths: [],
 * };
 * assert.equal(
 *   renderPrompt(evalCase),
 *   '[[ ## Guidelines ## ]]\n\n<file path="a.instructions.md">\nBe exact.\n</file>\n\n' +
 *     "@[System]:\nYou are a calculator\n\n@[User]:\n2+2?",
 * );
 * ```
 */
export function renderPrompt(evalCase: EvalCase): string {
  const parts: string[] = [];
  const guidelines = renderGuidelines(evalCase);
  if (guidelines !== "") parts.push(`${GUIDELINES_HEADER}\n\n${guidelines}`);
  const rendered = evalCase.input
    .map((m) => ({ role: m.role, text: renderMessage(m) }))
    .filter((m) => m.text !== "");
  const markers = rendered.length > 1 ||
    evalCase.input.some((m) => m.role === "assistant" || m.role === "tool");
  if (markers) {
    parts.push(rendered.map((m) => `@[${roleLabel(m.role)}]:\n${m.text}`).join("\n\n"));
  } else if (rendered.length === 1) {
    parts.push(rendered[0].text);
  }
  return parts.join("\n\n");
}

/**
 * The chat form of a case for HTTP model targets: a system message holding the guidelines block
 * and the leading system messages, then the conversation. Later `system` and `tool` messages
 * become `assistant` messages starting with `@[System]:` / `@[Tool]:`; empty messages are
 * dropped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildChatMessages } from "./render_prompt.ts";
 * import type { EvalCase } from "../schema/eval_case.ts";
 *
 * const evalCase: EvalCase = {
 *   id: "add",
 *   dataset: "math",
 *   expected_outcome: "Says 4",
 *   input: [{ role: "system", content: "You are a calculator" }, {
 *     role: "user",
 *     content: [
 *       { type: "file", value: "a.instructions.md", path: "/d/a.instructions.md", text: "Be exact.",
 *         guideline: true },
 *       { type: "text", value: "2+2?" },
 *     ],
 *   }],
 *   expected_output: [],
 *   execution: { target: "default" },
 *   evaluator: "llm_judge",
 *   evaluators: [],
 *   guideline_paths: ["/d/a.instructions.md"],
 *   file_paths: [],
 * };
 * assert.deepEqual(buildChatMessages(evalCase), [
 *   {
 *     role: "system",
 *     content: '[[ ## Guidelines ## ]]\n\n<file path="a.instructions.md">\nBe exact.\n</file>\n\n' +
 *       "You are a calculator",
 *   },
 *   { role: "user", content: "2+2?" },
 * ]);
 * ```
 */
export function buildChatMessages(evalCase: EvalCase): ChatMessage[] {
  const system: string[] = [];
  const guidelines = renderGuidelines(evalCase);
  if (guidelines !== "") system.push(`${GUIDELINES_HEADER}\n\n${guidelines}`);
  let i = 0;
  while (i < evalCase.input.length && evalCase.input[i].role === "system") {
    const text = renderMessage(evalCase.input[i]);
    if (text !== "") system.push(text);
    i++;
  }
  const out: ChatMessage[] = [];
  if (system.length > 0) out.push({ role: "system", content: system.join("\n\n") });
  for (; i < evalCase.input.length; i++) {
    const message = evalCase.input[i];
    const text = renderMessage(message);
    if (text === "") continue;
    if (message.role === "user" || message.role === "assistant") {
      out.push({ role: message.role, content: text });
    } else {
      out.push({ role: "assistant", content: `@[${roleLabel(message.role)}]:\n${text}` });
    }
  }
  return out;
}

/** The visible text of one message (guideline files are left to the guidelines block). */
export function renderMessage(message: Message): string {
  const pieces: string[] = [];
  const content = message.content;
  if (typeof content === "string") {
    if (content.trim() !== "") pieces.push(content.trim());
  } else if (Array.isArray(content)) {
    for (const segment of content) {
      const text = renderSegment(segment);
      if (text !== undefined && text.trim() !== "") pieces.push(text.trim());
    }
  } else if (content !== undefined && content !== null) {
    pieces.push(JSON.stringify(content, null, 2));
  }
  if (message.tool_calls && message.tool_calls.length > 0) {
    pieces.push(JSON.stringify({ tool_calls: message.tool_calls }, null, 2));
  }
  return pieces.join("\n");
}

function renderSegment(segment: unknown): string | undefined {
  if (segment === null || typeof segment !== "object") return undefined;
  const record = segment as Record<string, unknown>;
  if (record.type === "text" && typeof record.value === "string") return record.value;
  const file = asFile(segment);
  if (file) return file.guideline ? undefined : fileBlock(file.value, file.text);
  return undefined;
}

function asFile(
  segment: unknown,
): { value: string; path: string; text: string; guideline?: boolean } | undefined {
  const r = segment as Record<string, unknown> | null;
  return r !== null && typeof r === "object" && r.type === "file" && typeof r.text === "string" &&
      typeof r.path === "string" &&
      typeof r.value === "string"
    ? (r as { value: string; path: string; text: string; guideline?: boolean })
    : undefined;
}

function fileBlock(path: string, text: string): string {
  return `<file path="${path.replace(/^\.\//, "")}">\n${text.trim()}\n</file>`;
}

function roleLabel(role: string): string {
  return role[0].toUpperCase() + role.slice(1);
}
