/**
 * Shared `fetch` plumbing of the HTTP providers: a JSON POST bound to the request's signal that
 * maps every failure to a {@link TargetError} with a redacted message.
 *
 * Failure mapping (the retry decision itself is `invokeWithRetry`'s, using the target's
 * `retry_status_codes`; `retryable` here is the default for errors without a status):
 * - non-2xx → `status` set, `retryable` for 408, 429 and 5xx, `retryAfterMs` from `Retry-After`
 *   (seconds or an HTTP date) or `retry-after-ms`; the provider's error message is quoted.
 * - connection refused / reset, or a body cut off mid-read → retryable, no status; the message
 *   names the URL and the cause (`http_errors.ts`: refused, DNS, TLS, reset), and a 404 from a
 *   URL without `/v1` says that `base_url` may need it.
 * - a 2xx body that is not JSON → retryable (gateways and overloaded servers truncate bodies; a
 *   server that always does so costs at most `max_retries` extra attempts).
 * - aborted by the signal → not retryable (the retry loop knows whether its own per-attempt
 *   timeout fired and retries that itself).
 *
 * Each POST body is sent as a one-chunk stream. Deno's `fetch` silently sends a request a second
 * time when a connection it took from its keep-alive pool closes or resets before the reply, but
 * only when it can replay the body: a stream cannot be replayed, so that failure reaches the retry
 * loop, which counts it. One attempt is exactly one request on the wire, a row's `attempts` equals
 * the requests the server received, and connections are still kept alive (a connection of its
 * own per call was measured 18% slower on 2,000 loopback calls; the stream costs about 3%). The
 * body goes out with `transfer-encoding: chunked` on HTTP/1.1 (HTTP/2 has no such header).
 *
 * @module
 */
import { TargetError } from "./types.ts";
import { redactText } from "../text/redact.ts";
import { connectionProblem, notFoundHint, shownUrl } from "./http_errors.ts";

/** Options of {@link postJson}. */
export interface PostJsonOptions {
  /** Request headers (secrets allowed: they never reach messages). */
  headers: Record<string, string>;
  /** Aborts the call. */
  signal: AbortSignal;
  /** Secret values to redact from messages. */
  secrets: readonly string[];
  /** Provider label for messages, e.g. `OpenAI`. */
  label: string;
  /** `fetch` to use (default the global one). */
  fetch?: typeof fetch;
}

/**
 * A parsed JSON reply plus the request as sent. The request still holds its secrets: targets are
 * wrapped by `createTarget`, which redacts every recorded request in one place.
 */
export interface JsonReply {
  /** The parsed body. */
  body: unknown;
  /** `{url, headers, body}` as sent (redacted by the target wrapper). */
  request: { url: string; headers: Record<string, string>; body: unknown };
}

/** Statuses retried by default when a target sets no `retry_status_codes`. */
export const DEFAULT_RETRY_STATUS_CODES: readonly number[] = [408, 429, 500, 502, 503, 504];

const encoder = new TextEncoder();

