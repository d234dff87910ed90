/**
 * A scriptable loopback server that speaks the OpenAI Chat Completions API the way agent CLIs
 * built on it use it (Qwen Code, opencode, pi, GitHub Copilot CLI's BYOK mode):
 * `POST …/chat/completions` with `stream: true`, answered with Server-Sent Events of
 * `chat.completion.chunk` objects (a role delta, text deltas, `tool_calls` deltas carrying each
 * call's id, name and arguments, a chunk with the `finish_reason`, a usage chunk, `[DONE]`).
 * Requests with `stream: false` get the same turn as one `chat.completion` body.
 *
 * The script is a list of turns. The turn a request gets is the number of assistant messages in
 * its conversation, so the agent's own loop walks the script (turn 0 answers the prompt, turn 1
 * answers the first tool results, ...) and parallel agents each walk it independently; `turns`
 * may also be a function of the prompt (the last user message's text), so parallel cases can
 * follow different scripts. A turn either streams text and tool calls (the agent runs the tools
 * for real and sends their results back as `tool` messages), answers with an HTTP error
 * (`error`), or hangs until the server closes (`hang`). Past the end of the script the server
 * answers `finalText`. Requests that offer no `tools` (side requests, e.g. opencode's session
 * title) get a short text reply and are recorded in `sideRequests`, not in `requests`. Other
 * paths get a 404 (recorded in `otherRequests`).
 *
 * ```ts ignore
 * await using server = startChatSseServer({ turns: [
 *   { toolCalls: [{ name: "run_shell_command", arguments: { command: "echo hi" } }] },
 *   { text: (req) => `The command printed ${chatToolResults(req)[0].content}` },
 * ] });
 * // OPENAI_BASE_URL=server.url
 * ```
 *
 * @module
 */
import { Arrivals } from "./arrivals.ts";

/** A function call the server asks the agent to make. */
export interface ScriptedChatToolCall {
  /** Function name, as the agent offers it (`run_shell_command`, `bash`, `write`, ...). */
  name: string;
  /** Arguments (sent as a JSON string, as the API does). */
  arguments: Record<string, unknown>;
  /** Call id (default `call_<turn>_<index>`). */
  id?: string;
}

/** Token usage reported for one completion (Chat Completions names). */
export interface ScriptedChatUsage {
  /** Prompt tokens. */
  prompt_tokens: number;
  /** Completion tokens. */
  completion_tokens: number;
  /** Cached prompt tokens (part of `prompt_tokens`). */
  cached_tokens?: number;
}

/** Default usage of a turn without `usage`. */
export const DEFAULT_CHAT_USAGE: ScriptedChatUsage = {
  prompt_tokens: 100,
  completion_tokens: 20,
  cached_tokens: 0,
};

/** One turn of the script. */
export type ScriptedChatTurn =
  | {
    /** Assistant text (before the tool calls, if any); may depend on the request. */
    text?: string | ((request: ChatRequest) => string);
    /** Function calls, in order; may depend on the request (e.g. on a tool result). */
    toolCalls?: ScriptedChatToolCall[] | ((request: ChatRequest) => ScriptedChatToolCall[]);
    /** Usage of this completion (default {@link DEFAULT_CHAT_USAGE}). */
    usage?: ScriptedChatUsage;
  }
  | {
    /** Answer with this HTTP error instead of a stream. */
    error: { status: number; message: string; type?: string; code?: string };
  }
  | {
    /** Start the stream and never finish it (until `close()`). */
    hang: true;
  };

/** Options of {@link startChatSseServer}. */
export interface ChatSseServerOptions {
  /** The script, or a function of the prompt that returns it. */
  turns: ScriptedChatTurn[] | ((prompt: string) => ScriptedChatTurn[]);
  /** Text of every turn past the script (default `Done.`). */
  finalText?: string;
  /**
   * Holds every scripted reply until this many scripted requests have arrived: agents that are
   * not running at the same time never get their first answer, so a test proves concurrency
   * without a clock.
   */
  barrier?: number;
}

/** One message of a request (`system`, `user`, `assistant` or `tool`). */
export interface ChatMessage {
  /** Role. */
  role: string;
  /** Text, or content parts. */
  content?: unknown;
  /** Calls of an assistant message. */
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  /** The call a `tool` message answers. */
  tool_call_id?: string;
  /** Other keys. */
  [key: string]: unknown;
}

/** A `/chat/completions` request as received (the JSON body, plus path and headers). */
export interface ChatRequest {
  /** Model the agent asked for. */
  model: string;
  /** The conversation. */
  messages: ChatMessage[];
  /** Tools the agent offers. */
  tools?: { type: string; function?: { name: string } }[];
  /** Whether the reply is streamed. */
  stream?: boolean;
  /** URL path the request was sent to. */
  path: string;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  /** Other keys. */
  [key: string]: unknown;
}

/** A request to any other path. */
export interface OtherChatRequest {
  /** HTTP method. */
  method: string;
  /** URL path. */
  path: string;
}

/** A running server. */
export interface ChatSseServer extends AsyncDisposable {
  /** The OpenAI-style base URL (`http://127.0.0.1:PORT/v1`). */
  url: string;
  /** Every scripted `/chat/completions` request (one that offers tools), in arrival order. */
  requests: ChatRequest[];
  /** `/chat/completions` requests without tools (answered `ok`). */
  sideRequests: ChatRequest[];
  /** Requests to other paths (answered 404). */
  otherRequests: OtherChatRequest[];
  /** Resolves when `n` scripted requests have arrived (e.g. to know a hanging turn started). */
  requestCount(n: number): Promise<void>;
  /** Ends hanging streams and stops the server. */
  close(): Promise<void>;
}

