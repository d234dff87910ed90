/**
 * Where an HTTP provider's calls go, for messages (a call that timed out names it): the URL of
 * its requests, without the query.
 *
 * @module
 */
import { ANTHROPIC_BASE_URL } from "./anthropic.ts";
import { AZURE_API_VERSION, azureChatUrl } from "./azure.ts";
import { GEMINI_BASE_URL } from "./gemini.ts";
import { shownUrl } from "./http_errors.ts";
import { OPENAI_BASE_URL } from "./openai.ts";

/**
 * The URL an `openai`, `azure`, `anthropic` or `gemini` target posts to (from its resolved
 * settings), or `undefined` for any other provider.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { httpEndpoint } from "./endpoint.ts";
 * assert.equal(
 *   httpEndpoint("openai", { base_url: "http://127.0.0.1:8000/v1/" }),
 *   "http://127.0.0.1:8000/v1/chat/completions",
 * );
 * ```
 */
export function httpEndpoint(
  kind: string,
  settings: Readonly<Record<string, unknown>>,
): string | undefined {
  const text = (key: string) => typeof settings[key] === "string" ? settings[key] : undefined;
  const base = (fallback: string) => (text("base_url") ?? fallback).replace(/\/+$/, "");
  switch (kind) {
    case "openai":
      return `${base(OPENAI_BASE_URL)}/chat/completions`;
    case "anthropic":
      return `${base(ANTHROPIC_BASE_URL)}/v1/messages`;
    case "gemini":
      return `${base(GEMINI_BASE_URL)}/v1beta/models/${text("model") ?? "<model>"}:generateContent`;
    case "azure":
      return shownUrl(
        azureChatUrl(
          text("endpoint") ?? "",
          text("model") ?? text("deployment") ?? "",
          text("version") ?? AZURE_API_VERSION,
        ),
      );
    default:
      return undefined;
  }
}
