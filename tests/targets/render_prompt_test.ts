/** renderPrompt(), renderGuidelines() and buildChatMessages(). */
import assert from "node:assert/strict";
import {
  buildChatMessages,
  renderGuidelines,
  renderPrompt,
} from "../../lib/targets/render_prompt.ts";
import type { EvalCase } from "../../lib/schema/eval_case.ts";
import type { Message } from "../../lib/schema/message.ts";

function evalCase(input: Message[]): EvalCase {
  return {
    id: "c",
    dataset: "d",
    expected_outcome: "x",
    input,
    expected_output: [],
    execution: { target: "default" },
    evaluator: "llm_judge",
    evaluators: [],
    guideline_paths: [],
    file_paths: [],
  };
}

const guideline = {
  type: "file",
  value: "python.instructions.md",
  path: "/r/python.instructions.md",
  text: "Use type hints.\n",
  guideline: true,
};
const attachment = { type: "file", value: "./code.py", path: "/r/code.py", text: "x = 1\n" };

Deno.test("renderPrompt() renders a single user message as its text", () => {
  assert.equal(
    renderPrompt(evalCase([{ role: "user", content: "  What is 2+2?  " }])),
    "What is 2+2?",
  );
});

Deno.test("renderPrompt() puts guidelines first and inlines attached files", () => {
  const c = evalCase([{
    role: "user",
    content: [{ type: "text", value: "Review:" }, guideline, attachment],
  }]);
  assert.equal(
    renderGuidelines(c),
    '<file path="python.instructions.md">\nUse type hints.\n</file>',
  );
  assert.equal(
    renderPrompt(c),
    "[[ ## Guidelines ## ]]\n\n" +
      '<file path="python.instructions.md">\nUse type hints.\n</file>\n\n' +
      'Review:\n<file path="code.py">\nx = 1\n</file>',
  );
});

Deno.test("renderPrompt() uses @[Role]: markers for conversations; structured content is JSON", () => {
  const c = evalCase([
    { role: "system", content: "Be brief." },
    { role: "user", content: "Hi" },
    { role: "assistant", content: { answer: 1 } },
    { role: "user", content: "Again" },
  ]);
  assert.equal(
    renderPrompt(c),
    '@[System]:\nBe brief.\n\n@[User]:\nHi\n\n@[Assistant]:\n{\n  "answer": 1\n}\n\n@[User]:\nAgain',
  );
});

Deno.test("buildChatMessages() folds guidelines and leading system messages into one system message", () => {
  const c = evalCase([
    { role: "system", content: "Be brief." },
    { role: "user", content: [guideline, { type: "text", value: "Hi" }] },
    { role: "tool", content: "42" },
    { role: "system", content: "Late rule" },
    { role: "assistant", tool_calls: [{ tool: "search", input: { q: "x" } }] },
  ]);
  assert.deepEqual(buildChatMessages(c), [
    {
      role: "system",
      content: "[[ ## Guidelines ## ]]\n\n" +
        '<file path="python.instructions.md">\nUse type hints.\n</file>\n\nBe brief.',
    },
    { role: "user", content: "Hi" },
    { role: "assistant", content: "@[Tool]:\n42" },
    { role: "assistant", content: "@[System]:\nLate rule" },
    {
      role: "assistant",
      content: JSON.stringify({ tool_calls: [{ tool: "search", input: { q: "x" } }] }, null, 2),
    },
  ]);
  assert.deepEqual(buildChatMessages(evalCase([{ role: "user", content: "Hi" }])), [
    { role: "user", content: "Hi" },
  ]);
});
