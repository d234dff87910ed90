/**
 * A scriptable loopback server that speaks the Anthropic Messages API the way Claude Code uses
 * it: `POST /v1/messages` with `stream: true`, answered with Server-Sent Events (`message_start`,
 * `content_block_start` / `content_block_delta` / `content_block_stop` for text and `tool_use`
 * blocks, `message_delta` with the stop reason and usage, `message_stop`). Point the real `claude`
 * at it with `ANTHROPIC_BASE_URL=server.url`.
 *
 * The script is a list of turns. The turn a request gets is the number of assistant messages in
 * its conversation, so the agent's own loop walks the script (turn 0 answers the prompt, turn 1
 * answers the first tool results, ...) and parallel agents each walk it independently. A turn
 * either streams text and tool calls (the agent then runs the tools for real and sends their
 * results back), answers with an HTTP error (`error`), or hangs until the server closes (`hang`).
 * Past the end of the script the server answers `finalText`. Requests without `tools` (Claude
 * Code's side requests, e.g. titles) get a short text reply and do not use the script.
 *
 * ```ts ignore
 * await using server = startAnthropicSseServer({ turns: [
 *   { toolCalls: [{ name: "Bash", input: { command: "echo hi" } }] },
 *   { text: (req) => `The command printed ${toolResults(req)[0].text}` },
 * ] });
 * ```
 *
 * @module
 */
import { Arrivals } from "./arrivals.ts";

/** A tool call the server asks the agent to make. */
export interface ScriptedToolCall {
  /** Tool name (`Bash`, `Write`, `Edit`, `Read`, ...). */
  name: string;
  /** Tool input. */
  input: Record<string, unknown>;
  /** Call id (default `toolu_<turn>_<index>`, unique per conversation turn). */
  id?: string;
}

/** Token usage reported for a turn (Anthropic names). */
export interface ScriptedUsage {
  /** Prompt tokens. */
  input_tokens: number;
  /** Completion tokens. */
  output_tokens: number;
  /** Cached prompt tokens. */
  cache_read_input_tokens?: number;
}

/** A turn that streams text and tool calls. */
export interface ScriptedReply {
  /**
   * Text before the tool calls (or the final answer); may depend on the request (`undefined`:
   * no text block).
   */
  text?: string | ((request: MessagesRequest) => string | undefined);
  /** Tool calls, in order; may depend on the request (e.g. a path a tool printed). */
  toolCalls?: ScriptedToolCall[] | ((request: MessagesRequest) => ScriptedToolCall[]);
  /** Usage of this turn (default 100 input, 20 output tokens). */
  usage?: ScriptedUsage;
}

/** One turn of the script. */
export type ScriptedTurn =
  | ScriptedReply
  | {
    /** Answer with this HTTP error instead of a stream. */
    error: { status: number; type: string; message: string };
  }
  | {
    /** Never finish the stream (until `close()`). */
    hang: true;
  };

/** Options of {@link startAnthropicSseServer}. */
export interface AnthropicSseServerOptions {
  /** The script. */
  turns: ScriptedTurn[];
  /** Text of every turn past the script (default `Done.`). */
  finalText?: string;
}

/** A `/v1/messages` request as received (the JSON body, plus headers). */
export interface MessagesRequest {
  /** Model the agent asked for. */
  model: string;
  /** The conversation. */
  messages: { role: string; content: unknown }[];
  /** Tools the agent offers (absent on side requests). */
  tools?: { name: string }[];
  /** Whether the reply is streamed. */
  stream?: boolean;
  /** System prompt (string or blocks). */
  system?: unknown;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  /** Other keys. */
  [key: string]: unknown;
}

/** A running server. */
export interface AnthropicSseServer extends AsyncDisposable {
  /** The value for `ANTHROPIC_BASE_URL` (`http://127.0.0.1:PORT`). */
  url: string;
  /** Every `/v1/messages` request that used the script, in arrival order. */
  requests: MessagesRequest[];
  /** Resolves when `n` scripted requests have arrived (e.g. to know a hanging turn started). */
  requestCount(n: number): Promise<void>;
  /** Ends hanging streams and stops the server. */
  close(): Promise<void>;
}

/** A tool result the agent sent back. */
export interface ReceivedToolResult {
  /** The call id. */
  tool_use_id: string;
  /** The result text (text blocks joined). */
  text: string;
  /** Whether the agent flagged it as an error. */
  is_error: boolean;
}

/**
 * The tool results in the last user message of a request (what the tools really returned).
 */
