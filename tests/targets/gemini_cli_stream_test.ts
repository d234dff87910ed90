/**
 * The Gemini CLI stream-json parser on streams recorded from the real `gemini` (0.61.0, run
 * against tests/_helpers/gemini_sse_server.ts): fixtures/agents/gemini/*.jsonl, and on small
 * hand-written streams for what a recording cannot easily show.
 */
import assert from "node:assert/strict";
import { createGeminiCliStreamParser } from "../../lib/targets/gemini_cli_stream.ts";
import { type AgentTrace, countToolSteps } from "../../lib/targets/agent_trace.ts";

const FIXTURES = new URL("../../fixtures/agents/gemini/", import.meta.url);

type Json = Record<string, unknown>;

async function recorded(name: string): Promise<Json[]> {
  const text = await Deno.readTextFile(new URL(name, FIXTURES));
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

function parse(events: (Json | string)[]): AgentTrace {
  const parser = createGeminiCliStreamParser();
  for (const e of events) parser.push(typeof e === "string" ? e : JSON.stringify(e));
  return parser.finish();
}

function calls(trace: AgentTrace) {
  return trace.output_messages.flatMap((m) => m.tool_calls ?? []);
}

Deno.test("gemini-cli stream: every recorded tool_use is one call, paired by tool_id with its real result, timed by both events", async () => {
  const events = await recorded("shell_edit_and_failing_steps.jsonl");
  const trace = parse(events);
  const uses = events.filter((e) => e.type === "tool_use");
  const results = events.filter((e) => e.type === "tool_result");
  assert.equal(uses.length, 4);
  const got = calls(trace);
  assert.deepEqual(
    got.map((c) => [c.id, c.tool, c.input]),
    uses.map((u) => [u.tool_id, u.tool_name, u.parameters]),
  );
  for (const result of results) {
    const call = got.find((c) => c.id === result.tool_id)!;
    assert.equal(call.output, result.output);
    assert.equal(call.status, result.status === "error" ? "error" : "ok");
    assert.equal(call.started_at, uses.find((u) => u.tool_id === call.id)!.timestamp);
    assert.equal(call.ended_at, result.timestamp);
    assert.equal(
      call.duration_ms,
      Date.parse(result.timestamp as string) - Date.parse(call.started_at as string),
    );
  }
  // What the tools really did: `cat` printed the file, the missing file was an error.
  const [cat, edit, read, ls] = got;
  assert.equal(cat.output, "hello");
  assert.deepEqual(edit.input, {
    file_path: "greeting.txt",
    old_string: "hello",
    new_string: "hello, world",
    instruction: "Greet the world",
  });
  assert.equal(read.status, "error");
  assert.match(String(read.error), /^File not found: .*missing\.txt$/);
  // Gemini CLI reports a command that ran and exited 2 as a success: its stream has no exit code.
  assert.equal(ls.status, "ok");
  assert.match(String(ls.output), /missing-dir/);
  assert.deepEqual(countToolSteps(trace.output_messages), { calls: 4, errors: 1 });
});

Deno.test("gemini-cli stream: text deltas join into one message per model response, the last one is the answer", async () => {
  const trace = parse(await recorded("shell_edit_and_failing_steps.jsonl"));
  assert.equal(trace.error, undefined);
  assert.equal(trace.final_text, "Updated greeting.txt.");
  const messages = trace.output_messages;
  // Response 1: text then the shell call; 2: the edit; 3: two calls at once; 4: the answer.
  assert.deepEqual(messages.map((m) => [m.content, (m.tool_calls ?? []).length]), [
    ["Let me look first.", 1],
    [undefined, 1],
    [undefined, 2],
    ["Updated greeting.txt.", 0],
  ]);
});

Deno.test("gemini-cli stream: the result's stats give token usage and duration", async () => {
  const events = await recorded("shell_edit_and_failing_steps.jsonl");
  const stats = events.at(-1)!.stats as Json;
  const trace = parse(events);
  // The scripted usage: 1200 + 1300 + 100 + 1400 prompt tokens, 40 + 60 + 20 + 25 out, 2400 cached.
  assert.deepEqual(trace.usage, { input: 4000, output: 145, cached: 2400 });
  assert.equal(trace.duration_ms, stats.duration_ms);
});

Deno.test("gemini-cli stream: a recorded API error is the agent's error, reduced to the API's message", async () => {
  const trace = parse(await recorded("api_error.jsonl"));
  assert.equal(trace.error, "Model gemini-mock is not served by this gateway");
  assert.equal(trace.final_text, undefined);
  assert.deepEqual(trace.output_messages, []);
});

Deno.test("gemini-cli stream: an error event without a result is the error; a warning is not", () => {
  const warned = parse([
    { type: "error", severity: "warning", message: "Loop detected, continuing" },
    { type: "message", role: "assistant", content: "Done.", delta: true },
    { type: "result", status: "success", stats: {} },
  ]);
  assert.equal(warned.error, undefined);
  assert.equal(warned.final_text, "Done.");
  const cut = parse([{ type: "error", severity: "error", message: "Invalid stream from model" }]);
  assert.equal(cut.error, "Invalid stream from model");
});

Deno.test("gemini-cli stream: a run whose last event is a tool result has no final answer; bad lines are skipped", () => {
  const trace = parse([
    "Loading extensions...",
    "{not json",
    { type: "message", role: "assistant", content: "Working." },
    { type: "tool_use", tool_name: "write_file", tool_id: "w1", parameters: { file_path: "a" } },
    { type: "tool_result", tool_id: "w1", status: "success" },
  ]);
  assert.equal(trace.final_text, undefined);
  assert.equal(trace.error, undefined);
  assert.equal(calls(trace).length, 1);
  assert.equal(trace.output_messages[0].content, "Working.");
});
