/**
 * A scriptable loopback server that speaks the Gemini API (`generativelanguage`, `v1beta`) the
 * way Gemini CLI uses it: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, answered
 * with Server-Sent Events of `GenerateContentResponse` chunks (text parts split in two, then one
 * chunk with the `functionCall` parts, the `finishReason` and `usageMetadata`).
 * `:generateContent` (no stream) gets the same turn as one body; `:countTokens` a count. Point
 * the real `gemini` at it with `GOOGLE_GEMINI_BASE_URL=server.url`.
 *
 * The script is a list of turns. The turn a request gets is the number of `model` contents in its
 * conversation, so the agent's own loop walks the script (turn 0 answers the prompt, turn 1 answers
 * the first function responses, ...) and parallel agents each walk it independently; `turns` may
 * also be a function of the prompt. A turn either streams text and function calls (the agent runs
 * the tools for real and sends `functionResponse` parts back), answers with an HTTP error
 * (`error`), or hangs until the server closes (`hang`). Past the end of the script the server
 * answers `finalText`. Requests that offer no tools (side requests, e.g. the model router's JSON
 * question) get a short text reply and are recorded in `sideRequests`. Other paths get a 404
 * (recorded in `otherRequests`).
 *
 * ```ts ignore
 * await using server = startGeminiSseServer({ turns: [
 *   { functionCalls: [{ name: "run_shell_command", args: { command: "echo hi" } }] },
 *   { text: (req) => `It printed ${JSON.stringify(functionResponses(req)[0].response)}` },
 * ] });
 * ```
 *
 * @module
 */
import { Arrivals } from "./arrivals.ts";

/** A function call the server asks the agent to make. */
export interface ScriptedFunctionCall {
  /** Function name (Gemini CLI 0.61 offers `run_shell_command`, `write_file`, `replace`, ...). */
  name: string;
  /** Arguments. */
  args: Record<string, unknown>;
  /** Call id (default `call_<turn>_<index>`). */
  id?: string;
}

/** Token usage reported for one response (`usageMetadata` names). */
export interface ScriptedGeminiUsage {
  /** Prompt tokens. */
  promptTokenCount: number;
  /** Response tokens. */
  candidatesTokenCount: number;
  /** Cached prompt tokens (part of `promptTokenCount`). */
  cachedContentTokenCount?: number;
}

/** Default usage of a turn without `usage`. */
export const DEFAULT_GEMINI_USAGE: ScriptedGeminiUsage = {
  promptTokenCount: 100,
  candidatesTokenCount: 20,
};

/** One turn of the script. */
export type ScriptedGeminiTurn =
  | {
    /** Model text (before the function calls, if any); may depend on the request. */
    text?: string | ((request: GeminiRequest) => string);
    /** Function calls, in order. */
    functionCalls?: ScriptedFunctionCall[];
    /** Usage of this response (default {@link DEFAULT_GEMINI_USAGE}). */
    usage?: ScriptedGeminiUsage;
  }
  | {
    /** Answer with this HTTP error (Google's error body) instead of a stream. */
    error: { status: number; message: string; reason?: string };
  }
  | {
    /** Start the stream and never finish it (until `close()`). */
    hang: true;
  };

/** Options of {@link startGeminiSseServer}. */
export interface GeminiSseServerOptions {
  /** The script, or a function of the prompt that returns it. */
  turns: ScriptedGeminiTurn[] | ((prompt: string) => ScriptedGeminiTurn[]);
  /** Text of every turn past the script (default `Done.`). */
  finalText?: string;
}

/** One content of a request. */
export interface GeminiContent {
  /** `user` or `model`. */
  role: string;
  /** Parts (`text`, `functionCall`, `functionResponse`, ...). */
  parts: Record<string, unknown>[];
}

/** A `generateContent` request as received (the JSON body, plus what the URL said). */
export interface GeminiRequest {
  /** The model named in the path. */
  model: string;
  /** `streamGenerateContent` or `generateContent`. */
  method: string;
  /** The conversation. */
  contents: GeminiContent[];
  /** Tools the agent offers. */
  tools?: { functionDeclarations?: { name: string }[] }[];
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  /** Other keys. */
  [key: string]: unknown;
}

/** A request to any other path. */
export interface OtherGeminiRequest {
  /** HTTP method. */
  method: string;
  /** URL path. */
  path: string;
}

/** A running server. */
export interface GeminiSseServer extends AsyncDisposable {
  /** The base URL (`http://127.0.0.1:PORT`), the value for `GOOGLE_GEMINI_BASE_URL`. */
  url: string;
  /** Every scripted request (one that offers tools), in arrival order. */
  requests: GeminiRequest[];
  /** `generateContent` requests without tools (answered with a short text). */
  sideRequests: GeminiRequest[];
  /** Requests to other paths (answered 404). */
  otherRequests: OtherGeminiRequest[];
  /** Resolves when `n` scripted requests have arrived. */
  requestCount(n: number): Promise<void>;
  /** Ends hanging streams and stops the server. */
  close(): Promise<void>;
}

/** A function response the agent sent back. */
export interface ReceivedFunctionResponse {
  /** The call id, when the agent sent one. */
  id?: string;
  /** The function's name. */
  name: string;
  /** The response object (Gemini CLI: `{output}` or `{error}`). */
  response: Record<string, unknown>;
}

/** The `functionResponse` parts of the last content of a request. */
export function functionResponses(request: GeminiRequest): ReceivedFunctionResponse[] {
  const last = request.contents.at(-1);
  const out: ReceivedFunctionResponse[] = [];
  for (const part of last?.parts ?? []) {
    const fr = part.functionResponse as Record<string, unknown> | undefined;
    if (fr === undefined) continue;
    out.push({
      ...(typeof fr.id === "string" ? { id: fr.id } : {}),
      name: String(fr.name),
      response: (fr.response ?? {}) as Record<string, unknown>,
    });
  }
  return out;
}

