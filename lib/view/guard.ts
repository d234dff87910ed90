/**
 * Who may drive the local viewer: only the person it printed its URL to. Every request must
 *
 * - name this server in `Host` (`127.0.0.1:<port>` or `localhost:<port>`): a page on another
 *   name that resolves to 127.0.0.1 (DNS rebinding) is refused;
 * - carry the per-process token: a page in the query (`?token=…`, the URL the viewer printed),
 *   an API call in the `X-Agentv-Token` header (a header other origins cannot set without a CORS
 *   preflight, which the viewer never answers). No cookie: cookies are shared by every port of a
 *   host, so another local server could read one;
 * - have a path with no `..` (literal or percent-encoded) and no backslash;
 * - be a `GET` (or `HEAD`), or the one `POST` (a label), which must also come from the viewer's
 *   own origin (`Origin`, and `Sec-Fetch-Site` when the browser sends it) with a JSON body.
 *
 * Tokens are compared in constant time.
 *
 * @module
 */
import { timingSafeEqual } from "node:crypto";

/** The header API calls carry the token in. */
export const TOKEN_HEADER = "x-agentv-token";

/** A new per-process token: 32 random bytes, base64url. */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

function sameToken(given: string | null, token: string): boolean {
  if (given === null) return false;
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A refusal: status and a plain-text reason. */
export interface Refusal {
  /** HTTP status. */
  status: number;
  /** Why, for the person at the browser. */
  message: string;
}

/** What {@link checkRequest} knows. */
export interface GuardOptions {
  /** The per-process token. */
  token: string;
  /** The port the server listens on. */
  port: number;
}

/** The request target as sent (before URL parsing removes `..`): from the raw URL text. */
function rawPath(url: string): string {
  const afterScheme = url.replace(/^[a-z]+:\/\/[^/]*/i, "");
  return afterScheme.split(/[?#]/)[0];
}

/** Whether a path climbs (`..` as a segment, literally or percent-encoded) or holds a backslash. */
export function climbs(path: string): boolean {
  let decoded = path;
  for (let i = 0; i < 3; i++) {
    try {
      const next = decodeURIComponent(decoded);
      if (next === decoded) break;
      decoded = next;
    } catch {
      return true; // malformed escapes are not a path the viewer serves
    }
  }
  return /(^|[/\\])\.\.([/\\]|$)/.test(decoded) || decoded.includes("\\") ||
    /(^|\/)\.\.(\/|$)/.test(path);
}

/**
 * The reason to refuse a request, or null when it may be served (see the module doc). `api`
 * tells an API call (token in the header) from a page (token in the query).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkRequest } from "./guard.ts";
 * const guard = { token: "t0ken", port: 8123 };
 * const page = (url: string, host = "127.0.0.1:8123") =>
 *   checkRequest(new Request(url, { headers: { host } }), guard);
 * assert.equal(page("http://127.0.0.1:8123/?token=t0ken"), null);
 * assert.equal(page("http://127.0.0.1:8123/")?.status, 401);
 * assert.equal(page("http://evil.test:8123/?token=t0ken", "evil.test:8123")?.status, 421);
 * ```
 */
export function checkRequest(req: Request, options: GuardOptions): Refusal | null {
  const host = (req.headers.get("host") ?? "").toLowerCase();
  if (host !== `127.0.0.1:${options.port}` && host !== `localhost:${options.port}`) {
    return { status: 421, message: "This agentv view answers only at its own address" };
  }
  if (climbs(rawPath(req.url))) return { status: 400, message: "Path refused" };
  const url = new URL(req.url);
  const api = url.pathname.startsWith("/api/");
  const given = api ? req.headers.get(TOKEN_HEADER) : url.searchParams.get("token");
  if (!sameToken(given, options.token)) {
    return {
      status: 401,
      message: "Open the URL agentv view printed (it holds this session's token)",
    };
  }
  if (req.method === "GET" || req.method === "HEAD") return null;
  if (req.method !== "POST" || url.pathname !== "/api/labels") {
    return { status: 405, message: "This agentv view is read-only except for labels" };
  }
  const origin = req.headers.get("origin");
  const site = req.headers.get("sec-fetch-site");
  const own = [`http://127.0.0.1:${options.port}`, `http://localhost:${options.port}`];
  if (origin === null || !own.includes(origin) || (site !== null && site !== "same-origin")) {
    return { status: 403, message: "A label must come from this agentv view's own page" };
  }
  if (!(req.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) {
    return { status: 415, message: "A label is sent as JSON" };
  }
  return null;
}
