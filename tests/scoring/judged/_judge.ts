/**
 * Judges for tests: a {@link JudgeClient} over the local OpenAI-compatible or Anthropic mock
 * server, and evaluation contexts that use it.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { createJudgeClient } from "../../../lib/scoring/judge_client.ts";
import type { EvaluationContext, JudgeClient } from "../../../lib/scoring/types.ts";
import { createAnthropicTarget } from "../../../lib/targets/anthropic.ts";
import { createOpenAITarget } from "../../../lib/targets/openai.ts";
import type { Target } from "../../../lib/targets/types.ts";
import type { ProviderServer } from "../../_helpers/provider_servers.ts";
import { makeContext } from "../_context.ts";

/** `fixtures/judged/` (absolute). */
export const FIXTURES: string = fileURLToPath(new URL("../../../fixtures/judged/", import.meta.url))
  .replace(/\/$/, "");

/** The API key the judge targets use (must never appear in recorded requests). */
export const SECRET = "sk-test-SECRET-123";

const NO_RETRY = {
  maxRetries: 0,
  initialDelayMs: 1,
  maxDelayMs: 1,
  backoffFactor: 1,
  retryStatusCodes: [],
};

/** A judge target over a mock server (`openai` or `anthropic` wire format). */
export function judgeTarget(
  server: ProviderServer,
  kind: "openai" | "anthropic" = "openai",
  settings: Record<string, unknown> = {},
): Target {
  const context = { name: "judge", secrets: [SECRET], env: {} };
  const core = kind === "openai"
    ? createOpenAITarget(
      {
        name: "judge",
        provider: "openai",
        base_url: server.url,
        api_key: SECRET,
        model: "judge-model",
        ...settings,
      } as never,
      context,
    )
    : createAnthropicTarget(
      {
        name: "judge",
        provider: "anthropic",
        base_url: server.url,
        api_key: SECRET,
        model: "claude-judge",
        ...settings,
      } as never,
      context,
    );
  return { name: "judge", provider: kind, retry: NO_RETRY, secrets: [SECRET], ...core };
}

/** A judge client over a mock server. */
export function judgeOver(
  server: ProviderServer,
  kind: "openai" | "anthropic" = "openai",
  settings: Record<string, unknown> = {},
): JudgeClient {
  return createJudgeClient(judgeTarget(server, kind, settings), { timeoutMs: 5_000 });
}

/** A context with the given answer, judged by `judge`, rooted in `fixtures/judged/`. */
export function judgedContext(
  judge: JudgeClient | undefined,
  answer: string,
  overrides: Partial<EvaluationContext> = {},
): EvaluationContext {
  return makeContext({
    outputMessages: [{ role: "assistant", content: answer }],
    evalDir: `${FIXTURES}/evals`,
    root: FIXTURES,
    ...(judge ? { judge } : {}),
    ...overrides,
  });
}

/** The user prompt of a recorded OpenAI-format request. */
// deno-lint-ignore no-explicit-any
export function userPrompt(body: any): string {
  // deno-lint-ignore no-explicit-any
  return body.messages.find((m: any) => m.role === "user").content;
}
