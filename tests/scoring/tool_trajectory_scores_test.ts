/** Evaluators: exact `tool_trajectory` scores. */
import assert from "node:assert/strict";
import { evaluate } from "../_helpers/run_project.ts";

/** A YAML tool-call trace for the mock target. */
const TRACE = `      - {tool: search, input: {q: weather, opts: {n: 3, lang: en}}}
      - {tool: fetch, input: {url: a}}
      - {tool: fetch, input: {url: b}}
      - {tool: summarize, input: {}}
`;

Deno.test("tool_trajectory: any_order with minimums", async () => {
  const ok = await evaluate(
    "x",
    "      - type: tool_trajectory\n        mode: any_order\n        minimums: {fetch: 2, search: 1}\n",
    { toolCalls: TRACE },
  );
  assert.equal(ok.score, 1);
  const half = await evaluate(
    "x",
    "      - type: tool_trajectory\n        mode: any_order\n        minimums: {fetch: 3, search: 1}\n",
    { toolCalls: TRACE },
  );
  assert.equal(half.score, 0.5);
  assert.equal(half.evaluator_results[0].misses.length, 1);
});

Deno.test("tool_trajectory: in_order keeps searching past a same-named call with other args", async () => {
  const r = await evaluate(
    "x",
    `      - type: tool_trajectory
        mode: in_order
        expected:
          - tool: search
          - tool: fetch
            args: {url: b}
          - tool: summarize
`,
    { toolCalls: TRACE },
  );
  assert.equal(r.score, 1);
  const wrongOrder = await evaluate(
    "x",
    `      - type: tool_trajectory
        mode: in_order
        expected:
          - tool: summarize
          - tool: search
`,
    { toolCalls: TRACE },
  );
  assert.equal(wrongOrder.score, 0.5);
});

Deno.test("tool_trajectory: exact with extra calls scores below 1", async () => {
  const r = await evaluate(
    "x",
    `      - type: tool_trajectory
        mode: exact
        expected:
          - tool: search
          - tool: fetch
          - tool: fetch
`,
    { toolCalls: TRACE },
  );
  assert.ok(r.score < 1, `score ${r.score}`);
  assert.equal(r.score, 0.75);
  const full = await evaluate(
    "x",
    `      - type: tool_trajectory
        mode: exact
        expected:
          - {tool: search, args: any}
          - {tool: fetch, input: {url: a}}
          - {tool: fetch, args: {url: b}}
          - {tool: summarize}
`,
    { toolCalls: TRACE },
  );
  assert.equal(full.score, 1);
});

Deno.test("tool_trajectory: args match partially and recursively; mismatches are misses", async () => {
  const match = await evaluate(
    "x",
    `      - type: tool_trajectory
        mode: in_order
        expected:
          - tool: search
            args: {opts: {n: 3}}
`,
    { toolCalls: TRACE },
  );
  assert.equal(match.score, 1);
  const nested = await evaluate(
    "x",
    `      - type: tool_trajectory
        mode: in_order
        expected:
          - tool: search
            args: {opts: {n: 4}}
`,
    { toolCalls: TRACE },
  );
  assert.equal(nested.score, 0);
  assert.equal(nested.verdict, "fail");
  assert.equal(nested.evaluator_results[0].misses.length, 1);
});
