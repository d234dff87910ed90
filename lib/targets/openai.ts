/**
 * The `openai` provider: Chat Completions over `fetch`, for OpenAI and any OpenAI-compatible
 * server (vLLM, Ollama, LM Studio, OpenRouter). `base_url` defaults to `https://api.openai.com/v1`
 * and follows the official SDK's convention (`/chat/completions` is appended). The wire helpers
 * are shared with `azure`.
 *
 * @module
 */
import type { OpenAISettings } from "../schema/targets.ts";
import type { OutputMessage, TokenUsage } from "../schema/result.ts";
import type { ToolCall } from "../schema/message.ts";
import { postJson } from "./http.ts";
import type { ProviderContext, TargetCore } from "./provider_context.ts";
import { TargetError, type TargetRequest, type TargetResponse } from "./types.ts";

/** Default `base_url`. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/**
 * Creates the `openai` provider.
 *
 * @example
 * ```ts
 * import { createOpenAITarget } from "./openai.ts";
 * const core = createOpenAITarget(
 *   { name: "local", provider: "openai", base_url: "http://127.0.0.1:8000/v1", model: "qwen" },
 *   { name: "local", secrets: [], env: {} },
 * );
 * ```
 */
export function createOpenAITarget(settings: OpenAISettings, context: ProviderContext): TargetCore {
  const base = (settings.base_url ?? OPENAI_BASE_URL).replace(/\/+$/, "");
  return {
    async invoke(request: TargetRequest): Promise<TargetResponse> {
      const body = {
        model: request.overrides?.model ?? settings.model,
        ...chatCompletionFields(settings, request),
      };
      const headers: Record<string, string> = { ...settings.headers };
      if (settings.api_key) headers.authorization = `Bearer ${settings.api_key}`;
      const reply = await postJson(`${base}/chat/completions`, body, {
        headers,
        signal: request.signal,
        secrets: context.secrets,
        label: "OpenAI",
        fetch: context.fetch,
      });
      return { ...parseChatCompletion(reply.body, "OpenAI"), request: reply.request };
    },
  };
}

/** `messages`, `temperature` and `max_tokens` of a Chat Completions body (overrides applied). */
export function chatCompletionFields(
  settings: { temperature?: number; max_tokens?: number },
  request: TargetRequest,
): Record<string, unknown> {
  const temperature = request.overrides?.temperature ?? settings.temperature;
  const maxTokens = request.overrides?.max_tokens ?? settings.max_tokens;
  return {
    messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
  };
}

/** Reads a Chat Completions reply: text, tool calls and `usage`. */
export function parseChatCompletion(body: unknown, label: string): Omit<TargetResponse, "request"> {
  // deno-lint-ignore no-explicit-any
  const b = body as any;
  const message = b?.choices?.[0]?.message;
  if (!message || typeof message !== "object") {
    throw new TargetError(`${label} reply has no choices[0].message`, { retryable: false });
  }
  const content = typeof message.content === "string"
    ? message.content
    : Array.isArray(message.content)
    ? message.content.map((p: { text?: unknown }) => (typeof p?.text === "string" ? p.text : ""))
      .join("")
    : undefined;
  const toolCalls: ToolCall[] = Array.isArray(message.tool_calls)
    ? message.tool_calls.map((
      c: { id?: string; function?: { name?: string; arguments?: unknown } },
    ) => ({
      tool: String(c.function?.name ?? "unknown"),
      input: parseArguments(c.function?.arguments),
      ...(typeof c.id === "string" ? { id: c.id } : {}),
    }))
    : [];
  const out: OutputMessage = { role: "assistant" };
  if (content !== undefined || toolCalls.length === 0) out.content = content ?? "";
  if (toolCalls.length > 0) out.tool_calls = toolCalls;
  return { output_messages: [out], token_usage: openAIUsage(b.usage) };
}

function openAIUsage(usage: unknown): TokenUsage | undefined {
  // deno-lint-ignore no-explicit-any
  const u = usage as any;
  if (typeof u?.prompt_tokens !== "number" || typeof u?.completion_tokens !== "number") {
    return undefined;
  }
  const cached = u.prompt_tokens_details?.cached_tokens;
  return {
    input: u.prompt_tokens,
    output: u.completion_tokens,
    ...(typeof cached === "number" ? { cached } : {}),
  };
}

/** Tool-call arguments: a JSON string parsed, anything else kept as is. */
export function parseArguments(args: unknown): unknown {
  if (typeof args !== "string") return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}
