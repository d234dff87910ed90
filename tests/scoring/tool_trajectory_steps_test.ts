import assert from "node:assert/strict";
import { evaluateToolTrajectory } from "../../lib/scoring/tool_trajectory.ts";
import { ToolTrajectorySchema } from "../../lib/schema/evaluator.ts";
import type { ToolCall } from "../../lib/schema/message.ts";
import { makeContext } from "./_context.ts";

async function score(config: unknown, calls: ToolCall[]) {
  return await evaluateToolTrajectory(
    ToolTrajectorySchema.parse(config),
    makeContext({
      outputMessages: [{ role: "assistant", tool_calls: calls }, {
        role: "assistant",
        content: "done",
      }],
    }),
  );
}

Deno.test("tool_trajectory status: ok matches only a step that succeeded", async () => {
  const r = await score(
    {
      type: "tool_trajectory",
      mode: "exact",
      expected: [{ tool: "Bash", status: "ok" }, { tool: "Bash", status: "ok" }],
    },
    [{ tool: "Bash", status: "ok" }, { tool: "Bash", status: "error" }],
  );
  assert.equal(r.score, 0.5);
  assert.deepEqual(r.hits, ["Position 0: Bash"]);
  assert.deepEqual(r.misses, [
    "Position 1: Bash mismatch (status: the call failed (expected it to succeed))",
  ]);
});

Deno.test("tool_trajectory status: error matches a step that failed (status or error key)", async () => {
  const r = await score(
    {
      type: "tool_trajectory",
      mode: "exact",
      expected: [
        { tool: "Bash", status: "error" },
        { tool: "Read", status: "error" },
        { tool: "Edit", status: "error" },
      ],
    },
    [
      { tool: "Bash", status: "error" },
      { tool: "Read", error: "ENOENT" },
      { tool: "Edit" },
    ],
  );
  assert.equal(r.score, 2 / 3);
  assert.deepEqual(r.misses, [
    "Position 2: Edit mismatch (status: the call succeeded (expected it to fail))",
  ]);
});

Deno.test("tool_trajectory in_order skips a failed step to find the later successful retry", async () => {
  const r = await score(
    {
      type: "tool_trajectory",
      mode: "in_order",
      expected: [{ tool: "Bash", status: "ok" }, { tool: "Write" }],
    },
    [{ tool: "Bash", status: "error" }, { tool: "Bash", status: "ok" }, { tool: "Write" }],
  );
  assert.equal(r.score, 1);
  assert.deepEqual(r.hits, ["Found Bash at position 1", "Found Write at position 2"]);
});

Deno.test("tool_trajectory any_order matches status items to distinct calls", async () => {
  const r = await score(
    {
      type: "tool_trajectory",
      mode: "any_order",
      minimums: {},
      expected: [{ tool: "Bash", status: "error" }, { tool: "Bash", status: "error" }],
    },
    [{ tool: "Bash", status: "ok" }, { tool: "Bash", status: "error" }],
  );
  assert.equal(r.score, 0.5);
  assert.deepEqual(r.misses, [
    "Expected Bash (item 1): 2 call(s) but none matched (status: the call succeeded (expected it to fail))",
  ]);
});

Deno.test("tool_trajectory max_duration_ms on a trace without durations is a miss that says so", async () => {
  const r = await score(
    {
      type: "tool_trajectory",
      mode: "in_order",
      expected: [{ tool: "Bash", max_duration_ms: 5000 }],
    },
    [{ tool: "Bash", status: "ok" }],
  );
  assert.equal(r.score, 0);
  assert.equal(r.misses.length, 1);
  assert.match(r.misses[0], /trace has no duration for this call/);
});

Deno.test("tool_trajectory schema rejects an unknown status and a negative max_duration_ms", () => {
  const bad = ToolTrajectorySchema.safeParse({
    type: "tool_trajectory",
    mode: "exact",
    expected: [{ tool: "Bash", status: "failed" }],
  });
  assert.equal(bad.success, false);
  assert.match(bad.error!.issues[0].message, /status 'failed' is not supported; expected ok/);
  const negative = ToolTrajectorySchema.safeParse({
    type: "tool_trajectory",
    mode: "exact",
    expected: [{ tool: "Bash", max_duration_ms: -1 }],
  });
  assert.equal(negative.success, false);
});
