/**
 * The Codex `--json` stream parser, on streams recorded from the real `codex exec` 0.169 run
 * against tests/_helpers/responses_sse_server.ts (fixtures/agents/codex/*.jsonl), and on small
 * hand-written streams for what a recording cannot easily show.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { createCodexStreamParser } from "../../lib/targets/codex_stream.ts";
import { countToolSteps } from "../../lib/targets/agent_trace.ts";
import type { AgentTrace } from "../../lib/targets/agent_trace.ts";

const FIXTURES = fileURLToPath(new URL("../../fixtures/agents/codex/", import.meta.url));

/** The usage each scripted response of the `shell_and_edit` recording reported. */
const SHELL_AND_EDIT_SCRIPT = [
  { input: 1200, output: 40, cached: 200 },
  { input: 1300, output: 60, cached: 1000 },
  { input: 1400, output: 25, cached: 1200 },
];
/** Default usage of the mock server's responses (the other recordings). */
const DEFAULT_RESPONSE = { input: 100, output: 20, cached: 0 };

const STEP_MS = 10;
const START = Date.parse("2026-01-01T00:00:00.000Z");

/** Parses a recorded stream; the clock advances {@link STEP_MS} per line. */
async function parseFixture(name: string): Promise<{ trace: AgentTrace; lines: string[] }> {
  const text = await Deno.readTextFile(`${FIXTURES}${name}`);
  const lines = text.split("\n").filter((l) => l !== "");
  let index = 0;
  const parser = createCodexStreamParser({ now: () => START + index * STEP_MS });
  for (; index < lines.length; index++) parser.push(lines[index]);
  return { trace: parser.finish(), lines };
}

/** The line index of the first event of `type` for item `id`. */
function lineOf(lines: string[], type: string, id: string): number {
  return lines.findIndex((l) => {
    const e = JSON.parse(l);
    return e.type === type && e.item?.id === id;
  });
}

function sum(usages: { input: number; output: number; cached: number }[]) {
  return usages.reduce((a, u) => ({
    input: a.input + u.input,
    output: a.output + u.output,
    cached: a.cached + u.cached,
  }), { input: 0, output: 0, cached: 0 });
}

Deno.test("codex stream: a recorded shell command and file edit become tool calls with outputs, statuses and durations", async () => {
  const { trace, lines } = await parseFixture("shell_and_edit.jsonl");
  assert.equal(trace.error, undefined, "the model-metadata warning item is not an agent error");
  const calls = trace.output_messages.flatMap((m) => m.tool_calls ?? []);
  assert.deepEqual(calls.map((c) => c.tool), ["command_execution", "file_change"]);

  const [shell, edit] = calls;
  assert.equal(shell.id, "item_2");
  assert.match(String((shell.input as { command: string }).command), /cat greeting\.txt/);
  assert.equal(shell.output, "hello\n");
  assert.equal(shell.status, "ok");
  assert.equal(shell.exit_code, 0);
  const shellMs =
    (lineOf(lines, "item.completed", "item_2") - lineOf(lines, "item.started", "item_2")) *
    STEP_MS;
  assert.equal(shell.duration_ms, shellMs);
  assert.equal(
    shell.started_at,
    new Date(START + lineOf(lines, "item.started", "item_2") * STEP_MS).toISOString(),
  );

  const changes = (edit.input as { changes: { path: string; kind: string }[] }).changes;
  assert.equal(changes.length, 1);
  assert.match(changes[0].path, /greeting\.txt$/);
  assert.equal(changes[0].kind, "update");
  assert.equal(edit.status, "ok");

  // The text before the command shares its message; the answer after the edit is its own.
  assert.equal(trace.output_messages[0].content, "Let me look first.");
  assert.equal(trace.output_messages.at(-1)?.content, "Updated greeting.txt (saw 1 output).");
  assert.equal(trace.final_text, "Updated greeting.txt (saw 1 output).");
  assert.deepEqual(trace.usage, sum(SHELL_AND_EDIT_SCRIPT));
  assert.equal(trace.turns, 1);
});

Deno.test("codex stream: a recorded command that exits non-zero is an error step, and the run still answers", async () => {
  const { trace } = await parseFixture("failing_step.jsonl");
  const calls = trace.output_messages.flatMap((m) => m.tool_calls ?? []);
  assert.equal(calls.length, 1);
  assert.equal(calls[0].status, "error");
  assert.equal(calls[0].exit_code, 1);
  assert.match(String(calls[0].output), /does-not-exist\.txt: No such file or directory/);
  assert.deepEqual(countToolSteps(trace.output_messages), { calls: 1, errors: 1 });
  assert.equal(trace.final_text, "The file is missing.");
  assert.equal(trace.error, undefined);
  assert.deepEqual(trace.usage, sum([DEFAULT_RESPONSE, DEFAULT_RESPONSE]));
});

Deno.test("codex stream: a recorded API error becomes the agent's error, with the API's own message", async () => {
  const { trace } = await parseFixture("http_error.jsonl");
  assert.equal(trace.error, "The model `nope` does not exist");
  assert.equal(trace.final_text, undefined);
  assert.equal(trace.usage, undefined);
});

