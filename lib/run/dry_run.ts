/**
 * `--dry-run`: every target is replaced by a mock (no network, no subprocess) and the judge by a
 * deterministic mock judge.
 *
 * The mock target answers every case with the JSON text `{"answer":"Mock dry-run response"}`
 * (as the original tool does) and calls no tools. The mock judge answers every request with
 * score 1.0, one hit `dry run: mock judge`, and — for rubric prompts — marks every rubric whose
 * id is listed in the prompt (`- [id] ...` lines) as satisfied. Dry-run scores therefore test the pipeline and the
 * deterministic evaluators, not the model.
 *
 * @module
 */
import type { JudgeClient } from "../scoring/types.ts";
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

/** Rubric ids listed in a judge prompt (`- [id] ...` lines, or `"id": "x"`), in order, unique. */
export function rubricIds(text: string): string[] {
  const ids = new Set<string>();
  for (const m of text.matchAll(/^\s*-\s*\[([^\]\n]+)\]/gm)) ids.add(m[1].trim());
  for (const m of text.matchAll(/"id"\s*:\s*"([^"]+)"/g)) ids.add(m[1]);
  return [...ids];
}

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
      const ids = rubricIds(`${request.system}\n${request.user}`);
      const reply = {
        score: 1,
        hits: ["dry run: mock judge"],
        misses: [],
        reasoning: "Dry run: the mock judge scores every answer 1.0",
        checks: ids.map((id) => ({ id, satisfied: true, reasoning: "dry run" })),
        overall_reasoning: "Dry run: the mock judge satisfies every rubric",
      };
      return Promise.resolve({
        text: JSON.stringify(reply),
        request: { dry_run: true, target: name },
      });
    },
  };
}
