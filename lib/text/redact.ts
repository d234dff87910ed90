/**
 * The one secret redactor of agentv, used for result rows, events, console output, `--verbose`,
 * error messages, recorded requests and diagnostic excerpts.
 *
 * - Known secret values are searched in free text only when they are at least
 *   {@link MIN_FREE_TEXT_SECRET} characters long: a short key (`x`, `ok`, `ollama`, a `{`) would
 *   otherwise garble answers, ids and JSON.
 * - Credential forms are always redacted, whatever the secret's length: `Authorization: Bearer X`
 *   (and `Basic`, `Token`), `x-api-key`, `api-key`, `x-goog-api-key`, `api_key` settings or
 *   headers, and `key=` / `api_key=` / `token=` query parameters.
 * - Structured values (the recorded request, rows) are walked: string values are redacted, the
 *   values of secret-named keys (`authorization`, `api_key`, ...) are replaced whole, keys are
 *   never changed. Rows keep agentv's own fields (`status`, `verdict`, ids, numbers) untouched.
 * - Structural keys are never rewritten: at any depth, the value of a `role`, `type`, `status` or
 *   `verdict` key that is a lower-case word (letters joined by `_` or `-`: `assistant`,
 *   `tool_use`, `function`, `ok`, `pass`) names a kind from a fixed vocabulary, not data, so it
 *   is kept even when a secret equals it (a dataset's `.env` could otherwise make every `role`
 *   read `***`). Any other value of those keys (a digit, a capital or a symbol, as keys and
 *   tokens have) is redacted like all text.
 *
 * @module
 */

/** What a redacted value is replaced with. */
export const REDACTED = "***";

/** Secrets shorter than this are never searched for in free text (credential forms still are). */
export const MIN_FREE_TEXT_SECRET = 8;

/** Header and setting names whose values are always secret (compared in lower case). */
const SECRET_KEYS = new Set([
  "authorization",
  "proxy-authorization",
  "x-api-key",
  "api-key",
  "api_key",
  "apikey",
  "x-goog-api-key",
]);

/** A credential token: what follows `Bearer` or `key=`. */
const TOKEN = String.raw`[A-Za-z0-9._~+/=:-]+`;