export function toolResults(request: MessagesRequest): ReceivedToolResult[] {
  const last = request.messages.at(-1);
  if (last === undefined || !Array.isArray(last.content)) return [];
  const out: ReceivedToolResult[] = [];
  for (const block of last.content as Record<string, unknown>[]) {
    if (block?.type !== "tool_result") continue;
    const content = block.content;
    const text = typeof content === "string"
      ? content
      : Array.isArray(content)
      ? content.map((c) => (c as { text?: string }).text ?? "").join("\n")
      : "";
    out.push({
      tool_use_id: String(block.tool_use_id),
      text,
      is_error: block.is_error === true,
    });
  }
  return out;
}

/** Starts the server on 127.0.0.1, port 0. */
export function startAnthropicSseServer(options: AnthropicSseServerOptions): AnthropicSseServer {
  const arrivals = new Arrivals<MessagesRequest>();
  const requests = arrivals.requests;
  const closing = new AbortController();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: () => {},
  }, async (req) => {
    const url = new URL(req.url);
    if (req.method !== "POST" || !url.pathname.endsWith("/messages")) {
      await req.body?.cancel();
      return Response.json({
        type: "error",
        error: { type: "not_found_error", message: "not found" },
      }, {
        status: 404,
      });
    }
    const body = await req.json() as MessagesRequest;
    body.headers = Object.fromEntries(req.headers);
    const scripted = Array.isArray(body.tools) && body.tools.length > 0;
    if (!scripted) return reply(body, { text: "ok" }, 0);
    arrivals.push(body);
    const index = body.messages.filter((m) => m.role === "assistant").length;
    const turn = options.turns[index] ?? { text: options.finalText ?? "Done." };
    if ("error" in turn) {
      return Response.json({
        type: "error",
        error: { type: turn.error.type, message: turn.error.message },
      }, {
        status: turn.error.status,
      });
    }
    if ("hang" in turn) return hang(body, closing.signal);
    return reply(body, turn, index);
  });
  const close = async () => {
    closing.abort();
    await server.shutdown();
  };
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    requestCount: (n) => arrivals.count(n),
    close,
    [Symbol.asyncDispose]: close,
  };
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function messageStart(body: MessagesRequest, usage: ScriptedUsage): string {
  return sse("message_start", {
    type: "message_start",
    message: {
      id: `msg_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`,
      type: "message",
      role: "assistant",
      model: body.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input_tokens,
        output_tokens: 1,
        cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
        cache_creation_input_tokens: 0,
      },
    },
  });
}

/** Streams one scripted turn; non-streamed requests get the same content as one JSON body. */
function reply(body: MessagesRequest, turn: ScriptedReply, index: number): Response {
  const usage = turn.usage ?? { input_tokens: 100, output_tokens: 20 };
  const text = typeof turn.text === "function" ? turn.text(body) : turn.text;
  const scripted = typeof turn.toolCalls === "function" ? turn.toolCalls(body) : turn.toolCalls;
  const calls = (scripted ?? []).map((c, i) => ({ ...c, id: c.id ?? `toolu_${index}_${i}` }));
  const stopReason = calls.length > 0 ? "tool_use" : "end_turn";
  if (body.stream !== true) {
    return Response.json({
      id: "msg_side",
      type: "message",
      role: "assistant",
      model: body.model,
      content: [
        ...(text !== undefined ? [{ type: "text", text }] : []),
        ...calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.input })),
      ],
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    });
  }
  let out = messageStart(body, usage);
  let block = 0;
  if (text !== undefined) {
    out += sse("content_block_start", {
      type: "content_block_start",
      index: block,
      content_block: { type: "text", text: "" },
    });
    // Two deltas, as a real stream splits text.
    const half = Math.ceil(text.length / 2);
    for (const part of [text.slice(0, half), text.slice(half)]) {
      if (part === "") continue;
      out += sse("content_block_delta", {
        type: "content_block_delta",
        index: block,
        delta: { type: "text_delta", text: part },
      });
    }
    out += sse("content_block_stop", { type: "content_block_stop", index: block });
    block++;
  }
  for (const call of calls) {
    out += sse("content_block_start", {
      type: "content_block_start",
      index: block,
      content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
    });
    out += sse("content_block_delta", {
      type: "content_block_delta",
      index: block,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(call.input) },
    });
    out += sse("content_block_stop", { type: "content_block_stop", index: block });
    block++;
  }
  out += sse("message_delta", {
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  out += sse("message_stop", { type: "message_stop" });
  return new Response(out, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/** Starts a stream and never finishes it (until `signal` aborts). */
function hang(body: MessagesRequest, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        encoder.encode(messageStart(body, { input_tokens: 100, output_tokens: 0 })),
      );
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
