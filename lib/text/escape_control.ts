/**
 * Terminal-safe text: control characters from datasets (ids, messages, paths) are shown as
 * visible escapes so they can neither drive the terminal (`\x1b[2J`), rewrite a line (`\r`) nor
 * forge lines in a CI log (`\n`).
 *
 * @module
 */

// C0 and C1 controls, DEL, line/paragraph separators and bidirectional overrides/isolates.
// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Replaces every control character in `text` with a visible escape: `\n`, `\r`, `\t`, else
 * `\xNN` (or `\uNNNN` above U+00FF). Other text, including non-ASCII letters and emoji, is
 * unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(escapeControl("id\x1b[2J\r\n"), "id\\x1b[2J\\r\\n");
 * assert.equal(escapeControl("café ✓"), "café ✓");
 * ```
 */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (c) => {
    const named = NAMED[c];
    if (named !== undefined) return named;
    const code = c.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
