/**
 * Builds evaluation contexts for evaluator tests.
 *
 * @module
 */
import type { EvalCase } from "../../lib/schema/eval_case.ts";
import type { OutputMessage } from "../../lib/schema/result.ts";
import { candidateAnswer, summarizeTrace } from "../../lib/scoring/answer.ts";
import { runEvaluator } from "../../lib/scoring/run_evaluator.ts";
import type { EvaluationContext } from "../../lib/scoring/types.ts";

/** A minimal eval case. */
export function makeCase(overrides: Partial<EvalCase> = {}): EvalCase {
  return {
    id: "case-1",
    dataset: "demo",
    expected_outcome: "Answers correctly",
    input: [{ role: "user", content: "What is the capital of France?" }],
    expected_output: [{ role: "assistant", content: "Paris" }],
    execution: { target: "default" },
    evaluator: "llm_judge",
    evaluators: [],
    guideline_paths: [],
    file_paths: [],
    ...overrides,
  };
}

/** An evaluation context over the given output messages (candidate and trace derived). */
export function makeContext(
  overrides: Partial<EvaluationContext> & { outputMessages?: OutputMessage[] } = {},
): EvaluationContext {
  const outputMessages = overrides.outputMessages ?? [];
  return {
    evalCase: makeCase(),
    candidate: candidateAnswer(outputMessages),
    outputMessages,
    trace: summarizeTrace(outputMessages),
    prompt: "What is the capital of France?",
    evalDir: Deno.cwd(),
    root: Deno.cwd(),
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    targetName: "mock",
    runEvaluator,
    ...overrides,
  };
}

/** A context whose candidate answer is `answer`. */
export function answerContext(answer: string): EvaluationContext {
  return makeContext({ outputMessages: [{ role: "assistant", content: answer }] });
}
