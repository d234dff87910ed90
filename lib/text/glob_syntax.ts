/**
 * Whether a string is a glob, without loading the glob matcher (and its regex engine): discovery
 * of plain files and folders, the common case, never needs it.
 *
 * @module
 */

/**
 * Whether a string contains glob syntax (`*`, `?`, `[`, `{`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(hasGlobSyntax("evals/*.yaml"), true);
 * assert.equal(hasGlobSyntax("evals/a.yaml"), false);
 * ```
 */
export function hasGlobSyntax(text: string): boolean {
  return /[*?[{]/.test(text);
}
