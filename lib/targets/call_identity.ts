/**
 * What identifies a target's calls for the response cache: its resolved settings minus the ones
 * that only steer the runner (workers, retries, judge, pricing, healthcheck, timeouts, logging)
 * and minus every secret (`api_key`, credential headers, secret values anywhere); the values of
 * an `env` mapping and of headers that carry a secret are set apart, to be keyed as digests.
 *
 * @module
 */
import { AGENT_PROVIDERS } from "../schema/targets.ts";
import { isSecretName, redactValue } from "../text/redact.ts";
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
export const COMMAND_PROVIDERS: ReadonlySet<string> = new Set(["cli", ...AGENT_PROVIDERS]);

/** Whether a header is a credential (by name): left out of keys, masked where stored. */
function isCredentialHeader(name: string): boolean {
  return isSecretName(name) || /auth|cookie/i.test(name);
}

/** Whether `value` holds one of `secrets`, whatever its length. */
function holdsSecret(value: unknown, secrets: readonly string[]): boolean {
  return typeof value === "string" && secrets.some((s) => s.trim() !== "" && value.includes(s));
}

/**
 * Whether a header's value must never be stored: a credential by name (`authorization`,
 * `x-api-key`, cookies, ...) or a value that holds a secret of the target (any `${{ VAR }}` in
 * `headers`, whatever its length).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSecretHeader } from "./call_identity.ts";
 * assert.equal(isSecretHeader("authorization", "Bearer x", []), true);
 * assert.equal(isSecretHeader("x-tenant", "acme", ["acme"]), true);
 * assert.equal(isSecretHeader("x-team", "a", []), false);
 * ```
 */
export function isSecretHeader(name: string, value: unknown, secrets: readonly string[]): boolean {
  return isCredentialHeader(name) || holdsSecret(value, secrets);
}

/**
 * The call identity of a target of kind `kind` with resolved `settings`. Credential headers are
 * left out (rotating a key keeps the cache); other headers whose value holds a secret, and the
 * values of an `env` mapping (but those of secret-named variables), tell calls apart without
 * being written: they go to `sealed`, which the cache keys by a digest. An `env` list passes the
 * user's own variables on: their names only.
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
 * const cli = callIdentityOf("cli", {
 *   command_template: "agent {PROMPT}",
 *   env: { MODE: "fast", AGENT_TOKEN: "t0k" },
 *   cache: true,
 * }, ["t0k"]);
 * assert.deepEqual(cli.settings.env, ["AGENT_TOKEN", "MODE"]);
 * assert.deepEqual(cli.sealed, { "env.MODE": "fast" });
 * ```
 */
export function callIdentityOf(
  kind: string,
  settings: Readonly<Record<string, unknown>>,
  secrets: readonly string[],
): CallIdentity {
  const out: Record<string, unknown> = {};
  const sealed: Record<string, string> = {};
  for (const [key, value] of Object.entries(settings)) {
    if (RUNNER_ONLY.has(key) || value === undefined) continue;
    if (key === "headers" && isMapping(value)) {
      const headers: Record<string, unknown> = {};
      for (const [name, v] of Object.entries(value)) {
        if (isCredentialHeader(name)) continue;
        if (holdsSecret(v, secrets)) sealed[`headers.${name}`] = v as string;
        else headers[name] = v;
      }
      if (Object.keys(headers).length > 0) out.headers = headers;
    } else if (key === "env" && isMapping(value)) {
      // Values may be credentials: named here, keyed as digests (a credential's not at all).
      out.env = Object.keys(value).sort();
      for (const [name, v] of Object.entries(value)) {
        if (!isSecretName(name)) sealed[`env.${name}`] = String(v);
      }
    } else out[key] = value;
  }
  const cacheable = typeof settings.cache === "boolean"
    ? settings.cache
    : !COMMAND_PROVIDERS.has(kind);
  return {
    cacheable,
    settings: redactValue(out, secrets) as Record<string, unknown>,
    ...(Object.keys(sealed).length > 0 ? { sealed } : {}),
  };
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
