/**
 * `agentv view`: a local web app over the history store (runs, a run with charts and labels, a
 * case across runs, trends, comparisons), served on 127.0.0.1 with a per-process token. The
 * handler is a plain `(req) => Response` function that a test can call.
 *
 * @module
 */
export { ApiError, type ViewContext } from "./api.ts";
export { checkRequest, type GuardOptions, newToken, type Refusal, TOKEN_HEADER } from "./guard.ts";
export { renderViewPage, type ViewPage } from "./pages.ts";
export { type ServedView, serveView, type ServeViewOptions } from "./serve_view.ts";
export { createViewApp, type ViewApp, type ViewAppOptions } from "./view_app.ts";
