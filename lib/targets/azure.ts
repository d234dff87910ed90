/**
 * The `azure` provider: Azure OpenAI Chat Completions over `fetch`. `endpoint` is a URL
 * (`https://<resource>.openai.azure.com`, a trailing `/openai` is optional) or a bare resource
 * name; the deployment is `model` (alias `deployment`); `version` defaults to
 * `2024-12-01-preview`; the key goes in the `api-key` header.
 *
 * @module
 */
import type { AzureSettings } from "../schema/targets.ts";
import { postJson } from "./http.ts";
import { chatCompletionFields, parseChatCompletion } from "./openai.ts";
import type { ProviderContext, TargetCore } from "./provider_context.ts";
import type { TargetRequest, TargetResponse } from "./types.ts";

/** Default `version` (the `api-version` query parameter). */
export const AZURE_API_VERSION = "2024-12-01-preview";

/**
 * The chat-completions URL for an endpoint (URL or resource name), deployment and API version.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { azureChatUrl } from "./azure.ts";
 * assert.equal(
 *   azureChatUrl("my-res", "gpt-4o", "2024-12-01-preview"),
 *   "https://my-res.openai.azure.com/openai/deployments/gpt-4o/chat/completions" +
 *     "?api-version=2024-12-01-preview",
 * );
 * ```
 */
export function azureChatUrl(endpoint: string, deployment: string, version: string): string {
  const trimmed = endpoint.trim();
  let base: string;
  if (/^https?:\/\//i.test(trimmed)) {
    base = trimmed.replace(/\/+$/, "");
    if (!/\/openai$/i.test(base)) base = `${base}/openai`;
  } else {
    base = `https://${trimmed}.openai.azure.com/openai`;
  }
  const apiVersion = version.trim().replace(/^api-version=/i, "");
  return `${base}/deployments/${encodeURIComponent(deployment)}/chat/completions?api-version=${
    encodeURIComponent(apiVersion)
  }`;
}

/** Creates the `azure` provider (a judge's `model` override selects another deployment). */
export function createAzureTarget(settings: AzureSettings, context: ProviderContext): TargetCore {
  return {
    async invoke(request: TargetRequest): Promise<TargetResponse> {
      const deployment = request.overrides?.model ?? settings.model ?? settings.deployment ?? "";
      const url = azureChatUrl(
        settings.endpoint ?? "",
        deployment,
        settings.version ?? AZURE_API_VERSION,
      );
      const reply = await postJson(url, chatCompletionFields(settings, request), {
        headers: { ...settings.headers, "api-key": settings.api_key ?? "" },
        signal: request.signal,
        secrets: context.secrets,
        label: "Azure OpenAI",
        fetch: context.fetch,
      });
      return { ...parseChatCompletion(reply.body, "Azure OpenAI"), request: reply.request };
    },
  };
}
