/**
 * The `gemini` provider: `generateContent` over `fetch`. `base_url` defaults to
 * `https://generativelanguage.googleapis.com` (`/v1beta/models/<model>:generateContent` is
 * appended); the key goes in `x-goog-api-key`; `model` defaults to `gemini-2.5-flash`; system
 * messages go to `systemInstruction`; usage comes from `usageMetadata`.
 *
 * @module
 */
import type { GeminiSettings } from "../schema/targets.ts";
import type { OutputMessage, TokenUsage } from "../schema/result.ts";
import type { ToolCall } from "../schema/message.ts";
import { postJson } from "./http.ts";
import type { ProviderContext, TargetCore } from "./provider_context.ts";
import { TargetError, type TargetRequest, type TargetResponse } from "./types.ts";

/** Default `base_url`. */
export const GEMINI_BASE_URL = "https://generativelanguage.googleapis.com";

/** Default `model`. */
export const GEMINI_MODEL = "gemini-2.5-flash";

/** Creates the `gemini` provider. */
export function createGeminiTarget(settings: GeminiSettings, context: ProviderContext): TargetCore {
  const base = (settings.base_url ?? GEMINI_BASE_URL).replace(/\/+$/, "");
  return {
    async invoke(request: TargetRequest): Promise<TargetResponse> {
      const model = request.overrides?.model ?? settings.model ?? GEMINI_MODEL;
      const system = request.messages.filter((m) => m.role === "system").map((m) => m.content);
      const temperature = request.overrides?.temperature ?? settings.temperature;
      const maxTokens = request.overrides?.max_tokens ?? settings.max_tokens;
      const generationConfig = {
        ...(temperature !== undefined ? { temperature } : {}),
        ...(maxTokens !== undefined ? { maxOutputTokens: maxTokens } : {}),
      };
      const body = {
        contents: request.messages.filter((m) => m.role !== "system").map((m) => ({
          role: m.role === "assistant" ? "model" : "user",
          parts: [{ text: m.content }],
        })),
        ...(system.length > 0
          ? { systemInstruction: { parts: [{ text: system.join("\n\n") }] } }
          : {}),
        ...(Object.keys(generationConfig).length > 0 ? { generationConfig } : {}),
      };
      const url = `${base}/v1beta/models/${encodeURIComponent(model)}:generateContent`;
      const reply = await postJson(url, body, {
        headers: { ...settings.headers, "x-goog-api-key": settings.api_key ?? "" },
        signal: request.signal,
        secrets: context.secrets,
        label: "Gemini",
        fetch: context.fetch,
      });
      return { ...parseGeminiResponse(reply.body), request: reply.request };
    },
  };
}

/** Reads a `generateContent` reply: text parts joined, `functionCall` parts as tool calls. */
export function parseGeminiResponse(body: unknown): Omit<TargetResponse, "request"> {
  // deno-lint-ignore no-explicit-any
  const b = body as any;
  const candidate = b?.candidates?.[0];
  if (!candidate) {
    const reason = b?.promptFeedback?.blockReason;
    throw new TargetError(
      `Gemini reply has no candidates${reason ? ` (prompt blocked: ${reason})` : ""}`,
      { retryable: false },
    );
  }
  const parts = Array.isArray(candidate.content?.parts) ? candidate.content.parts : [];
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const part of parts) {
    if (typeof part?.text === "string" && part.thought !== true) texts.push(part.text);
    if (part?.functionCall) {
      toolCalls.push({
        tool: String(part.functionCall.name ?? "unknown"),
        input: part.functionCall.args,
        ...(typeof part.functionCall.id === "string" ? { id: part.functionCall.id } : {}),
      });
    }
  }
  const out: OutputMessage = { role: "assistant", content: texts.join("") };
  if (toolCalls.length > 0) out.tool_calls = toolCalls;
  return { output_messages: [out], token_usage: geminiUsage(b.usageMetadata) };
}

function geminiUsage(meta: unknown): TokenUsage | undefined {
  // deno-lint-ignore no-explicit-any
  const m = meta as any;
  if (typeof m?.promptTokenCount !== "number") return undefined;
  const output = (typeof m.candidatesTokenCount === "number" ? m.candidatesTokenCount : 0) +
    (typeof m.thoughtsTokenCount === "number" ? m.thoughtsTokenCount : 0);
  return {
    input: m.promptTokenCount,
    output,
    ...(typeof m.cachedContentTokenCount === "number" ? { cached: m.cachedContentTokenCount } : {}),
  };
}