/** A tool result the agent sent back (a `tool` message). */
export interface ReceivedChatToolResult {
  /** The call id it answers. */
  tool_call_id: string;
  /** Its content as text (text parts joined). */
  content: string;
}

/**
 * The `tool` messages that follow the last assistant message of a request (with `all`, every
 * `tool` message of the conversation).
 */
export function chatToolResults(request: ChatRequest, all = false): ReceivedChatToolResult[] {
  const out: ReceivedChatToolResult[] = [];
  for (const message of request.messages) {
    if (message.role === "assistant" && !all) out.length = 0;
    if (message.role !== "tool") continue;
    out.push({ tool_call_id: String(message.tool_call_id), content: textOf(message.content) });
  }
  return out;
}

/** The prompt of a request: the text of its last user message. */
export function chatPromptOf(request: Pick<ChatRequest, "messages">): string {
  const users = request.messages.filter((m) => m.role === "user");
  return users.length === 0 ? "" : textOf(users.at(-1)!.content);
}

/** Starts the server on 127.0.0.1, port 0. */
export function startChatSseServer(options: ChatSseServerOptions): ChatSseServer {
  const arrivals = new Arrivals<ChatRequest>();
  const requests = arrivals.requests;
  const sideRequests: ChatRequest[] = [];
  const otherRequests: OtherChatRequest[] = [];
  const closing = new AbortController();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method !== "POST" || !url.pathname.endsWith("/chat/completions")) {
      await req.body?.cancel();
      otherRequests.push({ method: req.method, path: url.pathname });
      return Response.json({ error: { message: "not found", type: "invalid_request_error" } }, {
        status: 404,
      });
    }
    const body = await req.json() as ChatRequest;
    body.path = url.pathname;
    body.headers = Object.fromEntries(req.headers);
    if (!Array.isArray(body.tools) || body.tools.length === 0) {
      sideRequests.push(body);
      return reply(body, { text: "ok" }, 0);
    }
    arrivals.push(body);
    if (!await arrivals.barrier(options.barrier, closing.signal)) {
      return new Response(null, { status: 503 });
    }
    const script = typeof options.turns === "function"
      ? options.turns(chatPromptOf(body))
      : options.turns;
    const index = body.messages.filter((m) => m.role === "assistant").length;
    const turn = script[index] ?? { text: options.finalText ?? "Done." };
    if ("error" in turn) {
      return Response.json({
        error: {
          message: turn.error.message,
          type: turn.error.type ?? "invalid_request_error",
          code: turn.error.code ?? null,
          param: null,
        },
      }, { status: turn.error.status });
    }
    if ("hang" in turn) return hang(body, closing.signal);
    return reply(body, turn, index);
  });
  const close = async () => {
    closing.abort();
    await server.shutdown();
  };
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    sideRequests,
    otherRequests,
    requestCount: (n) => arrivals.count(n),
    close,
    [Symbol.asyncDispose]: close,
  };
}

type ReplyTurn = Exclude<ScriptedChatTurn, { error: unknown } | { hang: true }>;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (part as { text?: string })?.text ?? "").join("");
}

function chunk(id: string, model: string, extra: Record<string, unknown>): string {
  const data = {
    id,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model,
    ...extra,
  };
  return `data: ${JSON.stringify(data)}\n\n`;
}

function usageOf(usage: ScriptedChatUsage) {
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
  };
}

/** One scripted turn, streamed (or as one body when the request did not ask for a stream). */
function reply(body: ChatRequest, turn: ReplyTurn, index: number): Response {
  const usage = turn.usage ?? DEFAULT_CHAT_USAGE;
  const text = typeof turn.text === "function" ? turn.text(body) : turn.text;
  const scripted = typeof turn.toolCalls === "function" ? turn.toolCalls(body) : turn.toolCalls;
  const calls = (scripted ?? []).map((c, i) => ({
    id: c.id ?? `call_${index}_${i}`,
    type: "function",
    function: { name: c.name, arguments: JSON.stringify(c.arguments) },
  }));
  const finish = calls.length > 0 ? "tool_calls" : "stop";
  const id = `chatcmpl-${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
  if (body.stream !== true) {
    return Response.json({
      id,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [{
        index: 0,
        message: {
          role: "assistant",
          content: text ?? null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        finish_reason: finish,
      }],
      usage: usageOf(usage),
    });
  }
  const choice = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  let out = chunk(id, body.model, choice({ role: "assistant", content: "" }));
  if (text !== undefined) {
    // Two deltas, as a real stream splits text.
    const half = Math.ceil(text.length / 2);
    for (const part of [text.slice(0, half), text.slice(half)]) {
      if (part !== "") out += chunk(id, body.model, choice({ content: part }));
    }
  }
  for (const [i, call] of calls.entries()) {
    out += chunk(
      id,
      body.model,
      choice({
        tool_calls: [{ index: i, ...call, function: { name: call.function.name, arguments: "" } }],
      }),
    );
    out += chunk(
      id,
      body.model,
      choice({ tool_calls: [{ index: i, function: { arguments: call.function.arguments } }] }),
    );
  }
  out += chunk(id, body.model, choice({}, finish));
  out += chunk(id, body.model, { choices: [], usage: usageOf(usage) });
  out += "data: [DONE]\n\n";
  return new Response(out, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/** Starts a stream and never finishes it (until `signal` aborts). */
function hang(body: ChatRequest, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  const id = `chatcmpl-hang`;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(chunk(id, body.model, {
        choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
      })));
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
