/**
 * Secret redaction for recorded requests and error messages: known secret values, `Bearer`
 * tokens, API-key headers and `key=` query values are replaced by `***`.
 *
 * @module
 */

/** What a redacted value is replaced with. */
export const REDACTED = "***";

/** Header and setting names whose values are always secret. */
const SECRET_KEYS = new Set([
  "authorization",
  "proxy-authorization",
  "x-api-key",
  "api-key",
  "api_key",
  "apikey",
  "x-goog-api-key",
]);

const PATTERNS: [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  [
    /\b((?:x-goog-api-key|x-api-key|api-key|api_key)["']?\s*[:=]\s*["']?)[^\s"',&}]+/gi,
    `$1${REDACTED}`,
  ],
  [/([?&](?:key|api_key|api-key|apikey|access_token|token)=)[^&\s"'#]+/gi, `$1${REDACTED}`],
];

/** Secrets shorter than this are not replaced inside text (they would mangle ordinary words). */
const MIN_SECRET_LENGTH = 4;

/**
 * Replaces every secret value and every credential-looking fragment of `text` with `***`.
 *
 * @example
 * ```ts
 * import { redactText } from "./redact.ts";
 * redactText("401 for key sk-test-SECRET-123", ["sk-test-SECRET-123"]); // "401 for key ***"
 * ```
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  const sorted = [...new Set(secrets)]
    .filter((s) => s.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  for (const secret of sorted) out = out.split(secret).join(REDACTED);
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * Deep copy of `value` with secrets redacted: strings through {@link redactText}, and the values
 * of secret-named keys (`authorization`, `api-key`, `x-api-key`, `api_key`, ...) replaced whole.
 */
export function redactValue<T>(value: T, secrets: readonly string[] = []): T {
  return redact(value, secrets) as T;
}

function redact(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = SECRET_KEYS.has(key.toLowerCase()) && v !== undefined && v !== null
        ? REDACTED
        : redact(v, secrets);
    }
    return out;
  }
  return value;
}
