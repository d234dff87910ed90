/**
 * What went wrong with an HTTP call, in words that lead somewhere: the URL (without its query,
 * which may hold a key) and the cause read from the runtime's error (connection refused, a host
 * name that does not resolve, a TLS failure, a reset), each with what to check; and the hint of a
 * 404 from a URL without a version segment (an OpenAI-compatible `base_url` without `/v1`).
 *
 * @module
 */

/** `url` without its query and fragment (they may carry credentials), or as given. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url.replace(/[?#].*$/, "");
  }
}

/** The host of `url`, or `undefined`. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/**
 * The cause of a failed connection to `url` as one sentence with what to check, from the message
 * chain of the error `fetch` threw (Deno: `fetch failed`, caused by `error sending request ...:
 * tcp connect error: Connection refused`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { connectionProblem } from "./http_errors.ts";
 * const cause = new Error("client error (Connect): tcp connect error: Connection refused (os error 111)");
 * assert.equal(
 *   connectionProblem(new TypeError("fetch failed", { cause }), "http://127.0.0.1:18099/v1/chat/completions"),
 *   "connection refused to http://127.0.0.1:18099/v1/chat/completions: nothing listens there; start the server or fix the URL",
 * );
 * ```
 */
export function connectionProblem(error: unknown, url: string): string {
  const chain = messages(error).join(": ");
  const at = shownUrl(url);
  if (/connection refused|ECONNREFUSED/i.test(chain)) {
    return `connection refused to ${at}: nothing listens there; start the server or fix the URL`;
  }
  if (
    /dns error|failed to lookup|name or service not known|ENOTFOUND|nodename nor servname/i.test(
      chain,
    )
  ) {
    return `cannot resolve the host '${
      hostOf(url) ?? at
    }' of ${at} (DNS lookup failed); check the host name in the URL`;
  }
  if (/certificate|tls|ssl|handshake|InvalidContentType|corrupt message/i.test(chain)) {
    return `TLS error with ${at} (${
      lastReason(chain)
    }); check that the server speaks https there (or use http://), and that its certificate is trusted`;
  }
  if (/connection reset|ECONNRESET|broken pipe|connection closed/i.test(chain)) {
    return `connection to ${at} was reset (${
      lastReason(chain)
    }); the server closed it before replying`;
  }
  if (/timed? ?out/i.test(chain)) return `no reply from ${at} in time (${lastReason(chain)})`;
  return `cannot connect to ${at}: ${lastReason(chain)}`;
}

/**
 * The hint of an HTTP 404 from `url`: an OpenAI-compatible server answers 404 when `base_url`
 * lacks its version segment; `undefined` when the path has one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notFoundHint } from "./http_errors.ts";
 * assert.equal(
 *   notFoundHint("http://127.0.0.1:8000/chat/completions"),
 *   "the URL has no /v1: does base_url need it (e.g. http://127.0.0.1:8000/v1)?",
 * );
 * ```
 */
export function notFoundHint(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (/\/v\d[^/]*(\/|$)/.test(parsed.pathname)) return undefined;
  return `the URL has no /v1: does base_url need it (e.g. ${parsed.origin}/v1)?`;
}

/** The messages of `error` and its causes, outermost first, each cut at its first line. */
function messages(error: unknown): string[] {
  const out: string[] = [];
  let current = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    const message = current instanceof Error ? current.message : String(current);
    out.push(message.split("\n")[0]);
    current = current instanceof Error ? current.cause : undefined;
  }
  return out;
}

/** The last part of an error chain (the runtime's own words, without the URL it repeats). */
function lastReason(chain: string): string {
  const parts = chain.split(/: /);
  return parts.slice(-2).join(": ").replace(/\s*\(os error \d+\)/, "");
}
