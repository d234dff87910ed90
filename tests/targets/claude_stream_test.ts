/**
 * The Claude Code stream-json parser on streams recorded from the real `claude` (2.1.332, run
 * against tests/_helpers/anthropic_sse_server.ts): fixtures/agents/claude/*.jsonl.
 */
import assert from "node:assert/strict";
import { createClaudeStreamParser } from "../../lib/targets/claude_stream.ts";
import type { AgentTrace } from "../../lib/targets/agent_trace.ts";

const FIXTURES = new URL("../../fixtures/agents/claude/", import.meta.url);

type Json = Record<string, unknown>;

async function recorded(name: string): Promise<string[]> {
  const text = await Deno.readTextFile(new URL(name, FIXTURES));
  return text.split("\n").filter((l) => l !== "");
}

function parse(lines: string[]): AgentTrace {
  const parser = createClaudeStreamParser();
  for (const line of lines) parser.push(line);
  return parser.finish();
}

/** Blocks of `type` in the events of `eventType`, read straight from the raw stream. */
function blocks(lines: string[], eventType: string, type: string): (Json & { _event: Json })[] {
  const out: (Json & { _event: Json })[] = [];
  for (const line of lines) {
    const event = JSON.parse(line) as Json;
    if (event.type !== eventType) continue;
    const content = (event.message as Json).content as Json[];
    for (const b of content) if (b.type === type) out.push({ ...b, _event: event });
  }
  return out;
}

function calls(trace: AgentTrace) {
  return trace.output_messages.flatMap((m) => m.tool_calls ?? []);
}

Deno.test("a recorded run: every tool_use is one call with its input, paired by id with its real result", async () => {
  const lines = await recorded("bash_edit_and_failing_step.jsonl");
  const trace = parse(lines);
  const uses = blocks(lines, "assistant", "tool_use");
  const results = blocks(lines, "user", "tool_result");
  assert.ok(uses.length >= 3 && results.length === uses.length);
  const got = calls(trace);
  // Results are paired, never counted as calls.
  assert.deepEqual(
    got.map((c) => [c.id, c.tool, c.input]),
    uses.map((u) => [u.id, u.name, u.input]),
  );
  for (const result of results) {
    const call = got.find((c) => c.id === result.tool_use_id)!;
    assert.equal(call.output, result.content);
    assert.equal(call.status, result.is_error === true ? "error" : "ok");
    assert.equal(call.started_at, uses.find((u) => u.id === call.id)!._event.timestamp);
    assert.equal(call.ended_at, result._event.timestamp);
    assert.equal(
      call.duration_ms,
      Date.parse(call.ended_at as string) - Date.parse(call.started_at as string),
    );
  }
  // The recording has one failing shell step (ls of a missing folder) and one real output.
  const failing = got.filter((c) => c.status === "error");
  assert.equal(failing.length, 1);
  assert.match(String(failing[0].output), /missing-dir/);
  assert.equal(got.find((c) => c.tool === "Bash" && c.status === "ok")?.output, "hello");
});

Deno.test("a recorded run: blocks of one message form one assistant message, and the answer comes last", async () => {
  const lines = await recorded("bash_edit_and_failing_step.jsonl");
  const trace = parse(lines);
  const ids = new Set(
    lines.map((l) => JSON.parse(l) as Json).filter((e) => e.type === "assistant")
      .map((e) => (e.message as Json).id),
  );
  assert.equal(trace.output_messages.length, ids.size);
  const result = lines.map((l) => JSON.parse(l) as Json).find((e) => e.type === "result")!;
  assert.equal(trace.final_text, result.result);
  assert.equal(trace.output_messages.at(-1)?.content, result.result);
  assert.equal(trace.output_messages[0].content, blocks(lines, "assistant", "text")[0].text);
  assert.equal(trace.error, undefined);
});

Deno.test("a recorded run: usage, total_cost_usd, num_turns and duration_ms come from the result event", async () => {
  const lines = await recorded("bash_edit_and_failing_step.jsonl");
  const trace = parse(lines);
  const result = lines.map((l) => JSON.parse(l) as Json).find((e) => e.type === "result")!;
  const usage = result.usage as Json;
  assert.deepEqual(trace.usage, {
    input: usage.input_tokens,
    output: usage.output_tokens,
    cached: usage.cache_read_input_tokens,
  });
  assert.equal(trace.cost_usd, result.total_cost_usd);
  assert.equal(trace.turns, result.num_turns);
  assert.equal(trace.duration_ms, result.duration_ms);
});

Deno.test("a recorded API error: the agent's own message is the trace's error and there is no answer", async () => {
  const lines = await recorded("api_error.jsonl");
  const trace = parse(lines);
  const result = lines.map((l) => JSON.parse(l) as Json).find((e) => e.type === "result")!;
  assert.equal(result.is_error, true);
  assert.equal(trace.error, result.result);
  assert.match(trace.error!, /400/);
  assert.equal(trace.final_text, undefined);
  assert.equal(calls(trace).length, 0);
});

Deno.test("lines that are not JSON and unknown event types are ignored without ending the parse", async () => {
  const lines = await recorded("bash_edit_and_failing_step.jsonl");
  const noisy = lines.flatMap((line, i) => [
    line,
    ...(i % 2 === 0
      ? ["Warning: something odd", '{"type":"brand_new_event","x":1}', "", "[1,2]"]
      : []),
  ]);
  assert.deepEqual(parse(noisy), parse(lines));
});

Deno.test("a tool result whose call was never seen keeps its output on a call of its own", () => {
  const trace = parse([
    '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t9","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],"is_error":true}]}}',
  ]);
  assert.deepEqual(calls(trace), [{
    tool: "unknown",
    input: undefined,
    id: "t9",
    status: "error",
    output: "a\nb",
  }]);
});

Deno.test("a stream cut before its result event has the calls so far and no final answer", async () => {
  const lines = await recorded("bash_edit_and_failing_step.jsonl");
  const cut = lines.filter((l) => (JSON.parse(l) as Json).type !== "result");
  const trace = parse(cut);
  assert.equal(trace.final_text, undefined);
  assert.equal(trace.error, undefined);
  assert.equal(calls(trace).length, blocks(lines, "assistant", "tool_use").length);
});

Deno.test("a result with an error subtype and no text says which limit stopped the agent", () => {
  const trace = parse([
    '{"type":"result","subtype":"error_max_turns","is_error":true,"num_turns":3}',
  ]);
  assert.equal(trace.error, "Claude Code ended with error_max_turns after 3 turns");
  assert.equal(trace.turns, 3);
});

Deno.test("a recorded max-turns stop: the error is Claude Code's own message and the calls so far are kept", async () => {
  const lines = await recorded("max_turns.jsonl");
  const trace = parse(lines);
  const result = lines.map((l) => JSON.parse(l) as Json).find((e) => e.type === "result")!;
  assert.equal(result.subtype, "error_max_turns");
  assert.equal(trace.error, (result.errors as string[]).join("; "));
  assert.equal(trace.final_text, undefined);
  assert.deepEqual(
    calls(trace).map((c) => [c.id, c.output]),
    blocks(lines, "user", "tool_result").map((b) => [b.tool_use_id, b.content]),
  );
  assert.equal(trace.turns, result.num_turns);
  assert.equal(trace.cost_usd, result.total_cost_usd);
});
