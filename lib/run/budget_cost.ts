/**
 * What a call may cost and what it did cost, for the spend cap (`lib/run/budget.ts`): an
 * upper bound on a request's input tokens, the worst-case cost of a call to a priced target, and
 * the actual cost of a response.
 *
 * @module
 */
import type { Target, TargetRequest, TargetResponse } from "../targets/types.ts";

/** Tokens added to the input bound for each message (role and delimiter tokens). */
export const MESSAGE_OVERHEAD_TOKENS = 8;
/** Tokens added to the input bound for each request (reply priming, format tokens). */
export const REQUEST_OVERHEAD_TOKENS = 32;

/** Providers whose call is one model request (its input and output limit bound its cost). */
const SINGLE_CALL_PROVIDERS: ReadonlySet<string> = new Set([
  "openai",
  "azure",
  "anthropic",
  "gemini",
]);

/** UTF-8 length of `text` in bytes (no allocation). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      // A surrogate pair is one code point of four bytes.
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * An upper bound on the input tokens of a request: the UTF-8 bytes of every chat message (or
 * of the prompt, for a request with no messages), since a token covers at least one byte, plus
 * {@link MESSAGE_OVERHEAD_TOKENS} per message and {@link REQUEST_OVERHEAD_TOKENS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inputTokenBound } from "./budget_cost.ts";
 * // "user" (4 bytes) + "héllo" (6 bytes) + 8 per message + 32 per request
 * assert.equal(inputTokenBound({ prompt: "", messages: [{ role: "user", content: "héllo" }] }), 50);
 * ```
 */
export function inputTokenBound(request: Pick<TargetRequest, "messages" | "prompt">): number {
  if (request.messages.length === 0) {
    return utf8Length(request.prompt) + MESSAGE_OVERHEAD_TOKENS + REQUEST_OVERHEAD_TOKENS;
  }
  let tokens = REQUEST_OVERHEAD_TOKENS;
  for (const message of request.messages) {
    tokens += utf8Length(message.role) + utf8Length(message.content) + MESSAGE_OVERHEAD_TOKENS;
  }
  return tokens;
}

/**
 * The worst-case cost of a call in USD, and whether it is a true bound (`bounded: false`: only
 * the input was bounded; see the module doc). `undefined` for a target without `pricing`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { worstCaseCost } from "./budget_cost.ts";
 * const target = {
 *   name: "t",
 *   provider: "openai",
 *   pricing: { input_per_mtok: 1, output_per_mtok: 4 },
 *   maxOutputTokens: 100,
 * };
 * const request = { prompt: "", messages: [{ role: "user" as const, content: "hi" }] };
 * // input bound 4 + 2 + 8 + 32 = 46 tokens at $1/M, 100 output tokens at $4/M
 * assert.deepEqual(worstCaseCost(target, request), { usd: (46 + 400) / 1e6, bounded: true });
 * ```
 */
export function worstCaseCost(
  target: Pick<Target, "provider" | "pricing" | "maxOutputTokens">,
  request: Pick<TargetRequest, "messages" | "prompt" | "overrides">,
): { usd: number; bounded: boolean } | undefined {
  const pricing = target.pricing;
  if (pricing === undefined) return undefined;
  const input = inputTokenBound(request) * pricing.input_per_mtok;
  const maxTokens = request.overrides?.max_tokens ?? target.maxOutputTokens;
  if (!SINGLE_CALL_PROVIDERS.has(target.provider) || maxTokens === undefined) {
    return { usd: input / 1_000_000, bounded: false };
  }
  return { usd: (input + maxTokens * pricing.output_per_mtok) / 1_000_000, bounded: true };
}

/**
 * The cost of a response (or of a failed call's partial response) in USD, when it can be known:
 * its `cost_usd`, else its token usage times `pricing`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { actualCost } from "./budget_cost.ts";
 * const pricing = { input_per_mtok: 2, output_per_mtok: 8 };
 * const usage = { input: 1000, output: 500 };
 * assert.equal(actualCost({ output_messages: [], token_usage: usage }, pricing), 0.006);
 * assert.equal(actualCost({ output_messages: [] }, pricing), undefined);
 * ```
 */
export function actualCost(
  response: TargetResponse | undefined,
  pricing: Target["pricing"],
): number | undefined {
  if (response === undefined) return undefined;
  if (typeof response.cost_usd === "number" && Number.isFinite(response.cost_usd)) {
    return Math.max(0, response.cost_usd);
  }
  if (pricing !== undefined && response.token_usage !== undefined) {
    const { input, output } = response.token_usage;
    return (input * pricing.input_per_mtok + output * pricing.output_per_mtok) / 1_000_000;
  }
  return undefined;
}
