/**
 * Local model-API servers for tests: each speaks one provider's real wire format on
 * `127.0.0.1`, port 0, and follows a scriptable queue of behaviours.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { startProviderServer } from "./provider_servers.ts";
 *
 * await using server = startProviderServer("openai", {
 *   steps: [{ type: "status", status: 429, retryAfter: "1" }, "hello"],
 * });
 * // server.url: the value for the target's `base_url` (`endpoint` for azure)
 * const call = () =>
 *   fetch(`${server.url}/chat/completions`, {
 *     method: "POST",
 *     headers: { authorization: "Bearer sk-test" },
 *     body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
 *   });
 * const first = await call();
 * assert.equal(first.status, 429);
 * await first.body?.cancel();
 * const reply = await (await call()).json();
 * assert.equal(reply.choices[0].message.content, "hello");
 * assert.equal(server.requests[1].headers.authorization, "Bearer sk-test");
 * assert.deepEqual(server.requests[1].body.messages, [{ role: "user", content: "hi" }]);
 * ```
 *
 * Kinds and URLs (`server.url` is what a target's `base_url`/`endpoint` should be set to):
 * - `openai`: `POST {url}/chat/completions`, `url` = `http://127.0.0.1:PORT/v1`; replies
 *   `{choices: [{message: {role, content, tool_calls?}}], usage: {prompt_tokens, completion_tokens,
 *   total_tokens, prompt_tokens_details?: {cached_tokens}}}`.
 * - `azure`: `POST {url}/openai/deployments/<deployment>/chat/completions?api-version=...`, `url` =
 *   `http://127.0.0.1:PORT`; same body as openai.
 * - `anthropic`: `POST {url}/v1/messages`; replies `{content: [{type: "text", text}, {type:
 *   "tool_use", id, name, input}], usage: {input_tokens, output_tokens,
 *   cache_read_input_tokens?}}`.
 * - `gemini`: `POST {url}/v1beta/models/<model>:generateContent`; replies `{candidates: [{content:
 *   {role: "model", parts: [{text}, {functionCall}]}}], usageMetadata: {promptTokenCount,
 *   candidatesTokenCount, cachedContentTokenCount?}}`.
 * The server does not check paths or auth: it records them so tests can assert on them.
 *
 * Steps (taken from the queue one per request; when it is empty `fallback` is used, default
 * `{type: "reply", text: "ok"}`; a plain string is shorthand for a reply with that text):
 * - `{type: "reply", text?, toolCalls?, usage?, latencyMs?}`: a successful reply. `text` may be a
 *   function of the recorded request. `usage` defaults to word counts of the request's message
 *   text (input) and of the reply text (output).
 * - `{type: "status", status, retryAfter?, message?, latencyMs?}`: an error status with the
 *   provider's error body and an optional `Retry-After` header (seconds or an HTTP date).
 * - `{type: "reset"}`: sends `200` headers announcing 100 bytes, then ends the connection after
 *   12 (the client's body read fails like a dropped connection).
 * - `{type: "hang"}`: never answers; the handler ends on `close()`.
 * - `{type: "malformed", body?}`: `200` with a body that is not JSON (default `{"choices": [`).
 * - `{type: "raw", status?, body, headers?}`: any JSON (or string) body, verbatim.
 * `options.latencyMs` delays every reply (a step's own `latencyMs` wins). `options.barrier: n`
 * holds every reply until `n` requests have arrived: requests sent one after another never get
 * an answer (the caller's timeout fires), so a test proves concurrency without a clock.
 *
 * Every request is recorded in `server.requests` (`method`, `path`, `query`, `headers` with
 * lower-case names, `body` parsed as JSON or the raw text). `close()` (or `await using`) ends
 * hanging handlers, shuts the server down and waits for it.
 *
 * @module
 */

/** The wire formats the helper speaks. */
export type ProviderKind = "openai" | "azure" | "anthropic" | "gemini";

