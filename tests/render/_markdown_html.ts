/**
 * Markdown as a reader sees it: rendered to HTML by a CommonMark parser with GitHub's extensions
 * that matter here (tables, strike-through, raw HTML allowed, bare URLs linked), so a test can
 * check what a hostile answer turns into, not only the Markdown text.
 *
 * @module
 */
import assert from "node:assert/strict";
import MarkdownIt from "markdown-it";

const renderer = new MarkdownIt({ html: true, linkify: true });

/** The HTML of `markdown`. */
export function renderMarkdownHtml(markdown: string): string {
  return renderer.render(markdown);
}

/** The text a reader sees in `html`: tags dropped, entities and zero-width spaces decoded away. */
export function visibleText(html: string): string {
  return html.replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&").replace(/\u200b/g, "");
}

/**
 * A hostile answer: a tracking image, a `javascript:` link, mentions, backtick runs that would end
 * a code span, raw HTML, bare and bracketed URLs, and issue references.
 */
export const HOSTILE = [
  "![x](https://evil.test/track.png)",
  "[click](javascript:alert(1))",
  "@everyone @octo-org/admins",
  "``` `x` ``",
  '<img src="https://evil.test/i.png"><b>bold</b>',
  "https://evil.test/a www.evil.test <https://evil.test/b>",
  "*em* _em_ ~~del~~ $x$",
  "fixes #123 and GH-7",
].join(" ");

/**
 * Checks that `markdown` renders `hostile` as plain text: every table cell or paragraph that
 * shows it holds no element at all (no image, link, code span, emphasis or HTML from it), the
 * page has no image or link anywhere, no mention, issue reference or bare URL is left in the
 * Markdown, and the reader sees every character of `hostile`.
 */
export function assertInert(markdown: string, hostile = HOSTILE): void {
  const html = renderMarkdownHtml(markdown);
  assert.doesNotMatch(html, /<img|<a /, html);
  const blocks = [...html.matchAll(/<(td|p|blockquote)>([\s\S]*?)<\/\1>/g)].map((m) => m[2]);
  const showing = blocks.filter((inner) => visibleText(inner).includes(hostile));
  assert.ok(showing.length > 0, `the text is not shown as written:\n${html}`);
  for (const inner of showing) assert.doesNotMatch(inner, /<[a-z]/i, inner);
  assert.doesNotMatch(markdown, /@[\w-]/, "a mention is left");
  assert.doesNotMatch(markdown, /(?<!&)#\d|GH-\d/i, "an issue reference is left");
  assert.doesNotMatch(markdown, /:\/\/|www\./i, "a bare URL is left");
}
