import assert from "node:assert/strict";
import { evaluateToolTrajectory } from "../../lib/scoring/tool_trajectory.ts";
import { runEvaluator } from "../../lib/scoring/run_evaluator.ts";
import { EvaluatorConfigSchema, ToolTrajectorySchema } from "../../lib/schema/evaluator.ts";
import type { OutputMessage } from "../../lib/schema/result.ts";
import type { ToolCall } from "../../lib/schema/message.ts";
import { makeContext } from "./_context.ts";

function trace(...calls: ToolCall[]): OutputMessage[] {
  return [
    { role: "assistant", tool_calls: calls },
    { role: "assistant", content: "done" },
  ];
}

async function score(config: unknown, messages: OutputMessage[]) {
  return await evaluateToolTrajectory(
    ToolTrajectorySchema.parse(config),
    makeContext({ outputMessages: messages }),
  );
}

Deno.test("tool_trajectory any_order scores the fraction of minimums met", async () => {
  const r = await score(
    { type: "tool_trajectory", mode: "any_order", minimums: { knowledgeSearch: 3, summarize: 1 } },
    trace({ tool: "knowledgeSearch" }, { tool: "knowledgeSearch" }, { tool: "summarize" }),
  );
  assert.equal(r.score, 0.5);
  assert.equal(r.verdict, "fail");
  assert.deepEqual(r.hits, ["summarize: called 1 times (required ≥1)"]);
  assert.deepEqual(r.misses, ["knowledgeSearch: called 2 times (required ≥3)"]);
});

Deno.test("tool_trajectory any_order with no minimums scores 1", async () => {
  const r = await score({ type: "tool_trajectory", mode: "any_order", minimums: {} }, trace());
  assert.equal(r.score, 1);
  assert.deepEqual(r.hits, ["No tool requirements specified"]);
});

Deno.test("tool_trajectory any_order also matches expected items to distinct calls", async () => {
  // The generic item must not steal the only call the specific item can use.
  const r = await score({
    type: "tool_trajectory",
    mode: "any_order",
    minimums: {},
    expected: [{ tool: "read" }, { tool: "read", args: { path: "a.ts" } }, { tool: "write" }],
  }, trace({ tool: "read", input: { path: "a.ts" } }, { tool: "read", input: { path: "b.ts" } }));
  assert.equal(r.score, 2 / 3);
  assert.deepEqual(r.hits, ["Found read at position 1", "Found read at position 0"]);
  assert.deepEqual(r.misses, ["Expected write (item 2): not called"]);
});

Deno.test("tool_trajectory in_order allows gaps and finds every item", async () => {
  const r = await score({
    type: "tool_trajectory",
    mode: "in_order",
    expected: [{ tool: "webSearch" }, { tool: "fetchPage" }],
  }, trace({ tool: "webSearch" }, { tool: "log" }, { tool: "fetchPage" }, { tool: "summarize" }));
  assert.equal(r.score, 1);
  assert.deepEqual(r.hits, ["Found webSearch at position 0", "Found fetchPage at position 2"]);
});

Deno.test("tool_trajectory in_order keeps searching past a same-named call with other args", async () => {
  const r = await score(
    {
      type: "tool_trajectory",
      mode: "in_order",
      expected: [
        { tool: "search", args: { query: "refund policy" } },
        { tool: "answer" },
      ],
    },
    trace(
      { tool: "search", input: { query: "shipping" } },
      { tool: "search", input: { query: "refund policy", limit: 5 } },
      { tool: "answer" },
    ),
  );
  assert.equal(r.score, 1);
  assert.deepEqual(r.hits, ["Found search at position 1", "Found answer at position 2"]);
  assert.deepEqual(r.misses, []);
});

Deno.test("tool_trajectory in_order reports why a same-named call did not match", async () => {
  const r = await score({
    type: "tool_trajectory",
    mode: "in_order",
    expected: [{ tool: "search", input: { query: "refunds" } }, { tool: "answer" }, {
      tool: "email",
    }],
  }, trace({ tool: "search", input: { query: "shipping" } }, { tool: "answer" }));
  assert.equal(r.score, 1 / 3);
  assert.deepEqual(r.hits, ["Found answer at position 1"]);
  assert.deepEqual(r.misses, [
    "Expected search at position 0: search found in the remaining trace but no call matched " +
    '(position 0: input mismatch at query: expected "refunds", found "shipping")',
    "Expected email at position 2, not found in remaining trace",
  ]);
});

Deno.test("tool_trajectory exact with extra calls scores below 1", async () => {
  const r = await score({
    type: "tool_trajectory",
    mode: "exact",
    expected: [{ tool: "a" }, { tool: "b" }],
  }, trace({ tool: "a" }, { tool: "b" }, { tool: "c" }));
  assert.equal(r.score, 2 / 3);
  assert.equal(r.verdict, "borderline");
  assert.deepEqual(r.hits, ["Position 0: a", "Position 1: b"]);
  assert.deepEqual(r.misses, [
    "Expected 2 tool calls, got 3",
    "Position 2: unexpected extra call c",
  ]);
});