/** A request as the server received it. */
export interface RecordedRequest {
  /** HTTP method. */
  method: string;
  /** URL path (no query). */
  path: string;
  /** Query parameters. */
  query: Record<string, string>;
  /** Headers, lower-case names. */
  headers: Record<string, string>;
  /** The JSON body (or the raw text when it is not JSON). */
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** A tool call the fake model makes. */
export interface FakeToolCall {
  /** Tool (function) name. */
  name: string;
  /** Arguments. */
  input: Record<string, unknown>;
  /** Call id (default `call_<n>`). */
  id?: string;
}

/** One scripted behaviour. */
export type Step =
  | string
  | {
    type: "reply";
    text?: string | ((request: RecordedRequest) => string);
    toolCalls?: FakeToolCall[];
    usage?: { input: number; output: number; cached?: number };
    latencyMs?: number;
  }
  | { type: "status"; status: number; retryAfter?: string; message?: string; latencyMs?: number }
  | { type: "reset"; latencyMs?: number }
  | { type: "hang" }
  | { type: "malformed"; body?: string; latencyMs?: number }
  | {
    type: "raw";
    status?: number;
    body: unknown;
    headers?: Record<string, string>;
    latencyMs?: number;
  };

/** Options of {@link startProviderServer}. */
export interface ProviderServerOptions {
  /** Behaviours, one per request in order. */
  steps?: Step[];
  /** Behaviour once `steps` is exhausted (default: reply `ok`). */
  fallback?: Step;
  /** Delay before every reply, in ms (default 0). */
  latencyMs?: number;
  /** Hold every reply until this many requests have arrived (default: no barrier). */
  barrier?: number;
}

/** A running fake provider. */
export interface ProviderServer {
  /** The base URL to configure (`base_url`, or `endpoint` for azure). */
  url: string;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** Appends behaviours to the queue. */
  enqueue(...steps: Step[]): void;
  /** Resolves once `count` requests have arrived (tests wait on this, never on a timer). */
  waitForRequests(count: number): Promise<void>;
  /** Stops the server (ends hanging handlers first). */
  close(): Promise<void>;
  /** Same as `close()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts a fake provider server for `kind` on 127.0.0.1 with an OS-assigned port. */
export function startProviderServer(
  kind: ProviderKind,
  options: ProviderServerOptions = {},
): ProviderServer {
  const queue: Step[] = [...(options.steps ?? [])];
  const requests: RecordedRequest[] = [];
  const closing = new AbortController();
  let counter = 0;
  const arrived = Promise.withResolvers<void>();
  const waiters: { count: number; resolve: () => void }[] = [];
  const notify = () => {
    for (const waiter of [...waiters]) {
      if (requests.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };

  const handler = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const text = await req.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch { /* keep the raw text */ }
    const headers: Record<string, string> = {};
    req.headers.forEach((value, name) => headers[name] = value);
    const recorded: RecordedRequest = {
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body,
    };
    requests.push(recorded);
    notify();
    if (options.barrier !== undefined) {
      if (requests.length >= options.barrier) arrived.resolve();
      await Promise.race([arrived.promise, waitForAbort(closing.signal)]);
    }
    const step = normalise(queue.shift() ?? options.fallback ?? "ok");
    if (step.type === "hang") {
      await waitForAbort(closing.signal);
      return new Response(null, { status: 499 });
    }
    const latency = step.latencyMs ?? options.latencyMs ?? 0;
    if (latency > 0) {
      await delay(latency, closing.signal);
    }
    switch (step.type) {
      case "reply": {
        const replyText = typeof step.text === "function" ? step.text(recorded) : step.text ?? "ok";
        const usage = step.usage ?? {
          input: countWords(messageText(body)),
          output: countWords(replyText),
        };
        const toolCalls = (step.toolCalls ?? []).map((c) => ({
          ...c,
          id: c.id ?? `call_${++counter}`,
        }));
        return Response.json(replyBody(kind, replyText, toolCalls, usage));
      }
      case "status": {
        const h = new Headers({ "content-type": "application/json" });
        if (step.retryAfter !== undefined) h.set("retry-after", step.retryAfter);
        return new Response(JSON.stringify(errorBody(kind, step.status, step.message)), {
          status: step.status,
          headers: h,
        });
      }
      case "reset": {
        // promise 100 bytes, send 12, end: the client sees the connection drop mid-body
        const stream = new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"id": "x", '));
            controller.close();
          },
        });
        return new Response(stream, {
          headers: { "content-type": "application/json", "content-length": "100" },
        });
      }
      case "malformed":
        return new Response(step.body ?? '{"choices": [', {
          headers: { "content-type": "application/json" },
        });
      case "raw":
        return new Response(typeof step.body === "string" ? step.body : JSON.stringify(step.body), {
          status: step.status ?? 200,
          headers: { "content-type": "application/json", ...step.headers },
        });
    }
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  const origin = `http://127.0.0.1:${server.addr.port}`;
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      closing.abort();
      await server.shutdown();
      await server.finished;
    })();
    return closed;
  };
  return {
    url: kind === "openai" ? `${origin}/v1` : origin,
    origin,
    requests,
    enqueue: (...steps) => queue.push(...steps),
    waitForRequests: (count) =>
      new Promise<void>((resolve) => {
        waiters.push({ count, resolve });
        notify();
      }),
    close,
    [Symbol.asyncDispose]: close,
  };
}