/** The prompt of a request: the text of the last user content that has text. */
export function geminiPromptOf(request: Pick<GeminiRequest, "contents">): string {
  let prompt = "";
  for (const content of request.contents) {
    if (content.role !== "user") continue;
    const text = content.parts.map((p) => typeof p.text === "string" ? p.text : "").join("");
    if (text.trim() !== "" && !text.trimStart().startsWith("<session_context>")) prompt = text;
  }
  return prompt;
}

/** Starts the server on 127.0.0.1, port 0. */
export function startGeminiSseServer(options: GeminiSseServerOptions): GeminiSseServer {
  const arrivals = new Arrivals<GeminiRequest>();
  const requests = arrivals.requests;
  const sideRequests: GeminiRequest[] = [];
  const otherRequests: OtherGeminiRequest[] = [];
  const closing = new AbortController();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const match = /\/models\/([^/:]+):(\w+)$/.exec(url.pathname);
    if (req.method !== "POST" || match === null) {
      await req.body?.cancel();
      otherRequests.push({ method: req.method, path: url.pathname });
      return googleError(404, "not found", "NOT_FOUND");
    }
    const [, model, method] = match;
    const body = await req.json() as GeminiRequest;
    if (method === "countTokens") {
      return Response.json({ totalTokens: JSON.stringify(body).length >> 2 });
    }
    body.model = model!;
    body.method = method!;
    body.headers = Object.fromEntries(req.headers);
    const stream = method === "streamGenerateContent";
    const offersTools = (body.tools ?? []).some((t) => (t.functionDeclarations ?? []).length > 0);
    if (!offersTools) {
      sideRequests.push(body);
      return reply(body, { text: sideAnswer(body) }, 0, stream);
    }
    arrivals.push(body);
    const script = typeof options.turns === "function"
      ? options.turns(geminiPromptOf(body))
      : options.turns;
    const index = body.contents.filter((c) => c.role === "model").length;
    const turn = script[index] ?? { text: options.finalText ?? "Done." };
    if ("error" in turn) {
      return googleError(turn.error.status, turn.error.message, turn.error.reason);
    }
    if ("hang" in turn) return hang(closing.signal);
    return reply(body, turn, index, stream);
  });
  const close = async () => {
    closing.abort();
    await server.shutdown();
  };
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    sideRequests,
    otherRequests,
    requestCount: (n) => arrivals.count(n),
    close,
    [Symbol.asyncDispose]: close,
  };
}

type ReplyTurn = Extract<ScriptedGeminiTurn, { functionCalls?: ScriptedFunctionCall[] }>;

/** Google's error body for `status`. */
function googleError(status: number, message: string, reason?: string): Response {
  const names: Record<number, string> = {
    400: "INVALID_ARGUMENT",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
  };
  return Response.json({
    error: { code: status, message, status: reason ?? names[status] ?? "UNKNOWN" },
  }, { status });
}

/** A side request asking for JSON (a `responseSchema`/JSON mime type) gets `{}`, else `ok`. */
function sideAnswer(body: GeminiRequest): string {
  const config = body.generationConfig as Record<string, unknown> | undefined;
  return config?.responseMimeType === "application/json" ? "{}" : "ok";
}

function usageOf(usage: ScriptedGeminiUsage) {
  return {
    promptTokenCount: usage.promptTokenCount,
    candidatesTokenCount: usage.candidatesTokenCount,
    totalTokenCount: usage.promptTokenCount + usage.candidatesTokenCount,
    ...(usage.cachedContentTokenCount !== undefined
      ? { cachedContentTokenCount: usage.cachedContentTokenCount }
      : {}),
  };
}

function candidate(parts: Record<string, unknown>[], finishReason?: string) {
  return {
    content: { role: "model", parts },
    index: 0,
    ...(finishReason !== undefined ? { finishReason } : {}),
  };
}

/** One scripted turn, streamed as SSE (or as one body for `generateContent`). */
function reply(body: GeminiRequest, turn: ReplyTurn, index: number, stream: boolean): Response {
  const usage = turn.usage ?? DEFAULT_GEMINI_USAGE;
  const text = typeof turn.text === "function" ? turn.text(body) : turn.text;
  const calls = (turn.functionCalls ?? []).map((c, i) => ({
    functionCall: { id: c.id ?? `call_${index}_${i}`, name: c.name, args: c.args },
  }));
  const responseId = crypto.randomUUID().replaceAll("-", "").slice(0, 20);
  const meta = { modelVersion: body.model, responseId };
  if (!stream) {
    const parts = [...(text !== undefined ? [{ text }] : []), ...calls];
    return Response.json({
      candidates: [candidate(parts, "STOP")],
      usageMetadata: usageOf(usage),
      ...meta,
    });
  }
  const chunks: unknown[] = [];
  if (text !== undefined) {
    // Two chunks, as a real stream splits text.
    const half = Math.ceil(text.length / 2);
    for (const part of [text.slice(0, half), text.slice(half)]) {
      if (part !== "") chunks.push({ candidates: [candidate([{ text: part }])], ...meta });
    }
  }
  chunks.push({
    candidates: [candidate(calls, "STOP")],
    usageMetadata: usageOf(usage),
    ...meta,
  });
  const out = chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join("");
  return new Response(out, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/** Starts a stream and never finishes it (until `signal` aborts). */
function hang(signal: AbortSignal): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const end = () => {
        try {
          controller.close();
        } catch { /* already closed */ }
      };
      if (signal.aborted) end();
      else signal.addEventListener("abort", end, { once: true });
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream" } });
}
