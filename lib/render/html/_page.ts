/**
 * The shell every HTML page of agentv shares: one self-contained document with inline CSS, inline
 * JS and the data embedded as JSON in a `<script type="application/json">` block. No value is ever
 * written as markup: the page script reads the JSON and builds the DOM with `textContent`. A
 * Content-Security-Policy allows no network at all and only the page's own script (by hash), so
 * even markup that slipped in could not load or run anything.
 *
 * @module
 */
import { createHash } from "node:crypto";

/** What {@link renderPage} puts together. */
export interface PageParts {
  /** The document title (escaped here). */
  title: string;
  /** The stylesheet (static text of agentv, never data). */
  css: string;
  /** The page script (static text of agentv, never data). */
  script: string;
  /** The data the script reads; any JSON value (strings in it may hold anything). */
  data: unknown;
  /**
   * Whether the script may `fetch` from the page's own origin (`connect-src 'self'`; the local
   * viewer's pages). Default false: a report file allows no network at all.
   */
  connectSelf?: boolean;
}

/** The id of the JSON data block the page scripts read. */
export const DATA_ELEMENT_ID = "agentv-data";

/**
 * Escapes text for an HTML text node or a double-quoted attribute.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeHtml } from "./_page.ts";
 * assert.equal(escapeHtml(`<a href="x">&'`), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c);
}

const HTML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * JSON text that is safe inside a `<script type="application/json">` element: `<`, `>` and `&`
 * (so no `</script>` or `<!--` can end or change the block) and U+2028/U+2029 are written as
 * `\uXXXX` escapes, which `JSON.parse` reads back to the same value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonForScript } from "./_page.ts";
 * const text = jsonForScript({ id: "</script><img src=x>" });
 * assert.equal(text.includes("<"), false);
 * assert.deepEqual(JSON.parse(text), { id: "</script><img src=x>" });
 * ```
 */
export function jsonForScript(value: unknown): string {
  return (JSON.stringify(value) ?? "null").replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * Renders the whole document. The CSP pins the script by its SHA-256, forbids every fetch,
 * frame, form and base URL, and allows inline styles (the stylesheet) and `data:` images only.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderPage } from "./_page.ts";
 * const html = renderPage({ title: "<t>", css: "", script: "", data: { a: "</script>" } });
 * assert.match(html, /<title>&lt;t&gt;<\/title>/);
 * assert.equal(html.split("</script>").length, 3); // the data block and the page script
 * ```
 */
export function renderPage(parts: PageParts): string {
  if (/<\/script/i.test(parts.script) || /<\/style/i.test(parts.css)) {
    throw new Error("page script or stylesheet must not contain a closing tag");
  }
  const hash = createHash("sha256").update(parts.script, "utf8").digest("base64");
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${hash}'`,
    "style-src 'unsafe-inline'",
    "img-src data:",
    ...(parts.connectSelf ? ["connect-src 'self'"] : []),
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="generator" content="agentv">',
    `<title>${escapeHtml(parts.title)}</title>`,
    `<style>${parts.css}</style>`,
    "</head>",
    "<body>",
    '<noscript><p class="noscript">This report needs JavaScript to show its data.</p></noscript>',
    '<div id="app"></div>',
    `<script type="application/json" id="${DATA_ELEMENT_ID}">${jsonForScript(parts.data)}</script>`,
    `<script>${parts.script}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
