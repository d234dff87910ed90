/**
 * Evaluators: every evaluator is bounded by `--timeout`. One that never finishes becomes an
 * evaluator error (the case row is still written); its signal is aborted so its work stops.
 */
import assert from "node:assert/strict";
import { evaluatorBudgetMs, runEvaluator } from "../../lib/scoring/run_evaluator.ts";
import type { JudgeClient } from "../../lib/scoring/types.ts";
import { EvaluatorConfigSchema } from "../../lib/schema/evaluator.ts";
import { makeContext } from "./_context.ts";

const llmJudge = EvaluatorConfigSchema.parse({ type: "llm_judge", name: "quality" });

Deno.test("an llm_judge whose judge never answers (ignoring its signal) becomes an error after the timeout", async () => {
  const judge: JudgeClient = { target: "stuck", complete: () => new Promise(() => {}) };
  const result = await runEvaluator(
    llmJudge,
    makeContext({ judge, timeoutMs: 50, outputMessages: [{ role: "assistant", content: "x" }] }),
  );
  assert.equal(result.status, "error");
  assert.equal(result.score, 0);
  assert.equal(result.name, "quality");
  assert.match(result.error ?? "", /timed out after 50ms/);
});

Deno.test("an evaluator past its timeout has its signal aborted", async () => {
  let sawAbort = false;
  const judge: JudgeClient = {
    target: "slow",
    complete: (_request, signal) =>
      new Promise((_, reject) => {
        signal.addEventListener("abort", () => {
          sawAbort = true;
          reject(signal.reason);
        }, { once: true });
      }),
  };
  const result = await runEvaluator(
    llmJudge,
    makeContext({ judge, timeoutMs: 50, outputMessages: [{ role: "assistant", content: "x" }] }),
  );
  assert.equal(result.status, "error");
  assert.equal(sawAbort, true);
});

Deno.test("an evaluator that never finishes is abandoned when the run is interrupted", async () => {
  const controller = new AbortController();
  const judge: JudgeClient = {
    target: "stuck",
    complete: () => {
      controller.abort(new DOMException("Interrupted", "AbortError"));
      return new Promise(() => {});
    },
  };
  const result = await runEvaluator(
    llmJudge,
    makeContext({
      judge,
      timeoutMs: 600_000,
      signal: controller.signal,
      outputMessages: [{ role: "assistant", content: "x" }],
    }),
  );
  assert.equal(result.status, "error");
  assert.equal(result.error, "interrupted");
});

Deno.test("evaluator budgets: --timeout, a code judge's timeout_seconds, a composite's members", () => {
  const regex = EvaluatorConfigSchema.parse({ type: "regex", pattern: "x" });
  assert.equal(evaluatorBudgetMs(regex, 5000), 5000);
  const judge = EvaluatorConfigSchema.parse({
    type: "code_judge",
    script: "judge.ts",
    timeout_seconds: 30,
  });
  assert.equal(evaluatorBudgetMs(judge, 5000), 30_000);
  const composite = EvaluatorConfigSchema.parse({
    type: "composite",
    evaluators: [{ type: "regex", pattern: "x" }, {
      type: "code_judge",
      script: "judge.ts",
      timeout_seconds: 30,
    }],
  });
  assert.equal(evaluatorBudgetMs(composite, 5000), 35_000);
});
