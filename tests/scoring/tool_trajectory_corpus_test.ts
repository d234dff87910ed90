// The tool-trajectory-advanced corpus example scored against its own static trace: every case
// is documented there as "Expected score: 1.0".
import assert from "node:assert/strict";
import { evaluateToolTrajectory } from "../../lib/scoring/tool_trajectory.ts";
import { ToolTrajectorySchema } from "../../lib/schema/evaluator.ts";
import type { ToolCall } from "../../lib/schema/message.ts";
import type { OutputMessage } from "../../lib/schema/result.ts";
import { makeContext } from "./_context.ts";

interface TraceEvent {
  type: "tool_call" | "tool_result";
  id: string;
  name: string;
  input?: unknown;
  output?: unknown;
}

async function staticTrace(): Promise<OutputMessage[]> {
  const url = new URL(
    "../../fixtures/corpus/agentv-examples/features/tool-trajectory-advanced/static-trace.json",
    import.meta.url,
  );
  const data = JSON.parse(await Deno.readTextFile(url)) as { text: string; trace: TraceEvent[] };
  const calls = new Map<string, ToolCall>();
  for (const e of data.trace) {
    if (e.type === "tool_call") calls.set(e.id, { tool: e.name, id: e.id, input: e.input });
    else calls.get(e.id)!.output = e.output;
  }
  return [
    { role: "assistant", tool_calls: [...calls.values()] },
    { role: "assistant", content: data.text },
  ];
}

const CONFIGS: Record<string, unknown> = {
  "in-order-validation": {
    mode: "in_order",
    expected: [{ tool: "webSearch" }, { tool: "fetchPage" }],
  },
  "exact-sequence-validation": {
    mode: "exact",
    expected: [{ tool: "webSearch" }, { tool: "fetchPage" }, { tool: "webSearch" }, {
      tool: "summarize",
    }],
  },
  "any-order-with-minimums": { mode: "any_order", minimums: { webSearch: 2, fetchPage: 1 } },
  "tool-input-validation": {
    mode: "in_order",
    expected: [
      { tool: "webSearch", input: { query: "ThinkPad X1 Carbon Gen 11 specifications" } },
      { tool: "fetchPage", input: { url: "https://www.lenovo.com/thinkpad-x1-carbon-gen11" } },
    ],
  },
  "tool-output-validation": {
    mode: "in_order",
    expected: [
      {
        tool: "webSearch",
        output: {
          results: [{
            link: "https://www.lenovo.com/thinkpad-x1-carbon-gen11",
            snippet: "14-inch business ultrabook with Intel Core processors",
          }],
        },
      },
      {
        tool: "fetchPage",
        output: { title: "ThinkPad X1 Carbon Gen 11 | Premium Business Laptop" },
      },
    ],
  },
};

for (const [id, config] of Object.entries(CONFIGS)) {
  Deno.test(`tool_trajectory scores the corpus case '${id}' 1.0 on its static trace`, async () => {
    const r = await evaluateToolTrajectory(
      ToolTrajectorySchema.parse({ type: "tool_trajectory", ...config as object }),
      makeContext({ outputMessages: await staticTrace() }),
    );
    assert.deepEqual(r.misses, []);
    assert.equal(r.score, 1);
  });
}