Deno.test("tool_trajectory exact reports wrong names, arg mismatches and missing tails", async () => {
  const r = await score({
    type: "tool_trajectory",
    mode: "exact",
    expected: [{ tool: "a" }, { tool: "b", args: { n: 1 } }, { tool: "c" }, { tool: "d" }],
  }, trace({ tool: "a" }, { tool: "b", input: { n: 2 } }, { tool: "x" }));
  assert.equal(r.score, 1 / 4);
  assert.deepEqual(r.misses, [
    "Expected 4 tool calls, got 3",
    "Position 1: b mismatch (args mismatch at n: expected 1, found 2)",
    "Position 2: expected c, got x",
    "Position 3: expected d, got nothing",
  ]);
});

Deno.test("tool_trajectory exact with an empty list expects no calls", async () => {
  const none = await score({ type: "tool_trajectory", mode: "exact", expected: [] }, trace());
  assert.equal(none.score, 1);
  const some = await score(
    { type: "tool_trajectory", mode: "exact", expected: [] },
    trace({
      tool: "a",
    }),
  );
  assert.equal(some.score, 0);
});

Deno.test("tool_trajectory matches args partially and recursively; args: any matches all", async () => {
  const calls = trace(
    {
      tool: "webSearch",
      input: { query: "ThinkPad", num: 5, options: { lang: "en", safe: true }, tags: ["a", "b"] },
      output: { results: [{ link: "https://x", title: "X", snippet: "s" }, { link: "y" }] },
    },
    { tool: "fetchPage" },
  );
  const r = await score({
    type: "tool_trajectory",
    mode: "in_order",
    expected: [
      {
        tool: "webSearch",
        input: { query: "ThinkPad", options: { lang: "en" }, tags: ["a"] },
        output: { results: [{ link: "https://x" }] },
      },
      { tool: "fetchPage", args: "any" },
    ],
  }, calls);
  assert.equal(r.score, 1);

  const nested = await score({
    type: "tool_trajectory",
    mode: "exact",
    expected: [{ tool: "webSearch", args: { options: { lang: "fr" } } }, { tool: "fetchPage" }],
  }, calls);
  assert.equal(nested.score, 0.5);
  assert.deepEqual(nested.misses, [
    'Position 0: webSearch mismatch (args mismatch at options.lang: expected "fr", found "en")',
  ]);

  const noInput = await score({
    type: "tool_trajectory",
    mode: "exact",
    expected: [{ tool: "webSearch" }, { tool: "fetchPage", args: {} }],
  }, calls);
  assert.equal(noInput.score, 0.5);
  assert.deepEqual(noInput.misses, [
    "Position 1: fetchPage mismatch (args: the call has no input)",
  ]);
});

Deno.test("tool_trajectory checks max_duration_ms against the call's duration", async () => {
  const r = await score(
    {
      type: "tool_trajectory",
      mode: "exact",
      expected: [{ tool: "slow", max_duration_ms: 100 }, { tool: "fast", max_duration_ms: 100 }, {
        tool: "unknown",
        max_duration_ms: 1,
      }],
    },
    trace({ tool: "slow", duration_ms: 250 }, { tool: "fast", duration_ms: 20 }, {
      tool: "unknown",
    }),
  );
  assert.equal(r.score, 1 / 3);
  assert.deepEqual(r.misses, [
    "Position 0: slow mismatch (took 250ms (max 100ms))",
    "Position 2: unknown mismatch (max_duration_ms: the trace has no duration for this call (max 1ms cannot be checked))",
  ]);
});

Deno.test("tool_trajectory reads tool calls across every output message in order", async () => {
  const r = await score({
    type: "tool_trajectory",
    mode: "exact",
    expected: [{ tool: "a" }, { tool: "b" }, { tool: "c" }],
  }, [
    { role: "assistant", tool_calls: [{ tool: "a" }, { tool: "b" }] },
    { role: "tool", content: "result" },
    { role: "assistant", tool_calls: [{ tool: "c" }], content: "final" },
  ]);
  assert.equal(r.score, 1);
  assert.deepEqual(r.details, { mode: "exact", calls: ["a", "b", "c"] });
});

Deno.test("tool_trajectory without any trace scores 0 with a clear miss", async () => {
  const r = await score(
    { type: "tool_trajectory", mode: "in_order", expected: [{ tool: "a" }] },
    [],
  );
  assert.equal(r.score, 0);
  assert.equal(r.status, "ok");
  assert.match(r.misses[0], /^No trace available for evaluation/);
});

Deno.test("tool_trajectory through runEvaluator carries name, type and weight", async () => {
  const config = EvaluatorConfigSchema.parse({
    type: "tool_trajectory",
    name: "seq",
    weight: 2,
    mode: "in_order",
    expected: [{ tool: "a" }],
  });
  const r = await runEvaluator(config, makeContext({ outputMessages: trace({ tool: "a" }) }));
  assert.equal(r.name, "seq");
  assert.equal(r.type, "tool_trajectory");
  assert.equal(r.weight, 2);
  assert.equal(r.score, 1);
  assert.equal(r.verdict, "pass");
});
