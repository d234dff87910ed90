/**
 * The viewer as one `(req) => Response` function: the guard (`guard.ts`) first, then a page
 * (`pages.ts`) or an API answer (`api.ts`). A test calls the handler directly or serves it; the
 * server (`serve_view.ts`) binds it to 127.0.0.1.
 *
 * @module
 */
import { API_ROUTES, ApiError, type ViewContext } from "./api.ts";
import { checkRequest, newToken } from "./guard.ts";
import { renderViewPage, VIEW_PAGES, type ViewPage } from "./pages.ts";
import type { HistoryStore } from "../store/history_store.ts";
import { DEFAULT_WINDOW } from "../compare/drift.ts";

/** Options of {@link createViewApp}. */
export interface ViewAppOptions {
  /** The history store it shows. */
  store: HistoryStore;
  /** The port it is reached at (the `Host` it accepts); set later with `setPort`. */
  port?: number;
  /** The per-process token (default: a new random one). */
  token?: string;
  /** Where labels are appended (default: nowhere but the store). */
  labelsFile?: string | null;
  /** The reviewer a label names when the page sends none (default `reviewer`). */
  reviewer?: string;
  /** The clock (default `Date.now`). */
  now?: () => number;
  /** Runs in a trend's drift window (default 5). */
  last?: number;
  /** Called with an unexpected error (a bug) before the 500 answer (default: ignored). */
  onError?: (error: unknown) => void;
}

/** The viewer app. */
export interface ViewApp {
  /** The per-process token. */
  readonly token: string;
  /** Sets the port the app is reached at (once the server is bound). */
  setPort(port: number): void;
  /** Answers one request. */
  handler(req: Request): Promise<Response>;
}

/** Headers on every answer: nothing cached, sniffed, framed or referred. */
const SECURITY_HEADERS: Record<string, string> = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "content-security-policy": "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

function answer(body: string, status: number, type: string): Response {
  return new Response(body, {
    status,
    headers: { ...SECURITY_HEADERS, "content-type": `${type}; charset=utf-8` },
  });
}

function json(value: unknown, status = 200): Response {
  return answer(JSON.stringify(value), status, "application/json");
}

/**
 * Creates the viewer app over a store.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openHistoryStore } from "../store/open_store.ts";
 * import { createViewApp } from "./view_app.ts";
 * const root = await Deno.makeTempDir();
 * const store = await openHistoryStore({ root });
 * const app = createViewApp({ store, port: 8123, token: "t" });
 * const res = await app.handler(new Request("http://127.0.0.1:8123/api/runs", {
 *   headers: { host: "127.0.0.1:8123", "x-agentv-token": "t" },
 * }));
 * assert.deepEqual(await res.json(), { runs: [] });
 * await store.close();
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export function createViewApp(options: ViewAppOptions): ViewApp {
  const token = options.token ?? newToken();
  let port = options.port ?? 0;
  const ctx: ViewContext = {
    store: options.store,
    labelsFile: options.labelsFile ?? null,
    reviewer: options.reviewer ?? "reviewer",
    now: options.now ?? Date.now,
    last: options.last ?? DEFAULT_WINDOW,
  };
  const pages = new Map<ViewPage, string>();
  const page = (kind: ViewPage) => {
    let html = pages.get(kind);
    if (html === undefined) {
      pages.set(kind, html = renderViewPage(kind, { reviewer: ctx.reviewer }));
    }
    return html;
  };
  return {
    token,
    setPort(value) {
      port = value;
    },
    async handler(req) {
      const refusal = checkRequest(req, { token, port });
      if (refusal !== null) return answer(refusal.message + "\n", refusal.status, "text/plain");
      const path = new URL(req.url).pathname;
      const kind = Object.hasOwn(VIEW_PAGES, path) ? VIEW_PAGES[path] : undefined;
      if (kind !== undefined) return answer(page(kind), 200, "text/html");
      const route = Object.hasOwn(API_ROUTES, path) ? API_ROUTES[path] : undefined;
      if (route === undefined) return answer("Not found\n", 404, "text/plain");
      if ((path === "/api/labels") !== (req.method === "POST")) {
        return answer("Method not allowed\n", 405, "text/plain");
      }
      try {
        return json(await route(ctx, new URL(req.url), req));
      } catch (error) {
        if (error instanceof ApiError) return json({ error: error.message }, error.status);
        options.onError?.(error);
        return json({ error: "The viewer failed to answer; see its terminal" }, 500);
      }
    },
  };
}