const PATTERNS: [RegExp, string][] = [
  // Authorization headers, whatever the scheme: `Authorization: Bearer X`, `"authorization":"X"`.
  [
    new RegExp(
      String
        .raw`\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:Bearer|Basic|Token|Digest)\s+)?)(?!(?:Bearer|Basic|Token|Digest)\b|\$\{\{)${TOKEN}`,
      "gi",
    ),
    `$1${REDACTED}`,
  ],
  // A bare `Bearer X` whose token looks like a credential (8+ characters, a digit or symbol), so
  // prose such as "Bearer of news" is left alone.
  [
    new RegExp(
      String.raw`\b(Bearer\s+)(?=[A-Za-z0-9._~+/=-]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}`,
      "g",
    ),
    `$1${REDACTED}`,
  ],
  // API-key headers, settings and variables: `x-api-key: X`, `api-key=X`, `"api_key": "X"`,
  // `OPENAI_API_KEY=X` (a `${{ VAR }}` reference is not a value and is kept).
  [
    new RegExp(
      String
        .raw`((?:\b|(?<=[_-]))api[_-]?key["']?\s*[:=]\s*["']?)(?!\$\{\{)[^\s"',&#}\]]+`,
      "gi",
    ),
    `$1${REDACTED}`,
  ],
  // Query parameters: `?key=X`, `&api_key=X`, `?access_token=X`.
  [
    /([?&](?:key|api_key|api-key|apikey|access_token|token)=)[^&\s"'#]+/gi,
    `$1${REDACTED}`,
  ],
];

/** Cheap pre-check: a string without any of these words holds no credential form. */
const TRIGGER = /bearer|authoriz|key|token/i;

/**
 * Redacts secrets from text, values and result rows. Create one per set of secrets with
 * {@link createRedactor}; it is cheap to call on every string.
 */
export interface Redactor {
  /** The secret values this redactor knows (every length). */
  readonly secrets: readonly string[];
  /** Text with known secrets (8+ characters) and credential forms replaced by `***`. */
  text(text: string): string;
  /**
   * Deep copy of a JSON-like value: strings through {@link Redactor.text}, the values of
   * secret-named keys (`authorization`, `api_key`, `x-api-key`, ...) replaced whole, keys and
   * structural values (a lower-case word under `role`, `type`, `status` or `verdict`) kept.
   * Unchanged parts are shared, not copied.
   */
  value<T>(value: T): T;
  /**
   * A result row with its free-text values redacted (answers, messages, hits, misses, reasoning,
   * errors, evaluator details and requests). agentv's own fields (`status`, `verdict`, `score`,
   * `timestamp`, `eval_id`, `dataset`, `conversation_id`, `target`, evaluator `name`, `type`,
   * `status`, `verdict`, numbers, booleans), structural values inside (a message's `role`, a
   * tool call's or content part's `type`) and every key are kept as they are. Returns the same
   * object when nothing changed.
   */
  row<R extends object>(row: R): R;
}

/** Row fields that agentv itself writes: never redacted. */
const OWN_ROW_FIELDS = new Set([
  "run_id",
  "trial",
  "timestamp",
  "eval_id",
  "dataset",
  "conversation_id",
  "target",
  "status",
  "score",
  "verdict",
  "token_usage",
  "duration_ms",
  "attempts",
  "dry_run",
]);

/** Evaluator-result fields that agentv itself writes: never redacted. */
const OWN_EVALUATOR_FIELDS = new Set(["name", "type", "status", "score", "weight", "verdict"]);

/** Keys whose lower-case-word values name a kind (see the module doc): never redacted. */
const STRUCTURAL_KEYS = new Set(["role", "type", "status", "verdict"]);

/** A lower-case word of a fixed vocabulary: letters joined by `_` or `-`, at most 40 characters. */
const VOCABULARY_WORD = /^(?=.{1,40}$)[a-z]+(?:[_-][a-z]+)*$/;

/**
 * Whether the value at `key` is structural (a kind such as `role: assistant`), never redacted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isStructuralValue } from "./redact.ts";
 * assert.equal(isStructuralValue("role", "assistant"), true);
 * assert.equal(isStructuralValue("role", "sk-live-1234"), false); // redacted like any text
 * assert.equal(isStructuralValue("content", "assistant"), false);
 * ```
 */
export function isStructuralValue(key: string, value: unknown): boolean {
  return STRUCTURAL_KEYS.has(key) && typeof value === "string" && VOCABULARY_WORD.test(value);
}

/** Escaped spellings under which a secret may appear in text (JSON inside a string, a URL). */
function spellings(secret: string): string[] {
  const out = new Set([secret]);
  const json = JSON.stringify(secret).slice(1, -1);
  out.add(json);
  try {
    out.add(encodeURIComponent(secret));
  } catch { /* a lone surrogate: no URL spelling */ }
  return [...out].filter((s) => s.length >= MIN_FREE_TEXT_SECRET);
}

/**
 * Creates the redactor for a set of secret values (empty strings are ignored).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createRedactor } from "./redact.ts";
 * const redactor = createRedactor(["sk-test-SECRET-123", "ollama"]);
 * assert.equal(redactor.text("401 for key sk-test-SECRET-123"), "401 for key ***");
 * // short secrets are not searched in text, only after `Bearer` and the like
 * assert.equal(redactor.text("Run ollama locally"), "Run ollama locally");
 * assert.equal(redactor.text("Authorization: Bearer ollama"), "Authorization: Bearer ***");
 * ```
 */
export function createRedactor(secrets: Iterable<string> = []): Redactor {
  const known = [...new Set([...secrets].filter((s) => typeof s === "string" && s !== ""))];
  const searched = [...new Set(known.flatMap(spellings))].sort((a, b) => b.length - a.length);

  const text = (input: string): string => {
    let out = input;
    for (const secret of searched) {
      if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    }
    if (!TRIGGER.test(out)) return out;
    for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
    return out;
  };

  // Values are JSON (rows are written with JSON.stringify): no cycles to guard against.
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return text(value);
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((v) => {
        const r = walk(v);
        if (r !== v) changed = true;
        return r;
      });
      return changed ? out : value;
    }
    let out: Record<string, unknown> | undefined;
    for (const [key, v] of Object.entries(value)) {
      if (isStructuralValue(key, v)) continue;
      const r = SECRET_KEYS.has(key.toLowerCase()) && v !== undefined && v !== null
        ? REDACTED
        : walk(v);
      if (r !== v) (out ??= { ...value as Record<string, unknown> })[key] = r;
    }
    return out ?? value;
  };

  type EvaluatorResult = Record<string, unknown>;
  const evaluatorResult = (result: EvaluatorResult): EvaluatorResult => {
    let out: Record<string, unknown> | undefined;
    for (const [key, v] of Object.entries(result)) {
      if (OWN_EVALUATOR_FIELDS.has(key)) continue;
      const r = key === "evaluator_results" && Array.isArray(v)
        ? walkList(v as EvaluatorResult[], evaluatorResult)
        : walk(v);
      if (r !== v) (out ??= { ...result })[key] = r;
    }
    return (out as EvaluatorResult | undefined) ?? result;
  };

  return {
    secrets: known,
    text,
    value: <T>(value: T): T => walk(value) as T,
    row<R extends object>(row: R): R {
      let out: Record<string, unknown> | undefined;
      for (const [key, v] of Object.entries(row)) {
        if (OWN_ROW_FIELDS.has(key)) continue;
        const r = key === "evaluator_results" && Array.isArray(v)
          ? walkList(v as EvaluatorResult[], evaluatorResult)
          : walk(v);
        if (r !== v) (out ??= { ...(row as Record<string, unknown>) })[key] = r;
      }
      return (out as R | undefined) ?? row;
    },
  };
}

