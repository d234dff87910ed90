/**
 * Text helpers at the bottom of the pipeline: secret redaction, terminal- and Markdown-safe text,
 * globs, linear-time regular expressions and unified diffs.
 *
 * @module
 */
export { createRedactor, type Redactor, redactText, redactValue } from "./redact.ts";
export { escapeControl } from "./escape_control.ts";
export { stripAnsi } from "./strip_ansi.ts";
export { neutralizeMarkdown } from "./markdown_text.ts";
export { globProblem, loadGlobs, matchGlob } from "./glob.ts";
export {
  compileLinearRegex,
  type LinearMatch,
  type LinearRegex,
  linearRegexProblem,
} from "./linear_regex.ts";
export { unifiedDiff } from "./unified_diff.ts";
