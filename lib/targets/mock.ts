/**
 * The `mock` provider: a fixed `response` (a string, or an object sent as JSON text), with
 * `echo: true` the prompt back, or with `judge: true` a passing judge's reply to any judge request
 * (`mock_judge.ts`); optional `delay_ms`, `tool_calls` (emitted as an assistant message
 * with `tool_calls` before the answer), `token_usage` and `cost_usd`. Used by `--dry-run` and
 * tests; honours the request's signal.
 *
 * @module
 */
import type { MockSettings } from "../schema/targets.ts";
import type { OutputMessage } from "../schema/result.ts";
import type { ProviderContext, TargetCore } from "./provider_context.ts";
import { mockJudgeReply } from "./mock_judge.ts";
import { TargetError, type TargetRequest, type TargetResponse } from "./types.ts";

/**
 * Creates the `mock` provider.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMockTarget } from "./mock.ts";
 * import type { TargetRequest } from "./types.ts";
 * const core = createMockTarget({ name: "m", provider: "mock", response: "42" }, {
 *   name: "m",
 *   secrets: [],
 *   env: {},
 * });
 * const request = { prompt: "What is 6 x 7?", signal: new AbortController().signal, attempt: 0 };
 * const response = await core.invoke(request as unknown as TargetRequest);
 * assert.deepEqual(response.output_messages, [{ role: "assistant", content: "42" }]);
 * ```
 */
export function createMockTarget(settings: MockSettings, context: ProviderContext): TargetCore {
  return {
    async invoke(request: TargetRequest): Promise<TargetResponse> {
      const started = performance.now();
      if (settings.delay_ms) await sleep(settings.delay_ms, request.signal);
      if (request.signal.aborted) {
        throw new TargetError(`Mock target '${context.name}' aborted`, {
          cause: request.signal.reason,
        });
      }
      const text = settings.judge
        ? mockJudgeReply(request.prompt, `mock judge '${context.name}'`)
        : settings.echo
        ? request.prompt
        : settings.response === undefined
        ? JSON.stringify({ answer: `Mock response from target '${context.name}'` })
        : typeof settings.response === "string"
        ? settings.response
        : JSON.stringify(settings.response);
      const messages: OutputMessage[] = [];
      if (settings.tool_calls && settings.tool_calls.length > 0) {
        messages.push({ role: "assistant", tool_calls: settings.tool_calls });
      }
      messages.push({ role: "assistant", content: text });
      return {
        output_messages: messages,
        ...(settings.token_usage ? { token_usage: settings.token_usage } : {}),
        ...(settings.cost_usd !== undefined ? { cost_usd: settings.cost_usd } : {}),
        duration_ms: Math.round(performance.now() - started),
        request: { prompt: request.prompt, guidelines: request.guidelines },
      };
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
