/**
 * The pi `--mode json` stream parser on streams recorded from the real `pi` (0.73.1, run against
 * tests/_helpers/chat_sse_server.ts): fixtures/agents/pi/*.jsonl, and on small hand-written
 * streams for what a recording cannot easily show.
 */
import assert from "node:assert/strict";
import { createPiStreamParser } from "../../lib/targets/pi_stream.ts";
import type { AgentTrace } from "../../lib/targets/agent_trace.ts";

const FIXTURES = new URL("../../fixtures/agents/pi/", import.meta.url);

type Json = Record<string, unknown>;

async function recorded(name: string): Promise<Json[]> {
  const text = await Deno.readTextFile(new URL(name, FIXTURES));
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

/** Parses `events` with a clock that advances 10 ms per line. */
function parse(events: (Json | string)[]): AgentTrace {
  let clock = Date.UTC(2026, 0, 1);
  const parser = createPiStreamParser({ now: () => clock });
  for (const e of events) {
    clock += 10;
    parser.push(typeof e === "string" ? e : JSON.stringify(e));
  }
  return parser.finish();
}

function calls(trace: AgentTrace) {
  return trace.output_messages.flatMap((m) => m.tool_calls ?? []);
}

Deno.test("pi stream: every recorded tool call is one call with its real output, status, exit code, and times from its start and end events", async () => {
  const events = await recorded("shell_edit_and_failing_step.jsonl");
  const ends = events.filter((e) => e.type === "tool_execution_end");
  const got = calls(parse(events));
  assert.deepEqual(
    got.map((c) => [c.id, c.tool, c.status, c.exit_code]),
    [
      ["call_0_0", "bash", "ok", undefined],
      ["call_1_0", "read", "ok", undefined],
      ["call_2_0", "edit", "ok", undefined],
      ["call_2_1", "bash", "error", 2], // ran, exited 2
    ],
  );
  assert.equal(ends.length, 4);
  assert.deepEqual(got[0]!.input, { command: "cat greeting.txt && echo listed > listing.txt" });
  assert.equal(got[0]!.output, "hello\n");
  assert.deepEqual(got[2]!.input, {
    path: "greeting.txt",
    edits: [{ oldText: "hello", newText: "hello, world" }],
  });
  assert.match(
    String(got[3]!.output),
    /No such file or directory\n\n\nCommand exited with code 2$/,
  );
  for (const call of got) {
    // Each call runs between its start and end events: timed by their arrival (10 ms per line).
    const start = events.findIndex((e) =>
      e.type === "tool_execution_start" && e.toolCallId === call.id
    );
    const end = events.findIndex((e) =>
      e.type === "tool_execution_end" && e.toolCallId === call.id
    );
    assert.equal(call.duration_ms, (end - start) * 10, String(call.id));
    assert.equal(
      Date.parse(String(call.ended_at)) - Date.parse(String(call.started_at)),
      call.duration_ms,
    );
  }
});

Deno.test("pi stream: one message per model response, the last response's text is the answer, usage adds the cached tokens back, turns are the responses", async () => {
  const trace = parse(await recorded("shell_edit_and_failing_step.jsonl"));
  assert.equal(trace.error, undefined);
  assert.equal(trace.final_text, "Updated greeting.txt.");
  assert.deepEqual(
    trace.output_messages.map((m) => [m.content, (m.tool_calls ?? []).map((c) => c.tool)]),
    [
      ["Let me look first.", ["bash"]],
      [undefined, ["read"]],
      [undefined, ["edit", "bash"]],
      ["Updated greeting.txt.", []],
    ],
  );
  // The scripted usage: prompt tokens include the cached ones; pi reports them apart.
  assert.deepEqual(trace.usage, {
    input: 1200 + 1300 + 100 + 1400,
    output: 40 + 60 + 20 + 25,
    cached: 200 + 1000 + 0 + 1200,
  });
  assert.equal(trace.cost_usd, undefined, "a cost of 0 is not reported: pricing applies");
  assert.equal(trace.turns, 4);
});

Deno.test("pi stream: a model API error (pi exits 0) is the agent's error, with no answer", async () => {
  const trace = parse(await recorded("api_error.jsonl"));
  assert.equal(trace.error, "400 Model pi-mock is not served by this gateway");
  assert.equal(trace.final_text, undefined);
  assert.equal(trace.turns, 1);
  assert.deepEqual(calls(trace), []);
});

const assistant = (content: Json[], extra: Json = {}) => ({
  type: "message_end",
  message: { role: "assistant", content, stopReason: "stop", ...extra },
});

Deno.test("pi stream: a failed attempt followed by a successful one ends well; an aborted last response is an error; pi's cost is summed", () => {
  const usage = (total: number) => ({
    input: 5,
    output: 1,
    cacheRead: 0,
    cacheWrite: 2,
    cost: { total },
  });
  const retried = parse([
    assistant([], { stopReason: "error", errorMessage: "overloaded", usage: usage(0.25) }),
    assistant([{ type: "text", text: "Done." }], { usage: usage(0.5) }),
  ]);
  assert.equal(retried.error, undefined);
  assert.equal(retried.final_text, "Done.");
  assert.equal(retried.cost_usd, 0.75);
  assert.deepEqual(retried.usage, { input: 14, output: 2, cached: 0 });
  const aborted = parse([assistant([{ type: "text", text: "Half" }], { stopReason: "aborted" })]);
  assert.equal(aborted.error, "pi stopped (aborted)");
});

Deno.test("pi stream: a last response that calls a tool has no answer; a result without its call is kept; junk lines and other events are ignored", () => {
  const trace = parse([
    "not json",
    '{"type":"session","version":3}',
    assistant([{ type: "toolCall", id: "t1", name: "write", arguments: { path: "a" } }]),
    {
      type: "tool_execution_end",
      toolCallId: "t9",
      toolName: "read",
      result: { content: [] },
      isError: true,
    },
    '{"type":"agent_end","messages":[]}',
  ]);
  assert.equal(trace.final_text, undefined);
  assert.equal(trace.error, undefined);
  assert.deepEqual(calls(trace).map((c) => [c.id, c.tool, c.status]), [
    ["t1", "write", "ok"],
    ["t9", "read", "error"],
  ]);
});