Deno.test("codex stream: reconnect notices followed by turn.failed end as the final failure message", async () => {
  const { trace, lines } = await parseFixture("response_failed.jsonl");
  assert.ok(lines.some((l) => l.includes("Reconnecting... 1/5")), "the recording retried");
  assert.equal(trace.error, "stream disconnected before completion: Upstream overloaded");
});

Deno.test("codex stream: an error event followed by a completed turn is not an error", () => {
  const parser = createCodexStreamParser();
  parser.push('{"type":"turn.started"}');
  parser.push('{"type":"error","message":"Reconnecting... 1/5 (stream disconnected)"}');
  parser.push('{"type":"item.completed","item":{"id":"i1","type":"agent_message","text":"ok"}}');
  parser.push('{"type":"turn.completed","usage":{"input_tokens":5,"output_tokens":2}}');
  const trace = parser.finish();
  assert.equal(trace.error, undefined);
  assert.equal(trace.final_text, "ok");
  assert.deepEqual(trace.usage, { input: 5, output: 2 });
});

Deno.test("codex stream: lines that are not JSON and unknown events or items are ignored without ending the parse", () => {
  const parser = createCodexStreamParser();
  parser.push("Loading model metadata...");
  parser.push("{not json");
  parser.push('{"type":"turn.started"}');
  parser.push('{"type":"session.configured.v2","anything":[1,2]}');
  parser.push('{"type":"item.completed","item":{"id":"r","type":"reasoning","text":"thinking"}}');
  parser.push('{"type":"item.completed","item":{"id":"x","type":"future_item","payload":{}}}');
  parser.push('["an array"]');
  parser.push(
    '{"type":"item.started","item":{"id":"c1","type":"command_execution","command":"ls","status":"in_progress"}}',
  );
  parser.push(
    '{"type":"item.completed","item":{"id":"c1","type":"command_execution","command":"ls","aggregated_output":"a\\n","exit_code":0,"status":"completed"}}',
  );
  parser.push(
    '{"type":"item.completed","item":{"id":"m","type":"agent_message","text":"Listed."}}',
  );
  const trace = parser.finish();
  const calls = trace.output_messages.flatMap((m) => m.tool_calls ?? []);
  assert.deepEqual(calls.map((c) => [c.tool, c.output, c.status]), [[
    "command_execution",
    "a\n",
    "ok",
  ]]);
  assert.equal(trace.final_text, "Listed.");
});

Deno.test("codex stream: MCP calls, web searches, declined commands and item updates are recorded once each", () => {
  const parser = createCodexStreamParser();
  parser.push(
    '{"type":"item.started","item":{"id":"m1","type":"mcp_tool_call","server":"docs","tool":"lookup","arguments":{"q":"x"},"status":"in_progress"}}',
  );
  parser.push(
    '{"type":"item.updated","item":{"id":"m1","type":"mcp_tool_call","server":"docs","tool":"lookup","arguments":{"q":"xy"},"status":"in_progress"}}',
  );
  parser.push(
    '{"type":"item.completed","item":{"id":"m1","type":"mcp_tool_call","server":"docs","tool":"lookup","arguments":{"q":"xy"},"error":{"message":"tool crashed"},"status":"failed"}}',
  );
  parser.push(
    '{"type":"item.completed","item":{"id":"w1","type":"web_search","query":"deno fmt"}}',
  );
  parser.push(
    '{"type":"item.completed","item":{"id":"c1","type":"command_execution","command":"rm -rf /","aggregated_output":"","exit_code":null,"status":"declined"}}',
  );
  const trace = parser.finish();
  const calls = trace.output_messages.flatMap((m) => m.tool_calls ?? []);
  assert.deepEqual(
    calls.map((c) => ({ tool: c.tool, input: c.input, output: c.output, status: c.status })),
    [
      { tool: "lookup", input: { q: "xy" }, output: "tool crashed", status: "error" },
      { tool: "web_search", input: { query: "deno fmt" }, output: undefined, status: "ok" },
      { tool: "command_execution", input: { command: "rm -rf /" }, output: "", status: "error" },
    ],
  );
  assert.equal(calls[0].server, "docs");
  assert.equal(trace.final_text, undefined, "no agent_message: no final answer");
});

Deno.test("codex stream: usage of several turns adds up", () => {
  const parser = createCodexStreamParser();
  for (const u of [{ i: 10, c: 4, o: 3 }, { i: 7, c: 0, o: 5 }]) {
    parser.push('{"type":"turn.started"}');
    parser.push(
      JSON.stringify({
        type: "turn.completed",
        usage: { input_tokens: u.i, cached_input_tokens: u.c, output_tokens: u.o },
      }),
    );
  }
  const trace = parser.finish();
  assert.deepEqual(trace.usage, { input: 17, output: 8, cached: 4 });
  assert.equal(trace.turns, 2);
});