type ObjectStep = Exclude<Step, string>;

function normalise(step: Step): ObjectStep {
  return typeof step === "string" ? { type: "reply", text: step } : step;
}

function replyBody(
  kind: ProviderKind,
  text: string,
  toolCalls: Required<FakeToolCall>[],
  usage: { input: number; output: number; cached?: number },
): unknown {
  switch (kind) {
    case "openai":
    case "azure":
      return {
        id: "chatcmpl-fake",
        object: "chat.completion",
        created: 1700000000,
        model: "fake-model",
        choices: [{
          index: 0,
          message: {
            role: "assistant",
            content: text,
            ...(toolCalls.length > 0
              ? {
                tool_calls: toolCalls.map((c) => ({
                  id: c.id,
                  type: "function",
                  function: { name: c.name, arguments: JSON.stringify(c.input) },
                })),
              }
              : {}),
          },
          finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
        }],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
          ...(usage.cached !== undefined
            ? { prompt_tokens_details: { cached_tokens: usage.cached } }
            : {}),
        },
      };
    case "anthropic":
      return {
        id: "msg_fake",
        type: "message",
        role: "assistant",
        model: "fake-model",
        content: [
          { type: "text", text },
          ...toolCalls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.input })),
        ],
        stop_reason: toolCalls.length > 0 ? "tool_use" : "end_turn",
        usage: {
          input_tokens: usage.input,
          output_tokens: usage.output,
          ...(usage.cached !== undefined ? { cache_read_input_tokens: usage.cached } : {}),
        },
      };
    case "gemini":
      return {
        candidates: [{
          content: {
            role: "model",
            parts: [
              { text },
              ...toolCalls.map((c) => ({ functionCall: { name: c.name, args: c.input } })),
            ],
          },
          finishReason: "STOP",
          index: 0,
        }],
        usageMetadata: {
          promptTokenCount: usage.input,
          candidatesTokenCount: usage.output,
          totalTokenCount: usage.input + usage.output,
          ...(usage.cached !== undefined ? { cachedContentTokenCount: usage.cached } : {}),
        },
        modelVersion: "fake-model",
      };
  }
}

function errorBody(kind: ProviderKind, status: number, message?: string): unknown {
  const text = message ?? `fake ${status} error`;
  switch (kind) {
    case "openai":
    case "azure":
      return { error: { message: text, type: "fake_error", code: String(status) } };
    case "anthropic":
      return { type: "error", error: { type: "fake_error", message: text } };
    case "gemini":
      return { error: { code: status, message: text, status: "FAKE_ERROR" } };
  }
}

/** All message text of a request body in any of the four formats. */
function messageText(body: unknown): string {
  const parts: string[] = [];
  const walk = (value: unknown, key?: string) => {
    if (typeof value === "string") {
      if (key === "content" || key === "text" || key === "system") parts.push(value);
    } else if (Array.isArray(value)) {
      for (const v of value) walk(v, key);
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) walk(v, k);
    }
  };
  walk(body);
  return parts.join(" ");
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => w !== "").length;
}

function waitForAbort(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener("abort", () => resolve(), { once: true })
  );
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