function walkList<T>(list: T[], each: (item: T) => T): T[] {
  let changed = false;
  const out = list.map((item) => {
    const r = item !== null && typeof item === "object" ? each(item) : item;
    if (r !== item) changed = true;
    return r;
  });
  return changed ? out : list;
}

/**
 * Replaces every secret value (8+ characters) and every credential form of `text` with `***`
 * (shorthand for `createRedactor(secrets).text(text)`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { redactText } from "./redact.ts";
 * assert.equal(
 *   redactText("401 for key sk-test-SECRET-123", ["sk-test-SECRET-123"]),
 *   "401 for key ***",
 * );
 * ```
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  return createRedactor(secrets).text(text);
}

/**
 * Deep copy of `value` with secrets redacted: strings through {@link redactText}, and the values
 * of secret-named keys (`authorization`, `api-key`, `x-api-key`, `api_key`, ...) replaced whole
 * (shorthand for `createRedactor(secrets).value(value)`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { redactValue } from "./redact.ts";
 * assert.deepEqual(redactValue({ headers: { authorization: "Bearer x" } }), {
 *   headers: { authorization: "***" },
 * });
 * ```
 */
export function redactValue<T>(value: T, secrets: readonly string[] = []): T {
  return createRedactor(secrets).value(value);
}

/** Whether a setting, header or variable name holds a secret (`api_key`, `OPENAI_API_KEY`, ...). */
export function isSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_KEYS.has(lower) ||
    /(?:^|[_-])(?:key|token|secret|password|passwd|credentials?|auth)$/.test(lower) ||
    /(?:^|[_-])(?:api[_-]?key|access[_-]?key|secret|password|credentials?)(?:[_-]|$)/.test(lower);
}

/** Whether a diagnostic's document path (`targets[0].headers.Authorization`) names a secret. */
export function isSecretPath(path: string): boolean {
  return path.split(/[.[\]]+/).some((segment) => segment !== "" && isSecretName(segment));
}

/** A line that is one `${{ VAR }}` reference (not a secret: it names where the secret is). */
const REFERENCE_ONLY = /^["']?\$\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\}["']?\s*(?:#.*)?$/;

/**
 * A source line safe to show in a diagnostic excerpt: the values of secret-named keys
 * (`api_key: sk-...`, `Authorization: Bearer ...`, `OPENAI_API_KEY=...`) are replaced by `***`
 * (a `${{ VAR }}` reference is kept), and with `fromColumn` (1-based) everything from that column
 * on is masked too (a diagnostic about a secret setting points at its value). Columns before the
 * masked part are unchanged, so a caret still lines up.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { redactSourceLine } from "./redact.ts";
 * assert.equal(redactSourceLine("    api_key: 12345678901"), "    api_key: ***");
 * assert.equal(redactSourceLine("  - sk-live-123", { fromColumn: 5 }), "  - ***");
 * ```
 */
export function redactSourceLine(line: string, options: { fromColumn?: number } = {}): string {
  const keep = (name: string, value: string) =>
    !isSecretName(name) || value.trim() === "" || REFERENCE_ONLY.test(value.trim());
  // Block style (`api_key: x`, `- Authorization: Bearer x`, `export API_KEY=x`): the value runs
  // to the end of the line.
  let out = line.replace(
    /^(\s*(?:export\s+)?(?:-\s+)?["']?)([A-Za-z_][A-Za-z0-9_.-]*)(["']?[ \t]*(?::[ \t]|:$|=)[ \t]*)(.*)$/,
    (whole, lead: string, name: string, sep: string, value: string) =>
      keep(name, value) ? whole : `${lead}${name}${sep}${REDACTED}`,
  );
  // Flow style (`{name: t, api_key: x, headers: {...}}`): the value ends at `,` or `}`, or is
  // one `[...]` list.
  out = out.replace(
    /([{,][ \t]*["']?)([A-Za-z_][A-Za-z0-9_.-]*)(["']?[ \t]*:[ \t]*)(\[[^\]]*\]?|[^,}]*)/g,
    (whole, lead: string, name: string, sep: string, value: string) =>
      keep(name, value) ? whole : `${lead}${name}${sep}${REDACTED}`,
  );
  // A line whose secret-named value was masked above shows no secret; otherwise (a list item of
  // `api_key:`, a value on its own line) everything from the column on is masked.
  const from = options.fromColumn;
  if (out === line && from !== undefined && from >= 1 && from <= out.length) {
    const rest = out.slice(from - 1);
    if (rest.trim() !== "" && !REFERENCE_ONLY.test(rest.trim())) {
      out = out.slice(0, from - 1) + REDACTED;
    }
  }
  return out;
}
