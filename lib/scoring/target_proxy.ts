/**
 * The target proxy for code judges (`target:` on a `code_judge`): a loopback HTTP server that
 * lets the judge script call the judge target, with a bearer token and a call budget. The
 * routes and JSON shapes follow the original tool so its SDK keeps working.
 *
 * @module
 */
import type { JudgeClient } from "./types.ts";

/** A running proxy. */
export interface TargetProxy {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Bearer token the script must send. */
  token: string;
  /** Calls made so far. */
  callCount(): number;
  /** Stops the server (waits for requests in flight). */
  close(): Promise<void>;
}

/** Options of {@link startTargetProxy}. */
export interface TargetProxyOptions {
  /** Maximum number of target calls (default 50). */
  maxCalls?: number;
  /** Aborts calls in flight when the run is interrupted. */
  signal: AbortSignal;
}

interface InvokeRequest {
  question?: unknown;
  systemPrompt?: unknown;
  target?: unknown;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json",
      "access-control-allow-origin": "*",
      "access-control-allow-headers": "authorization, content-type",
    },
  });

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Starts the proxy on `127.0.0.1` (random port). Routes: `GET /info` →
 * `{targetName, maxCalls, callCount, availableTargets}`; `POST /invoke`
 * `{question, systemPrompt?, target?}` → `{outputMessages, rawText}`; `POST /invokeBatch`
 * `{requests: [...]}` → `{responses: [...]}`. Over the budget → 429; no token → 401.
 *
 * @example
 * ```ts ignore
 * const proxy = startTargetProxy(context.judge!, { maxCalls: 5, signal: context.signal });
 * // run the script with AGENTV_TARGET_PROXY_URL=proxy.url, AGENTV_TARGET_PROXY_TOKEN=proxy.token
 * await proxy.close();
 * ```
 */
export function startTargetProxy(judge: JudgeClient, options: TargetProxyOptions): TargetProxy {
  const maxCalls = options.maxCalls ?? 50;
  const token = randomToken();
  let calls = 0;

  const invoke = async (req: InvokeRequest) => {
    const text = (await judge.complete(
      {
        system: typeof req.systemPrompt === "string" ? req.systemPrompt : "",
        user: String(req.question),
      },
      options.signal,
    )).text;
    return { outputMessages: [{ role: "assistant", content: text }], rawText: text };
  };
  const problem = (req: InvokeRequest): string | undefined => {
    if (typeof req.question !== "string" || req.question.trim() === "") {
      return "question must be a non-empty string";
    }
    if (req.target !== undefined && req.target !== judge.target) {
      return `Unknown target '${String(req.target)}'. Available: ${judge.target}`;
    }
    return undefined;
  };

  const handler = async (request: Request): Promise<Response> => {
    if (request.method === "OPTIONS") return new Response(null, { status: 204 });
    if (request.headers.get("authorization") !== `Bearer ${token}`) {
      return json({ error: "Unauthorized" }, 401);
    }
    const path = new URL(request.url).pathname;
    if (request.method === "GET" && path === "/info") {
      return json({
        targetName: judge.target,
        maxCalls,
        callCount: calls,
        availableTargets: [judge.target],
      });
    }
    if (request.method !== "POST" || (path !== "/invoke" && path !== "/invokeBatch")) {
      return json({ error: "Not found" }, 404);
    }
    let body: Record<string, unknown>;
    try {
      body = await request.json();
    } catch {
      return json({ error: "Request body must be JSON" }, 400);
    }
    if (path === "/invoke") {
      const bad = problem(body);
      if (bad !== undefined) return json({ error: bad }, 400);
      if (calls >= maxCalls) return json({ error: `Max calls exceeded (limit: ${maxCalls})` }, 429);
      calls++;
      try {
        return json(await invoke(body));
      } catch (e) {
        return json({ error: (e as Error).message }, 500);
      }
    }
    const requests = Array.isArray(body.requests) ? body.requests as InvokeRequest[] : undefined;
    if (requests === undefined) return json({ error: "requests must be an array" }, 400);
    if (calls + requests.length > maxCalls) {
      return json({ error: `Max calls exceeded (limit: ${maxCalls})` }, 429);
    }
    calls += requests.length;
    const responses = await Promise.all(requests.map(async (req) => {
      const bad = problem(req);
      if (bad !== undefined) return { outputMessages: [], rawText: `Error: ${bad}` };
      try {
        return await invoke(req);
      } catch (e) {
        return { outputMessages: [], rawText: `Error: ${(e as Error).message}` };
      }
    }));
    return json({ responses });
  };

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    token,
    callCount: () => calls,
    close: () => server.shutdown(),
  };
}
