/**
 * The model endpoint each newer agent CLI sends its model calls to, as far as agentv can tell
 * from the target's settings and the environment agentv gives the CLI: what its sandbox's
 * `network: model-only` lets through (`agent_target.ts`), besides `allow_hosts`. `claude-code`
 * and `codex` are not listed here: Claude Code's is `ANTHROPIC_BASE_URL` (`claude_code.ts`), and
 * Codex may name several, in its `-c model_providers…` arguments (`codexEndpoints` in `codex.ts`).
 *
 * @module
 */
import type { AgentProvider, ProviderSettingsMap } from "../schema/targets.ts";
import { copilotCliModelEndpoint } from "./copilot_cli.ts";
import { geminiCliModelEndpoint } from "./gemini_cli.ts";
import { opencodeModelEndpoint } from "./opencode.ts";
import { piModelEndpoint } from "./pi.ts";
import { qwenCodeModelEndpoint } from "./qwen_code.ts";

type Endpoint<K extends AgentProvider> = (
  settings: ProviderSettingsMap[K],
  env: Readonly<Record<string, string>>,
) => string | undefined;

/** Each listed agent kind's endpoint lookup (its module documents where the URL comes from). */
const ENDPOINTS: { readonly [K in AgentProvider]?: Endpoint<K> } = {
  "gemini-cli": geminiCliModelEndpoint,
  "qwen-code": qwenCodeModelEndpoint,
  "copilot-cli": copilotCliModelEndpoint,
  opencode: opencodeModelEndpoint,
  pi: piModelEndpoint,
};

/**
 * The URL the agent CLI of `kind` calls its model at (`base_url`, else the variable the CLI reads,
 * else its provider's public default), or `undefined` when agentv cannot tell (an opencode
 * provider from opencode's own files that agentv does not know, a pi model
 * of a built-in provider it does not know, a kind not listed here).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentModelEndpoint } from "./agent_endpoints.ts";
 * const endpoint = agentModelEndpoint("gemini-cli", { name: "g", provider: "gemini-cli" }, {
 *   GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:8080",
 * });
 * assert.equal(endpoint, "http://127.0.0.1:8080");
 * ```
 */
export function agentModelEndpoint<K extends AgentProvider>(
  kind: K,
  settings: ProviderSettingsMap[K],
  env: Readonly<Record<string, string>>,
): string | undefined {
  const lookup = ENDPOINTS[kind] as Endpoint<K> | undefined;
  return lookup?.(settings, env);
}
