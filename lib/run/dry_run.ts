/**
 * `--dry-run`: every target is replaced by a mock (no network, no subprocess) and the judge by a
 * deterministic mock judge.
 *
 * The mock target answers every case with the JSON text `{"answer":"Mock dry-run response"}`
 * (as the original tool does) and calls no tools. The mock judge answers every request as a `mock`
 * target with `judge: true` does (`targets/mock_judge.ts`): score 1.0, every rubric listed in the
 * prompt satisfied. Dry-run scores therefore test the wiring and the deterministic evaluators,
 * not the model.
 *
 * @module
 */
import type { JudgeClient } from "../scoring/types.ts";
import { mockJudgeReply } from "../targets/mock_judge.ts";
import type { Target, TargetRequest, TargetResponse } from "../targets/types.ts";

/** The text every dry-run target returns. */
export const DRY_RUN_ANSWER = '{"answer":"Mock dry-run response"}';

/** A mock stand-in for `name` that answers {@link DRY_RUN_ANSWER} at once. */
export function createDryRunTarget(name: string, options: { workers?: number } = {}): Target {
  return {
    name,
    provider: "mock",
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    retry: {
      maxRetries: 0,
      initialDelayMs: 0,
      maxDelayMs: 0,
      backoffFactor: 1,
      retryStatusCodes: [],
    },
    secrets: [],
    invoke(request: TargetRequest): Promise<TargetResponse> {
      if (request.signal.aborted) {
        return Promise.reject(request.signal.reason ?? new Error("aborted"));
      }
      return Promise.resolve({
        output_messages: [{ role: "assistant", content: DRY_RUN_ANSWER }],
        duration_ms: 0,
        request: { dry_run: true, prompt_chars: request.prompt.length },
      });
    },
  };
}

export { rubricIds } from "../targets/mock_judge.ts";

/**
 * A deterministic judge for dry runs (see the module doc for what it answers).
 *
 * @example
 * ```ts
 * import { createDryRunJudge } from "./dry_run.ts";
 * const judge = createDryRunJudge();
 * const reply = await judge.complete({ system: "", user: "Grade" }, new AbortController().signal);
 * JSON.parse(reply.text).score; // 1
 * ```
 */
export function createDryRunJudge(name = "dry-run-judge"): JudgeClient {
  return {
    target: name,
    complete(request, signal) {
      if (signal.aborted) return Promise.reject(signal.reason ?? new Error("aborted"));
      return Promise.resolve({
        text: mockJudgeReply(`${request.system}\n${request.user}`, "dry run"),
        request: { dry_run: true, target: name },
      });
    },
  };
}
