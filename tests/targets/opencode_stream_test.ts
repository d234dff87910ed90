/**
 * The opencode `run --format json` stream parser on streams recorded from the real `opencode`
 * (1.18.33, run against tests/_helpers/chat_sse_server.ts): fixtures/agents/opencode/*.jsonl, and on
 * small hand-written streams for what a recording cannot easily show.
 */
import assert from "node:assert/strict";
import { createOpencodeStreamParser } from "../../lib/targets/opencode_stream.ts";
import { type AgentTrace, countToolSteps } from "../../lib/targets/agent_trace.ts";

const FIXTURES = new URL("../../fixtures/agents/opencode/", import.meta.url);

type Json = Record<string, unknown>;

async function recorded(name: string): Promise<Json[]> {
  const text = await Deno.readTextFile(new URL(name, FIXTURES));
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

function parse(events: (Json | string)[]): AgentTrace {
  const parser = createOpencodeStreamParser();
  for (const e of events) parser.push(typeof e === "string" ? e : JSON.stringify(e));
  return parser.finish();
}

function calls(trace: AgentTrace) {
  return trace.output_messages.flatMap((m) => m.tool_calls ?? []);
}

Deno.test("opencode stream: every recorded tool part is one call with its real output, status, exit code and the tool's own times", async () => {
  const events = await recorded("shell_edit_and_failing_steps.jsonl");
  const parts = events.filter((e) => e.type === "tool_use").map((e) => e.part as Json);
  const got = calls(parse(events));
  assert.deepEqual(got.map((c) => [c.id, c.tool]), parts.map((p) => [p.callID, p.tool]));
  for (const [i, call] of got.entries()) {
    const state = parts[i]!.state as Json;
    const time = state.time as { start: number; end: number };
    assert.deepEqual(call.input, state.input);
    assert.equal(call.output, state.output ?? state.error);
    assert.equal(call.started_at, new Date(time.start).toISOString());
    assert.equal(call.ended_at, new Date(time.end).toISOString());
    assert.equal(call.duration_ms, time.end - time.start);
  }
  assert.deepEqual(got.map((c) => [c.tool, c.status, c.exit_code]), [
    ["bash", "ok", 0],
    ["edit", "ok", undefined],
    ["read", "error", undefined], // the tool failed: File not found
    ["bash", "error", 2], // ran, exited 2
  ]);
  assert.equal(got[0]!.output, "hello\n");
  assert.match(String(got[2]!.output), /^File not found: .*missing\.txt$/);
});

Deno.test("opencode stream: one message per step, the last step's text is the answer, usage adds the cached tokens back", async () => {
  const trace = parse(await recorded("shell_edit_and_failing_steps.jsonl"));
  assert.equal(trace.error, undefined);
  assert.equal(trace.final_text, "Updated greeting.txt.");
  assert.deepEqual(
    trace.output_messages.map((m) => [m.content, (m.tool_calls ?? []).map((c) => c.tool)]),
    [
      ["Let me look first.", ["bash"]],
      [undefined, ["edit"]],
      [undefined, ["read", "bash"]],
      ["Updated greeting.txt.", []],
    ],
  );
  // The scripted usage: 1200 + 1300 + 100 + 1400 prompt tokens (2400 cached), 145 out; opencode
  // reports the uncached part as `input`.
  assert.deepEqual(trace.usage, { input: 4000, output: 145, cached: 2400 });
  assert.equal(trace.turns, 4);
  assert.equal(trace.cost_usd, undefined, "opencode priced nothing for a model it has no price of");
  assert.deepEqual(countToolSteps(trace.output_messages), { calls: 4, errors: 2 });
});

Deno.test("opencode stream: a recorded API error is the agent's error message", async () => {
  const trace = parse(await recorded("api_error.jsonl"));
  assert.equal(trace.error, "Model opencode-mock is not served by this gateway");
  assert.equal(trace.final_text, undefined);
});

Deno.test("opencode stream: the cost opencode priced is summed; a last step with a tool call is no answer; bad lines are skipped", () => {
  const step = (cost: number) => ({
    type: "step_finish",
    part: { tokens: { input: 10, output: 2, cache: { read: 0 } }, cost },
  });
  const trace = parse([
    "{oops",
    { type: "step_start", part: {} },
    { type: "text", part: { text: "On it." } },
    step(0.25),
    { type: "step_start", part: {} },
    {
      type: "tool_use",
      part: { tool: "bash", callID: "b1", state: { status: "running", input: { command: "ls" } } },
    },
    step(0.5),
  ]);
  assert.equal(trace.cost_usd, 0.75);
  assert.equal(trace.final_text, undefined);
  assert.deepEqual(trace.usage, { input: 20, output: 4, cached: 0 });
  assert.equal(calls(trace)[0]!.started_at, undefined);
});

Deno.test("opencode stream: the calls of one step are in the order they started, whatever order they ended in", () => {
  const tool = (callID: string, start: number, end: number) => ({
    type: "tool_use",
    part: {
      tool: "bash",
      callID,
      state: { status: "completed", input: {}, output: "", time: { start, end } },
    },
  });
  // Asked for first, `slow` started first and ended last: opencode reports `quick` first.
  const trace = parse([
    { type: "step_start", part: {} },
    tool("quick", 1010, 1100),
    tool("slow", 1000, 1900),
    { type: "step_finish", part: {} },
  ]);
  assert.deepEqual(calls(trace).map((c) => [c.id, c.duration_ms]), [["slow", 900], ["quick", 90]]);
});