/** `text` as a stream of one chunk: a body `fetch` cannot replay on its own. */
function oneChunk(text: string): ReadableStream<Uint8Array> {
  const bytes = encoder.encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/**
 * POSTs `body` as JSON to `url` and parses the JSON reply.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { postJson } from "./http.ts";
 *
 * // A local server standing in for the provider.
 * await using server = Deno.serve(
 *   { hostname: "127.0.0.1", port: 0, onListen: () => {} },
 *   async (req) => Response.json({ echoed: await req.json() }),
 * );
 * const url = `http://127.0.0.1:${server.addr.port}/v1/chat/completions`;
 * const { body } = await postJson(url, { model: "m" }, {
 *   headers: { authorization: "Bearer sk-example-secret" },
 *   signal: AbortSignal.timeout(10_000),
 *   secrets: ["sk-example-secret"],
 *   label: "OpenAI",
 * });
 * assert.deepEqual(body, { echoed: { model: "m" } });
 * ```
 */
export async function postJson(
  url: string,
  body: unknown,
  options: PostJsonOptions,
): Promise<JsonReply> {
  const { secrets, label, signal } = options;
  const doFetch = options.fetch ?? fetch;
  const request = { url, headers: options.headers, body };
  const safe = (text: string) => redactText(text, secrets);
  let response: Response;
  let text: string;
  try {
    response = await doFetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...options.headers },
      // A stream cannot be replayed, so fetch never re-sends it unseen (see the module doc).
      body: oneChunk(JSON.stringify(body)),
      signal,
      // A redirect would carry the headers (the key among them) to a URL nobody approved.
      redirect: "manual",
    });
  } catch (error) {
    throw fetchFailure(error, { signal, label, safe, url });
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw redirectRefused(response, { label, safe, url });
  }
  try {
    text = await response.text();
  } catch (error) {
    throw fetchFailure(error, { signal, label, safe, url, status: response.status });
  }
  if (!response.ok) {
    const status = response.status;
    const detail = errorMessageOf(text);
    const hint = status === 404 ? notFoundHint(url) : undefined;
    throw new TargetError(
      safe(
        `${label} API returned HTTP ${status}${detail ? `: ${detail}` : ""} (POST ${
          shownUrl(url)
        })${hint ? `; ${hint}` : ""}`,
      ),
      {
        status,
        retryable: status === 408 || status === 429 || status >= 500,
        retryAfterMs: parseRetryAfter(response.headers),
      },
    );
  }
  try {
    return { body: JSON.parse(text), request };
  } catch {
    throw new TargetError(
      safe(`${label} API returned a malformed body (not JSON): ${snippet(text)}`),
      { retryable: true, status: response.status },
    );
  }
}

/**
 * Reads the server-requested delay from `Retry-After` (seconds or an HTTP date) or
 * `retry-after-ms`, in ms; `undefined` when absent or unparsable.
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.max(0, Number(ms));
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The error for a model API that answered with a redirect: agentv does not follow it, since the
 * request's headers (its key) would go to another URL than the one the targets file names (and,
 * for a dataset's own targets file, than the host its consent covers).
 */
function redirectRefused(
  response: Response,
  context: { label: string; safe: (text: string) => string; url: string },
): TargetError {
  const location = response.headers.get("location");
  let to = "another URL";
  if (location) {
    try {
      to = shownUrl(new URL(location, context.url).href);
    } catch {
      to = "a URL that does not parse";
    }
  }
  return new TargetError(
    context.safe(
      `${context.label} API redirected POST ${
        shownUrl(context.url)
      } to ${to} (HTTP ${response.status}); agentv does not follow a model API's redirects, which would send its key there; set base_url to the URL it redirects to`,
    ),
    { status: response.status, retryable: false },
  );
}

/** GETs `url` and fails unless the status is 2xx (CLI healthchecks). */
export async function getOk(
  url: string,
  options: { signal: AbortSignal; fetch?: typeof fetch; secrets?: readonly string[] },
): Promise<void> {
  const safe = (text: string) => redactText(text, options.secrets ?? []);
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { signal: options.signal });
  } catch (error) {
    throw fetchFailure(error, { signal: options.signal, label: "Healthcheck", safe, url });
  }
  await response.body?.cancel();
  if (!response.ok) {
    throw new TargetError(safe(`GET ${url} returned HTTP ${response.status}`), {
      status: response.status,
    });
  }
}

function fetchFailure(
  error: unknown,
  context: {
    signal: AbortSignal;
    label: string;
    safe: (text: string) => string;
    url: string;
    status?: number;
  },
): TargetError {
  const { signal, label, safe, url, status } = context;
  if (signal.aborted) {
    return new TargetError(`${label} request to ${shownUrl(url)} aborted`, {
      cause: signal.reason,
    });
  }
  const problem = status === undefined
    ? connectionProblem(error, url)
    : `the response body from ${shownUrl(url)} was cut off (${
      (error instanceof Error ? error.message : String(error)).split("\n")[0]
    })`;
  return new TargetError(safe(`${label} connection failed: ${problem}`), { retryable: true });
}

/** The provider's own error message in an error body (OpenAI, Anthropic, Gemini shapes). */
function errorMessageOf(text: string): string {
  try {
    const parsed = JSON.parse(text);
    const message = parsed?.error?.message ?? parsed?.message;
    if (typeof message === "string") return snippet(message);
    if (typeof parsed?.error === "string") return snippet(parsed.error);
  } catch { /* not JSON */ }
  return snippet(text);
}

function snippet(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
