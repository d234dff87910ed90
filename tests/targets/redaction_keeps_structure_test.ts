/**
 * Redaction never rewrites agentv's structural fields. A dataset's `.env` can make any value a
 * secret (`MY_TOKEN=assistant` behind a target's `api_key`); before this rule every message
 * `role` of the results read `***`. A lower-case word under `role`, `type`, `status` or `verdict`
 * names a kind, not data, so it stays; the secret is still redacted from free text, and a value of
 * those keys that looks like a key or token is still redacted.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readResults } from "../../lib/results/read_results.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { createRedactor, isStructuralValue } from "../../lib/text/redact.ts";
import { cli, project } from "../_helpers/run_project.ts";

/** A run whose target's key is `secret` (from the dataset's `.env`); resolves to its rows. */
async function runWithSecret(secret: string): Promise<{ rows: ResultRow[]; text: string }> {
  await using p = await project({
    ".env": `MY_TOKEN=${secret}\n`,
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: mock
    api_key: \${{ MY_TOKEN }}
    response: "ok, I am your assistant and this should pass"
    tool_calls:
      - {id: call_1, type: function, function: {name: lookup, arguments: '{"q": "x"}'}}
`,
    "evals/a.yaml": `dataset: a
evalcases:
  - id: c1
    expected_outcome: Says ok
    input: Hi
    evaluators:
      - type: contains
        value: ok
      - type: tool_trajectory
        mode: any_order
        minimums:
          lookup: 1
`,
  });
  const r = await cli(["run", "evals", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 0, r.err + r.out);
  const path = join(p.dir, "o.jsonl");
  const read = await readResults(path);
  assert.deepEqual(read.problems, [], secret);
  return { rows: read.rows, text: await Deno.readTextFile(path) };
}

for (const secret of ["assistant", "function", "pass", "ok"]) {
  Deno.test(`a secret equal to '${secret}' leaves every row valid, readable and its roles and verdicts intact`, async () => {
    const { rows: [row] } = await runWithSecret(secret);
    assert.deepEqual([row.status, row.verdict, row.score], ["ok", "pass", 1]);
    assert.deepEqual(row.output_messages.map((m) => m.role), ["assistant", "assistant"]);
    assert.deepEqual(
      row.evaluator_results.map((e) => [e.type, e.status, e.verdict]),
      [["contains", "ok", "pass"], ["tool_trajectory", "ok", "pass"]],
    );
    assert.deepEqual(row.trace_summary?.tool_names, ["lookup"]);
  });
}

Deno.test("a secret equal to a word is still redacted from free text", async () => {
  const { rows: [row], text } = await runWithSecret("assistant");
  assert.equal(row.candidate_answer, "ok, I am your *** and this should pass");
  assert.ok(!text.includes("your assistant"), text);
  // Secrets shorter than 8 characters are never searched in free text (they would garble it).
  const short = (await runWithSecret("pass")).rows[0];
  assert.equal(short.candidate_answer, "ok, I am your assistant and this should pass");
});

Deno.test("redactor.row keeps structural words at any depth and redacts keys smuggled into them", () => {
  const secret = "sk-live-SECRET-1234";
  const row = {
    output_messages: [
      {
        role: "assistant",
        content: [{ type: "text", text: "assistant here" }, { type: "tool_use", id: "t1" }],
        tool_calls: [{ id: "c1", type: "function", tool: "lookup" }],
      },
      { role: secret, content: "x" },
    ],
    evaluator_results: [{
      name: "j",
      type: "llm_judge",
      status: "ok",
      details: { checks: [{ status: "ok", verdict: "pass" }], type: secret },
      evaluator_provider_request: { messages: [{ role: "user", content: "be an assistant" }] },
    }],
  } as unknown as ResultRow;
  const safe = createRedactor(["assistant", "tool_use", "function", "text", secret]).row(row);
  assert.deepEqual(safe.output_messages, [
    {
      role: "assistant",
      content: [{ type: "text", text: "*** here" }, { type: "tool_use", id: "t1" }],
      tool_calls: [{ id: "c1", type: "function", tool: "lookup" }],
    },
    { role: "***", content: "x" },
  ]);
  assert.deepEqual(safe.evaluator_results[0].details, {
    checks: [{ status: "ok", verdict: "pass" }],
    type: "***",
  });
  assert.deepEqual(safe.evaluator_results[0].evaluator_provider_request, {
    messages: [{ role: "user", content: "be an ***" }],
  });
});

Deno.test("isStructuralValue() is a lower-case word under role, type, status or verdict", () => {
  for (
    const [key, value] of [["role", "assistant"], ["type", "tool_use"], ["type", "input-text"]]
  ) {
    assert.ok(isStructuralValue(key, value), `${key}: ${value}`);
  }
  for (
    const [key, value] of [
      ["role", "Assistant"],
      ["type", "sk-live-1234"],
      ["status", "ghp_AbC123"],
      ["content", "assistant"],
      ["verdict", "x".repeat(41)],
      ["role", 7],
    ] as const
  ) assert.ok(!isStructuralValue(key, value), `${key}: ${value}`);
});
