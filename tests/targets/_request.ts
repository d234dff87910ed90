/**
 * Builders shared by target tests: a minimal case and request.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import type { EvalCase } from "../../lib/schema/eval_case.ts";
import type { TargetRequest } from "../../lib/targets/types.ts";

/** `fixtures/targets/` (absolute, no trailing slash). */
export const FIXTURES: string = fileURLToPath(new URL("../../fixtures/targets", import.meta.url));

/** The key every secret test uses. */
export const SECRET = "sk-test-SECRET-123";

/** A minimal eval case. */
export function makeCase(overrides: Partial<EvalCase> = {}): EvalCase {
  return {
    id: "case-1",
    dataset: "tests",
    expected_outcome: "answers",
    input: [{ role: "user", content: "What is 2+2?" }],
    expected_output: [],
    execution: { target: "default" },
    evaluator: "llm_judge",
    evaluators: [],
    guideline_paths: [],
    file_paths: [],
    ...overrides,
  };
}

/** A request for one attempt (signal defaults to one that never aborts). */
export function makeRequest(overrides: Partial<TargetRequest> = {}): TargetRequest {
  return {
    evalCase: makeCase(),
    prompt: "What is 2+2?",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "What is 2+2?" },
    ],
    guidelines: "",
    attempt: 0,
    evalDir: FIXTURES,
    signal: new AbortController().signal,
    ...overrides,
  };
}
