/**
 * The viewer's pages: one self-contained document per page kind (runs, a run, a case's history,
 * trends, compare) built on the HTML report's page code. A document holds no data but the page's
 * kind and the default reviewer; its script fetches the rest from the API with the token. Its CSP
 * allows its own script only and `fetch` to its own origin only.
 *
 * @module
 */
import { renderHtmlAppPage } from "../render/html/html_page.ts";
import { CLIENT_CASE_HISTORY } from "./_client_case.ts";
import { CLIENT_RUN } from "./_client_run.ts";
import { CLIENT_VIEW } from "./_client_view.ts";
import { VIEW_CSS } from "./_styles.ts";

/** A page of the viewer. */
export type ViewPage = "runs" | "run" | "case" | "trends" | "compare";

/** The viewer's pages by path. */
export const VIEW_PAGES: Readonly<Record<string, ViewPage>> = {
  "/": "runs",
  "/run": "run",
  "/case": "case",
  "/trend": "trends",
  "/compare": "compare",
};

const TITLES: Record<ViewPage, string> = {
  runs: "agentv view: runs",
  run: "agentv view: run",
  case: "agentv view: case history",
  trends: "agentv view: trends",
  compare: "agentv view: compare",
};

// The charts come with the report's page code (`html_page.ts`).
const SCRIPT = [CLIENT_VIEW, CLIENT_RUN, CLIENT_CASE_HISTORY].join("\n");

/**
 * The document of a page (`reviewer` is the name a label form starts with).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderViewPage } from "./pages.ts";
 * const html = renderViewPage("runs", { reviewer: "</script>" });
 * assert.equal(html.includes("</script><"), false);
 * ```
 */
export function renderViewPage(page: ViewPage, options: { reviewer: string }): string {
  return renderHtmlAppPage({
    kind: page === "compare" ? "compare" : "report",
    title: TITLES[page],
    data: { page, reviewer: options.reviewer },
    script: SCRIPT,
    start: "startView",
    css: VIEW_CSS,
  });
}
