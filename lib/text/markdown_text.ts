/**
 * Text from a model, a judge or a dataset made inert for GitHub-flavoured Markdown (a job
 * summary, a pull-request comment): it shows as the characters it holds and does nothing else.
 * An answer such as `![x](https://evil/track.png)` would otherwise load a tracking image when
 * the summary is opened, `[click](javascript:…)` would be a link, `@org/team` would notify
 * people, `#123` would link an issue, and a run of backticks would end a code span early.
 *
 * @module
 */

/** U+200B (zero width space) as an entity: breaks a mention or link without showing. */
const BREAK = "&#8203;";

/**
 * Neutralises text for Markdown (inline, e.g. a table cell; line breaks are the caller's):
 *
 * - `&`, `<` and `>` become entities: raw HTML (`<img src=…>`) and autolinks in angle brackets
 *   (`<https://…>`) are shown, not rendered;
 * - `\`, `` ` ``, `*`, `_`, `[`, `]`, `|`, `~` and `$` are backslash-escaped: no link or image
 *   (`[text](url)`, `![alt](url)`), code span, emphasis, strike-through, table cell or math can
 *   open;
 * - a zero-width space (as `&#8203;`) goes into `://` and `www.` (bare URLs are not turned into
 *   links), after an `@` before a name (no `@user` or `@org/team` mention, no e-mail link) and
 *   after a `#` or `GH-` before a digit (no issue reference).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { neutralizeMarkdown } from "./markdown_text.ts";
 * assert.equal(
 *   neutralizeMarkdown("![x](https://e.test/t.png) @all #1"),
 *   "!\\[x\\](https:&#8203;//e.test/t.png) @&#8203;all #&#8203;1",
 * );
 * ```
 */
export function neutralizeMarkdown(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/[\\`*_[\]|~$]/g, "\\$&")
    // Issue references first: the breaks put in after this hold a `#` before digits themselves.
    .replace(/(#|\bGH-)(?=\d)/gi, `$1${BREAK}`)
    .replace(/:\/\//g, `:${BREAK}//`)
    .replace(/(www)\./gi, `$1${BREAK}.`)
    .replace(/@(?=[\p{L}\p{N}_-])/gu, `@${BREAK}`);
}
