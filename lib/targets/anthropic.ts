/**
 * The `anthropic` provider: the Messages API over `fetch`. `base_url` defaults to
 * `https://api.anthropic.com` (the official SDK's convention; `/v1/messages` is appended); headers
 * `x-api-key` and `anthropic-version: 2023-06-01`; system messages go to `system`;
 * `max_tokens` defaults to 4096; `thinking_budget` enables extended thinking.
 *
 * @module
 */
import type { AnthropicSettings } from "../schema/targets.ts";
import type { OutputMessage, TokenUsage } from "../schema/result.ts";
import type { ToolCall } from "../schema/message.ts";
import { postJson } from "./http.ts";
import type { ProviderContext, TargetCore } from "./provider_context.ts";
import { TargetError, type TargetRequest, type TargetResponse } from "./types.ts";

/** Default `base_url`. */
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";

/** The `anthropic-version` header sent. */
export const ANTHROPIC_VERSION = "2023-06-01";

/** Default `max_tokens` (the API requires one). */
export const ANTHROPIC_MAX_TOKENS = 4096;

/** Creates the `anthropic` provider. */
export function createAnthropicTarget(
  settings: AnthropicSettings,
  context: ProviderContext,
): TargetCore {
  const base = (settings.base_url ?? ANTHROPIC_BASE_URL).replace(/\/+$/, "");
  return {
    async invoke(request: TargetRequest): Promise<TargetResponse> {
      const system = request.messages.filter((m) => m.role === "system").map((m) => m.content);
      const temperature = request.overrides?.temperature ?? settings.temperature;
      const body = {
        model: request.overrides?.model ?? settings.model,
        max_tokens: request.overrides?.max_tokens ?? settings.max_tokens ?? ANTHROPIC_MAX_TOKENS,
        ...(system.length > 0 ? { system: system.join("\n\n") } : {}),
        messages: request.messages.filter((m) => m.role !== "system").map((m) => ({
          role: m.role,
          content: m.content,
        })),
        ...(temperature !== undefined ? { temperature } : {}),
        ...(settings.thinking_budget !== undefined
          ? { thinking: { type: "enabled", budget_tokens: settings.thinking_budget } }
          : {}),
      };
      const reply = await postJson(`${base}/v1/messages`, body, {
        headers: {
          ...settings.headers,
          "x-api-key": settings.api_key ?? "",
          "anthropic-version": ANTHROPIC_VERSION,
        },
        signal: request.signal,
        secrets: context.secrets,
        label: "Anthropic",
        fetch: context.fetch,
      });
      return { ...parseAnthropicMessage(reply.body), request: reply.request };
    },
  };
}

/** Reads a Messages API reply: text blocks joined, `tool_use` blocks as tool calls, `usage`. */
export function parseAnthropicMessage(body: unknown): Omit<TargetResponse, "request"> {
  // deno-lint-ignore no-explicit-any
  const b = body as any;
  if (!Array.isArray(b?.content)) {
    throw new TargetError("Anthropic reply has no content blocks", { retryable: false });
  }
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of b.content) {
    if (block?.type === "text" && typeof block.text === "string") texts.push(block.text);
    if (block?.type === "tool_use") {
      toolCalls.push({
        tool: String(block.name ?? "unknown"),
        input: block.input,
        ...(typeof block.id === "string" ? { id: block.id } : {}),
      });
    }
  }
  const out: OutputMessage = { role: "assistant", content: texts.join("") };
  if (toolCalls.length > 0) out.tool_calls = toolCalls;
  return { output_messages: [out], token_usage: anthropicUsage(b.usage) };
}

function anthropicUsage(usage: unknown): TokenUsage | undefined {
  // deno-lint-ignore no-explicit-any
  const u = usage as any;
  if (typeof u?.input_tokens !== "number" || typeof u?.output_tokens !== "number") return undefined;
  const cached = u.cache_read_input_tokens;
  return {
    input: u.input_tokens,
    output: u.output_tokens,
    ...(typeof cached === "number" ? { cached } : {}),
  };
}
