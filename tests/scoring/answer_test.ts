import assert from "node:assert/strict";
import { candidateAnswer, parseJsonLenient, summarizeTrace } from "../../lib/scoring/answer.ts";

Deno.test("candidateAnswer() takes the last assistant message with content", () => {
  assert.equal(
    candidateAnswer([
      { role: "assistant", content: "first" },
      { role: "assistant", content: "second" },
      { role: "assistant", tool_calls: [{ tool: "search" }] },
      { role: "tool", content: "tool output" },
    ]),
    "second",
  );
});

Deno.test("candidateAnswer() renders structured content as compact JSON", () => {
  assert.equal(
    candidateAnswer([{ role: "assistant", content: { riskLevel: "high", items: [1] } }]),
    '{"riskLevel":"high","items":[1]}',
  );
});

Deno.test("candidateAnswer() is empty without an assistant answer", () => {
  assert.equal(candidateAnswer([]), "");
  assert.equal(candidateAnswer([{ role: "user", content: "hi" }]), "");
});

Deno.test("summarizeTrace() counts tool calls by name without re-casing names", () => {
  const s = summarizeTrace([
    { role: "assistant", tool_calls: [{ tool: "knowledgeSearch" }, { tool: "fetch_page" }] },
    {
      role: "assistant",
      tool_calls: [{ tool: "knowledgeSearch", error: "timeout" }, { tool: "Alpha" }],
    },
  ], { token_usage: { input: 10, output: 5 }, cost_usd: 0.01, duration_ms: 1200 });
  assert.deepEqual(s, {
    event_count: 4,
    tool_names: ["Alpha", "fetch_page", "knowledgeSearch"],
    tool_calls_by_name: { knowledgeSearch: 2, fetch_page: 1, Alpha: 1 },
    error_count: 1,
    token_usage: { input: 10, output: 5 },
    cost_usd: 0.01,
    duration_ms: 1200,
  });
});

Deno.test("summarizeTrace() of an empty trace has zero counts and no metric keys", () => {
  assert.deepEqual(summarizeTrace([]), {
    event_count: 0,
    tool_names: [],
    tool_calls_by_name: {},
    error_count: 0,
  });
});

Deno.test("parseJsonLenient() reads bare JSON, fenced JSON and JSON wrapped in prose", () => {
  assert.deepEqual(parseJsonLenient('{"score": 1}'), { score: 1 });
  assert.deepEqual(parseJsonLenient('Here you go:\n```json\n{"score": 0.5}\n```\nThanks'), {
    score: 0.5,
  });
  assert.deepEqual(parseJsonLenient('I rate it {"score": 0.2, "hits": ["a"]} overall.'), {
    score: 0.2,
    hits: ["a"],
  });
  assert.deepEqual(parseJsonLenient('```\n{"a": {"b": 1}}\n```'), { a: { b: 1 } });
});

Deno.test("parseJsonLenient() returns undefined when no JSON object parses", () => {
  assert.equal(parseJsonLenient("no json at all"), undefined);
  assert.equal(parseJsonLenient("[1, 2]"), undefined);
  assert.equal(parseJsonLenient("{ broken: yes }"), undefined);
  assert.equal(parseJsonLenient(""), undefined);
});
