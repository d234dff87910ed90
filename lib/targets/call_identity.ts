/**
 * What identifies a target's calls for the response cache: its resolved settings minus the ones
 * that only steer the runner (workers, retries, judge, pricing, healthcheck, timeouts, logging)
 * and minus every secret (`api_key`, credential headers, secret values anywhere, `env` values).
 *
 * @module
 */
import { isSecretName, redactValue } from "./redact.ts";
import type { CallIdentity } from "./types.ts";

/** Settings that do not change what a call answers. */
const RUNNER_ONLY = new Set([
  "name",
  "provider",
  "description",
  "judge_target",
  "workers",
  "max_retries",
  "retry_initial_delay_ms",
  "retry_max_delay_ms",
  "retry_backoff_factor",
  "retry_status_codes",
  "pricing",
  "provider_batching",
  "healthcheck",
  "timeout_seconds",
  "verbose",
  "keep_temp_files",
  "max_output_bytes",
  "delay_ms",
  "cache",
  "api_key",
]);

/** Providers that run a command: cached only when their target says `cache: true`. */
export const COMMAND_PROVIDERS: ReadonlySet<string> = new Set(["cli", "claude-code", "codex"]);

/**
 * The call identity of a target of kind `kind` with resolved `settings`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { callIdentityOf } from "./call_identity.ts";
 * const identity = callIdentityOf("openai", {
 *   model: "gpt-4o",
 *   api_key: "sk-secret",
 *   workers: 4,
 *   headers: { authorization: "Bearer sk-secret", "x-team": "a" },
 * }, ["sk-secret"]);
 * assert.deepEqual(identity, {
 *   cacheable: true,
 *   settings: { model: "gpt-4o", headers: { "x-team": "a" } },
 * });
 * ```
 */
export function callIdentityOf(
  kind: string,
  settings: Readonly<Record<string, unknown>>,
  secrets: readonly string[],
): CallIdentity {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (RUNNER_ONLY.has(key) || value === undefined) continue;
    if (key === "headers" && value !== null && typeof value === "object") {
      const headers = Object.entries(value as Record<string, unknown>)
        .filter(([name]) => !isSecretName(name) && !/auth|cookie/i.test(name));
      if (headers.length > 0) out.headers = Object.fromEntries(headers);
    } else if (key === "env" && value !== null && typeof value === "object") {
      // Passed-on variables are named, never valued (values may be credentials).
      out.env = Array.isArray(value) ? value : Object.keys(value).sort();
    } else out[key] = value;
  }
  const cacheable = typeof settings.cache === "boolean"
    ? settings.cache
    : !COMMAND_PROVIDERS.has(kind);
  return { cacheable, settings: redactValue(out, secrets) as Record<string, unknown> };
}
