/**
 * The Copilot CLI JSON stream parser on streams recorded from the real `copilot` (1.0.102, run
 * against tests/_helpers/chat_sse_server.ts as a custom provider): fixtures/agents/copilot/*.jsonl,
 * and on small hand-written streams for what a recording cannot easily show.
 */
import assert from "node:assert/strict";
import { createCopilotStreamParser } from "../../lib/targets/copilot_stream.ts";
import { type AgentTrace, countToolSteps } from "../../lib/targets/agent_trace.ts";

const FIXTURES = new URL("../../fixtures/agents/copilot/", import.meta.url);

type Json = Record<string, unknown>;

async function recorded(name: string): Promise<Json[]> {
  const text = await Deno.readTextFile(new URL(name, FIXTURES));
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

function parse(events: (Json | string)[]): AgentTrace {
  const parser = createCopilotStreamParser();
  for (const e of events) parser.push(typeof e === "string" ? e : JSON.stringify(e));
  return parser.finish();
}

function calls(trace: AgentTrace) {
  return trace.output_messages.flatMap((m) => m.tool_calls ?? []);
}

const data = (e: Json) => e.data as Json;

Deno.test("copilot stream: every requested tool is one call, timed by its start and complete events, with the shell's exit code", async () => {
  const events = await recorded("shell_edit_and_failing_steps.jsonl");
  const trace = parse(events);
  const starts = events.filter((e) => e.type === "tool.execution_start");
  const completes = events.filter((e) => e.type === "tool.execution_complete");
  const got = calls(trace);
  assert.deepEqual(
    got.map((c) => [c.id, c.tool, c.input]),
    starts.map((s) => [data(s).toolCallId, data(s).toolName, data(s).arguments]),
  );
  for (const complete of completes) {
    const call = got.find((c) => c.id === data(complete).toolCallId)!;
    const start = starts.find((s) => data(s).toolCallId === call.id)!;
    assert.equal(call.started_at, start.timestamp);
    assert.equal(call.ended_at, complete.timestamp);
    assert.equal(
      call.duration_ms,
      Date.parse(complete.timestamp as string) - Date.parse(start.timestamp as string),
    );
    assert.equal(call.output, (data(complete).result as Json | undefined)?.content);
  }
  assert.deepEqual(got.map((c) => [c.tool, c.status, c.exit_code]), [
    ["bash", "ok", 0],
    ["edit", "ok", undefined],
    ["view", "error", undefined], // success: false
    ["bash", "error", 2], // ran, exited 2
  ]);
  assert.match(String(got[0]!.output), /^hello\n/);
  assert.equal(got[2]!.error, "Path does not exist");
  assert.deepEqual(countToolSteps(trace.output_messages), { calls: 4, errors: 2 });
});

Deno.test("copilot stream: one message per model response; the last one is the answer; turns and duration from the stream", async () => {
  const events = await recorded("shell_edit_and_failing_steps.jsonl");
  const trace = parse(events);
  assert.equal(trace.error, undefined);
  assert.equal(trace.final_text, "Updated greeting.txt.");
  assert.deepEqual(
    trace.output_messages.map((m) => [m.content, (m.tool_calls ?? []).map((c) => c.tool)]),
    [
      ["Let me look first.", ["bash"]],
      [undefined, ["edit"]],
      [undefined, ["view", "bash"]],
      ["Updated greeting.txt.", []],
    ],
  );
  assert.equal(trace.turns, 4);
  const result = events.find((e) => e.type === "result")!;
  assert.equal(trace.duration_ms, (result.usage as Json).sessionDurationMs);
  assert.equal(trace.usage, undefined, "Copilot CLI reports no token counts");
});

Deno.test("copilot stream: a recorded API error is the session's error message", async () => {
  const trace = parse(await recorded("api_error.jsonl"));
  assert.equal(trace.error, "400 Model copilot-mock is not served by this gateway");
  assert.equal(trace.final_text, undefined);
});

Deno.test("copilot stream: a non-zero exit without an error event is an error; a last message that asks for tools is no answer", () => {
  const exited = parse([
    { type: "assistant.message", data: { content: "Partial.", toolRequests: [] } },
    { type: "result", exitCode: 3, usage: {} },
  ]);
  assert.equal(exited.error, "Copilot CLI ended with exit code 3");
  const cut = parse([
    "not json",
    {
      type: "assistant.message",
      data: {
        content: "Running it.",
        toolRequests: [{ toolCallId: "t1", name: "bash", arguments: { command: "ls" } }],
      },
    },
    { type: "result", exitCode: 0, usage: {} },
  ]);
  assert.equal(cut.final_text, undefined);
  assert.equal(cut.error, undefined);
  // A call that was asked for but never ran is kept, without times.
  assert.deepEqual(calls(cut).map((c) => [c.tool, c.started_at]), [["bash", undefined]]);
});
