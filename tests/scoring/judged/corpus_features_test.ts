import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { runEval } from "../../../lib/run/run_eval.ts";
import type { EvaluatorResult, ResultRow } from "../../../lib/schema/result.ts";
import { type RecordedRequest, startProviderServer } from "../../_helpers/provider_servers.ts";

const FEATURES = fileURLToPath(
  new URL("../../../fixtures/corpus/agentv-examples/features/", import.meta.url),
);

/** A judge that satisfies every rubric it is shown and scores free-form prompts 0.9. */
function judgeReply(request: RecordedRequest): string {
  // deno-lint-ignore no-explicit-any
  const messages = request.body.messages as any[];
  const system = messages.find((m) => m.role === "system")?.content ?? "";
  const user = messages.find((m) => m.role === "user").content as string;
  if (system.includes('"checks"')) {
    const ids = [...user.matchAll(/^- \[([^\]]+)\]/gm)].map((m) => m[1]);
    return JSON.stringify({
      checks: ids.map((id) => ({ id, satisfied: true, reasoning: "present" })),
      overall_reasoning: "All rubrics met.",
    });
  }
  return "```json\n" +
    JSON.stringify({ score: 0.9, hits: ["solid"], misses: [], reasoning: "Good." }) + "\n```";
}

async function runCorpus(
  feature: string,
): Promise<{ rows: ResultRow[]; requests: RecordedRequest[] }> {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: judgeReply },
  });
  const dir = await Deno.makeTempDir();
  try {
    const targetsFile = `${dir}/targets.yaml`;
    await Deno.writeTextFile(
      targetsFile,
      [
        "targets:",
        "  - name: default",
        "    provider: mock",
        "    response: A careful, accurate and safe answer.",
        "    judge_target: judge",
        "  - name: judge",
        "    provider: openai",
        `    base_url: ${server.url}`,
        "    api_key: sk-test-judge",
        "    model: judge-model",
        "    max_retries: 0",
        "",
      ].join("\n"),
    );
    const { rows } = await runEval({
      files: [`${FEATURES}/${feature}/evals/dataset.yaml`],
      targetsFile,
      env: {},
      cwd: dir,
      workers: 4,
      timeoutMs: 20_000,
      // The corpus's own (missing) judge scripts: the test checks they are evaluator errors.
      allowRun: true,
    });
    return { rows, requests: [...server.requests] };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const byId = (rows: ResultRow[]) => Object.fromEntries(rows.map((r) => [r.eval_id, r]));

Deno.test("corpus weighted-evaluators runs end to end against a mock judge", async () => {
  const { rows, requests } = await runCorpus("weighted-evaluators");
  const r = byId(rows);
  assert.deepEqual(Object.keys(r).sort(), [
    "equal-weights-default",
    "experimental-evaluator-disabled",
    "weighted-multi-evaluator",
  ]);
  for (const row of rows) {
    assert.equal(row.status, "ok", JSON.stringify(row.evaluator_results.map((e) => e.error)));
    assert.equal(row.score, 0.9);
    assert.equal(row.verdict, "pass");
  }
  const experimental = r["experimental-evaluator-disabled"].evaluator_results;
  assert.deepEqual(experimental.map((e) => [e.name, e.weight, e.status]), [["accuracy", 1, "ok"], [
    "experimental-metric",
    0,
    "ok",
  ]]);
  // The weight-0 evaluator's hits stay out of the case lists.
  assert.deepEqual(r["experimental-evaluator-disabled"].hits, ["solid"]);
  assert.deepEqual(r["weighted-multi-evaluator"].evaluator_results.map((e) => e.weight), [3, 2, 1]);
  assert.equal(requests.length, 3 + 2 + 3);
  // Prompt files were read and filled.
  assert.ok(requests.some((q) => q.body.messages[1].content.startsWith("# Safety Check")));
});

Deno.test("corpus rubric runs end to end; its missing code judge is an evaluator error", async () => {
  const { rows } = await runCorpus("rubric");
  const r = byId(rows);
  assert.equal(rows.length, 4);
  for (const id of ["code-explanation-simple", "technical-writing-detailed", "summary-task"]) {
    assert.equal(r[id].status, "ok", id);
    assert.equal(r[id].verdict, "pass", id);
  }
  assert.equal(r["code-explanation-simple"].score, 1);
  const rubric = r["technical-writing-detailed"].evaluator_results[0];
  assert.equal(rubric.type, "rubric");
  assert.equal(rubric.hits.length, 5);
  assert.equal(r["summary-task"].score, 0.9);
  const multi = r["code-quality-multi-eval"];
  assert.equal(multi.status, "error");
  const [rubricResult, syntax] = multi.evaluator_results;
  assert.equal(rubricResult.status, "ok");
  assert.equal(rubricResult.score, 1);
  assert.equal(syntax.name, "python_syntax");
  assert.equal(syntax.status, "error");
  assert.ok(syntax.error && syntax.error.length > 0);
});

Deno.test("corpus composite runs end to end; its missing aggregator script is an evaluator error", async () => {
  const { rows } = await runCorpus("composite");
  const r = byId(rows);
  assert.equal(rows.length, 4);
  const gate = r["weighted-average-example"].evaluator_results[0];
  assert.equal(gate.status, "ok");
  assert.equal(gate.score, 0.9);
  assert.deepEqual(gate.evaluator_results!.map((m: EvaluatorResult) => [m.name, m.weight]), [[
    "safety",
    0.3,
  ], ["quality", 0.7]]);
  assert.equal(r["llm-judge-conflict-resolution"].status, "ok");
  assert.equal(r["llm-judge-conflict-resolution"].evaluator_results[0].score, 0.9);
  assert.equal(r["nested-composite"].status, "ok");
  assert.equal(
    r["nested-composite"].evaluator_results[0].evaluator_results![0].evaluator_results!.length,
    2,
  );
  const safetyGate = r["code-judge-safety-gate"];
  assert.equal(safetyGate.status, "error");
  const aggregate = safetyGate.evaluator_results[0];
  assert.equal(aggregate.status, "error");
  assert.match(aggregate.error!, /Code aggregator (exited with code \d+|could not start)/);
  assert.equal(aggregate.evaluator_results!.length, 2);
});
