/**
 * A counting target for cache tests: answers `answer:<n>` for its n-th call, or fails as told,
 * with the call identity a real target of its kind would have (`callIdentityOf`).
 *
 * @module
 */
import { callIdentityOf } from "../../lib/targets/call_identity.ts";
import { DEFAULT_RETRY_STATUS_CODES } from "../../lib/targets/http.ts";
import type {
  ChatMessage,
  Target,
  TargetRequest,
  TargetResponse,
} from "../../lib/targets/types.ts";
import type { EvalCase } from "../../lib/schema/eval_case.ts";

/** A fake target and the requests it received. */
export interface FakeTarget extends Target {
  /** Requests that reached the target (not answered by a cache). */
  calls: TargetRequest[];
  /** The next calls throw these errors first (then it answers again). */
  failNext: Error[];
}

/** A fake target of `provider` with resolved `settings` (secrets among them listed). */
export function fakeTarget(
  provider: string,
  settings: Record<string, unknown>,
  secrets: string[] = [],
): FakeTarget {
  const calls: TargetRequest[] = [];
  const failNext: Error[] = [];
  return {
    name: "fake",
    provider,
    retry: {
      maxRetries: 0,
      initialDelayMs: 1,
      maxDelayMs: 1,
      backoffFactor: 2,
      retryStatusCodes: [...DEFAULT_RETRY_STATUS_CODES],
    },
    secrets,
    calls,
    failNext,
    callIdentity: () => callIdentityOf(provider, settings, secrets),
    invoke(request: TargetRequest): Promise<TargetResponse> {
      calls.push(request);
      const failure = failNext.shift();
      if (failure) return Promise.reject(failure);
      return Promise.resolve({
        output_messages: [{ role: "assistant", content: `answer:${calls.length}` }],
        token_usage: { input: 3, output: 1 },
        cost_usd: 0.25,
      });
    },
  };
}

/** A case with id `id` in dataset `ds`. */
export function caseOf(id: string, input = "q"): EvalCase {
  return {
    id,
    dataset: "ds",
    expected_outcome: "x",
    input: [{ role: "user", content: input }],
    expected_output: [],
    execution: { target: "fake" },
    evaluator: "llm_judge",
    evaluators: [],
    guideline_paths: [],
    file_paths: [],
  };
}

/** A request for case `id` (messages: a system and a user message). */
export function requestOf(
  id: string,
  patch: Partial<Omit<TargetRequest, "signal">> & { signal?: AbortSignal } = {},
): TargetRequest {
  const messages: ChatMessage[] = [
    { role: "system", content: "Be brief" },
    { role: "user", content: "What is 2+2?" },
  ];
  return {
    evalCase: caseOf(id),
    prompt: "Be brief\n\nWhat is 2+2?",
    messages,
    guidelines: "",
    attempt: 0,
    evalDir: "/nowhere",
    signal: new AbortController().signal,
    ...patch,
  };
}
