/** Runner: result rows, their fields and what `runEval` returns. */
import assert from "node:assert/strict";
import { runEval, type RunEvent } from "../../mod.ts";
import { parseResults } from "../../lib/results/read_results.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { containsSuite, evaluate, mockTargets, project, runOne } from "../_helpers/run_project.ts";

Deno.test("runner: result rows carry exactly the documented fields", async () => {
  await using server = startProviderServer("openai", {
    steps: [{ type: "reply", text: "Paris", usage: { input: 3, output: 1 } }],
  });
  const { rows, fileText, events } = await runOne(
    `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: k-1234\n    model: m\n`,
    { evaluators: "      - {type: contains, value: Par}\n" },
  );
  const [row] = rows;
  for (
    const key of [
      "timestamp",
      "eval_id",
      "dataset",
      "target",
      "score",
      "hits",
      "misses",
      "candidate_answer",
      "evaluator_results",
      "trace_summary",
      "status",
      "verdict",
      "duration_ms",
      "token_usage",
      "output_messages",
      "attempts",
      "run_id",
      "trial",
      "conversation_id",
      "reasoning",
      "error",
    ]
  ) assert.ok(key in row, `missing ${key}`);
  assert.ok(!Number.isNaN(Date.parse(row.timestamp)));
  assert.equal(row.dataset, "a");
  assert.equal(row.error, null);
  assert.equal(fileText.split("\n").filter(Boolean).length, 1);
  // the file stores the answer once (no `output_messages` when it is only the answer); the
  // reader gives the row back whole
  assert.deepEqual(parseResults(fileText).rows[0], row);
  assert.equal("output_messages" in JSON.parse(fileText), false);
  const finished = events.filter((e) => e.type === "case_finished");
  assert.equal(finished.length, 1);
  const runFinished = events.find((e) => e.type === "run_finished");
  assert.ok(runFinished);
});

Deno.test("runEval from mod.ts returns rows, summary and progress events", async () => {
  await using p = await project({
    ".agentv/targets.yaml": mockTargets("Paris"),
    "evals/a.yaml": containsSuite("a", [["p1", "Paris"], ["f1", "Rome"]]),
  });
  const events: RunEvent[] = [];
  const { rows, summary } = await runEval({
    files: ["evals/a.yaml"],
    env: {},
    cwd: p.dir,
    onEvent: (e) => events.push(e),
  });
  assert.equal(rows.length, 2);
  assert.equal(summary.total, 2);
  assert.equal(summary.scores.mean, 0.5);
  assert.deepEqual(summary.verdicts, { pass: 1, borderline: 0, fail: 1 });
  assert.equal(events[0].type === "run_started" || events[0].type === "target_resolved", true);
  assert.equal(events.at(-1)?.type, "run_finished");
  assert.equal(events.filter((e) => e.type === "case_finished").length, 2);
});

Deno.test("user data keys are never rewritten in rows (tool inputs, tool names, details)", async () => {
  const judge = `const input = JSON.parse(await new Response(Deno.stdin.readable).text());
console.log(JSON.stringify({ score: 1, details: { seen: input.output_messages, summary: input.trace_summary } }));
`;
  const r = await evaluate(
    "ok",
    `      - type: code_judge
        script: ["${Deno.execPath()}", "run", "--quiet", "--allow-all", "judge.ts"]
`,
    {
      files: { "evals/judge.ts": judge },
      toolCalls: "      - {tool: knowledgeSearch, input: {filePath: a.md, riskLevel: HIGH}}\n",
    },
  );
  assert.equal(r.status, "ok", r.error ?? "");
  const text = JSON.stringify(r);
  for (const key of ["knowledgeSearch", "filePath", "riskLevel"]) {
    assert.ok(text.includes(key), key);
  }
  assert.ok(
    !text.includes("file_path") && !text.includes("risk_level") &&
      !text.includes("knowledge_search"),
  );
  assert.equal(r.trace_summary?.tool_calls_by_name?.knowledgeSearch, 1);
});
