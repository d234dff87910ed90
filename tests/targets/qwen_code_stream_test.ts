/**
 * Qwen Code's stream-json (Claude Code's format without timestamps, one `assistant` event per
 * block), parsed as the `qwen-code` provider parses it, on streams recorded from the real `qwen`
 * (0.24.4, run against tests/_helpers/chat_sse_server.ts): fixtures/agents/qwen/*.jsonl.
 */
import assert from "node:assert/strict";
import { createClaudeStreamParser } from "../../lib/targets/claude_stream.ts";
import { type AgentTrace, countToolSteps } from "../../lib/targets/agent_trace.ts";

const FIXTURES = new URL("../../fixtures/agents/qwen/", import.meta.url);
const START = Date.parse("2026-01-01T00:00:00.000Z");
const STEP_MS = 10;

type Json = Record<string, unknown>;

async function recorded(name: string): Promise<string[]> {
  const text = await Deno.readTextFile(new URL(name, FIXTURES));
  return text.split("\n").filter((l) => l !== "");
}

/** Parses the lines as the provider does; the clock advances {@link STEP_MS} per line. */
function parse(lines: string[]): AgentTrace {
  let index = 0;
  const parser = createClaudeStreamParser({
    now: () => START + index * STEP_MS,
    groupBy: "turn",
    agentName: "Qwen Code",
  });
  for (; index < lines.length; index++) parser.push(lines[index]);
  return parser.finish();
}

/** The index of the line whose event holds block `type` with `key` = `id`. */
function lineOf(lines: string[], type: string, key: string, id: string): number {
  return lines.findIndex((l) => {
    const content = ((JSON.parse(l) as Json).message as Json | undefined)?.content;
    return Array.isArray(content) && content.some((b) => b.type === type && b[key] === id);
  });
}

function calls(trace: AgentTrace) {
  return trace.output_messages.flatMap((m) => m.tool_calls ?? []);
}

Deno.test("qwen-code stream: every recorded tool_use is one call with its real result, timed by when its events arrived", async () => {
  const lines = await recorded("shell_edit_and_failing_step.jsonl");
  const trace = parse(lines);
  const got = calls(trace);
  assert.deepEqual(got.map((c) => [c.id, c.tool, c.status]), [
    ["call_0_0", "run_shell_command", "ok"],
    ["call_1_0", "read_file", "ok"],
    ["call_2_0", "edit", "ok"],
    ["call_2_1", "run_shell_command", "error"], // `ls missing-dir` exited 2: Qwen says is_error
  ]);
  assert.equal(got[0].output, "hello");
  assert.match(String(got[3].output), /Exit Code: 2/);
  for (const call of got) {
    const used = lineOf(lines, "tool_use", "id", call.id!);
    const answered = lineOf(lines, "tool_result", "tool_use_id", call.id!);
    assert.ok(used >= 0 && answered > used);
    assert.equal(call.started_at, new Date(START + used * STEP_MS).toISOString());
    assert.equal(call.duration_ms, (answered - used) * STEP_MS);
  }
  assert.deepEqual(countToolSteps(trace.output_messages), { calls: 4, errors: 1 });
});

Deno.test("qwen-code stream: the blocks of one model response form one message; the result gives answer, usage, turns and duration", async () => {
  const lines = await recorded("shell_edit_and_failing_step.jsonl");
  const result = JSON.parse(lines.at(-1)!) as Json;
  const trace = parse(lines);
  assert.equal(trace.error, undefined);
  assert.equal(trace.final_text, "Updated greeting.txt.");
  assert.deepEqual(
    trace.output_messages.map((m) => [m.content, (m.tool_calls ?? []).map((c) => c.tool)]),
    [
      ["Let me look first.", ["run_shell_command"]],
      [undefined, ["read_file"]],
      [undefined, ["edit", "run_shell_command"]],
      ["Updated greeting.txt.", []],
    ],
  );
  // The scripted usage: 1200 + 1300 + 100 + 1400 prompt tokens, 40 + 60 + 20 + 25 out.
  assert.deepEqual(trace.usage, { input: 4000, output: 145, cached: 2400 });
  assert.equal(trace.turns, 4);
  assert.equal(trace.duration_ms, result.duration_ms);
});

Deno.test("qwen-code stream: a recorded API error is the agent's error, said once", async () => {
  const trace = parse(await recorded("api_error.jsonl"));
  assert.equal(trace.error, "[API Error: 400 Model qwen-mock is not served by this gateway]");
  assert.equal(trace.final_text, undefined);
});

Deno.test("claude stream: without a clock, events that carry no timestamp have no times (Claude Code's own parse is unchanged)", async () => {
  const parser = createClaudeStreamParser();
  for (const line of await recorded("shell_edit_and_failing_step.jsonl")) parser.push(line);
  const trace = parser.finish();
  const got = calls(trace);
  assert.equal(got.length, 4);
  for (const call of got) {
    assert.equal(call.started_at, undefined);
    assert.equal(call.duration_ms, undefined);
  }
  // Grouped by message id, Qwen's text block and its tool call are messages of their own.
  assert.equal(trace.output_messages[0].content, "Let me look first.");
  assert.equal(trace.output_messages[0].tool_calls, undefined);
});
