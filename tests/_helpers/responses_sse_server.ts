/**
 * A scriptable loopback server that speaks the OpenAI Responses API the way Codex uses it:
 * `POST /v1/responses` with `stream: true`, answered with Server-Sent Events
 * (`response.created`, `response.output_item.added` / `response.output_text.delta` /
 * `response.output_item.done` for assistant messages and `function_call` items, then
 * `response.completed` with usage). Point the real `codex` at it with {@link codexMockArgs}.
 *
 * The script is a list of turns. The turn a request gets is the number of model responses already
 * in its conversation (runs of `function_call` / assistant `message` items in `input`), so the
 * agent's own loop walks the script (turn 0 answers the prompt, turn 1 answers the first tool
 * outputs, ...) and parallel agents each walk it independently. `turns` may also be a function of
 * the prompt (the last user message), so parallel cases can follow different scripts. A turn
 * either streams text and tool calls (the agent then runs the tools for real and sends their
 * outputs back), answers with an HTTP error (`error`), fails the response (`failed`: a
 * `response.failed` event), or hangs until the server closes (`hang`). Past the end of the script
 * the server answers `finalText`. Other paths get a 404 (recorded in `otherRequests`).
 *
 * ```ts ignore
 * await using server = startResponsesSseServer({ turns: [
 *   { toolCalls: [execCommand("echo hi")] },
 *   { text: (req) => `The command printed ${functionOutputs(req)[0].output}` },
 * ] });
 * const args = codexMockArgs(server.url);
 * ```
 *
 * @module
 */
import { Arrivals } from "./arrivals.ts";

/** A function call the server asks the agent to make. */
export interface ScriptedFunctionCall {
  /** Function name (Codex 0.169 offers `exec_command`, `write_stdin`, `view_image`, ...). */
  name: string;
  /** Arguments (sent as a JSON string, as the API does). */
  arguments: Record<string, unknown>;
  /** Call id (default `call_<turn>_<index>`). */
  callId?: string;
}

/** Token usage reported for one response (Responses API names). */
export interface ScriptedResponsesUsage {
  /** Prompt tokens. */
  input_tokens: number;
  /** Completion tokens. */
  output_tokens: number;
  /** Cached prompt tokens (part of `input_tokens`). */
  cached_tokens?: number;
}

/** Default usage of a turn without `usage`. */
export const DEFAULT_TURN_USAGE: ScriptedResponsesUsage = {
  input_tokens: 100,
  output_tokens: 20,
  cached_tokens: 0,
};

/** One turn of the script. */
export type ScriptedResponsesTurn =
  | {
    /** Assistant text (after the tool calls, if any); may depend on the request. */
    text?: string | ((request: ResponsesRequest) => string);
    /** Function calls, in order. */
    toolCalls?: ScriptedFunctionCall[];
    /** Usage of this response (default {@link DEFAULT_TURN_USAGE}). */
    usage?: ScriptedResponsesUsage;
  }
  | {
    /** Answer with this HTTP error instead of a stream. */
    error: { status: number; message: string; type?: string; code?: string };
  }
  | {
    /** Stream `response.created`, then `response.failed` with this error. */
    failed: { message: string; code?: string };
  }
  | {
    /** Never finish the stream (until `close()`). */
    hang: true;
  };

/** Options of {@link startResponsesSseServer}. */
export interface ResponsesSseServerOptions {
  /** The script, or a function of the prompt that returns it. */
  turns: ScriptedResponsesTurn[] | ((prompt: string) => ScriptedResponsesTurn[]);
  /** Text of every turn past the script (default `Done.`). */
  finalText?: string;
  /**
   * Holds every reply until this many requests have arrived: agents that are not running at the
   * same time never get their first answer (their timeout fires), so a test proves concurrency
   * without a clock.
   */
  barrier?: number;
}

/** A `/v1/responses` request as received (the JSON body, plus headers). */
export interface ResponsesRequest {
  /** Model the agent asked for. */
  model: string;
  /** The conversation items. */
  input: Record<string, unknown>[];
  /** Tools the agent offers. */
  tools?: { type: string; name?: string }[];
  /** Whether the reply is streamed. */
  stream?: boolean;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  /** Other keys. */
  [key: string]: unknown;
}

/** A request to any other path. */
export interface OtherRequest {
  /** HTTP method. */
  method: string;
  /** URL path. */
  path: string;
}

/** A running server. */
export interface ResponsesSseServer extends AsyncDisposable {
  /** The provider `base_url` (`http://127.0.0.1:PORT/v1`). */
  url: string;
  /** Every `/v1/responses` request, in arrival order. */
  requests: ResponsesRequest[];
  /** Requests to other paths (answered 404). */
  otherRequests: OtherRequest[];
  /** Resolves when `n` `/responses` requests have arrived (e.g. to know a hanging turn started). */
  requestCount(n: number): Promise<void>;
  /** Ends hanging streams and stops the server. */
  close(): Promise<void>;
}

/** A function output the agent sent back. */
export interface ReceivedFunctionOutput {
  /** The call id. */
  call_id: string;
  /** The output text Codex built (for `exec_command`: a header, then `Output:` and the text). */
  output: string;
}

/**
 * The `exec_command` call Codex 0.169 offers for running a shell command.
 *
 * @example
 * ```ts ignore
 * execCommand("ls"); // { name: "exec_command", arguments: { cmd: "ls" } }
 * ```
 */
export function execCommand(cmd: string, callId?: string): ScriptedFunctionCall {
  return { name: "exec_command", arguments: { cmd }, ...(callId ? { callId } : {}) };
}

/**
 * The `-c` arguments that point `codex exec` at the server (a custom `mock` provider whose key is
 * read from `MOCK_KEY`) and keep it offline: analytics off, and the features that reach the
 * network on start-up (plugins, apps, model discovery, update checks) disabled.
 */
export function codexMockArgs(url: string): string[] {
  const provider =
    `model_providers.mock={name="mock",base_url="${url}",wire_api="responses",env_key="MOCK_KEY"}`;
  const offline = [
    "plugins",
    "remote_plugin",
    "plugin_sharing",
    "apps",
    "api_key_model_discovery",
    "in_app_updates",
    "skill_mcp_dependency_install",
  ].flatMap((feature) => ["-c", `features.${feature}=false`]);
  return ["-c", provider, "-c", "model_provider=mock", "-c", "analytics.enabled=false", ...offline];
}

/** The function outputs in a request that follow the last model response. */
export function functionOutputs(request: ResponsesRequest): ReceivedFunctionOutput[] {
  const out: ReceivedFunctionOutput[] = [];
  for (const item of request.input) {
    if (isModelItem(item)) out.length = 0;
    if (item.type !== "function_call_output") continue;
    const output = item.output;
    out.push({
      call_id: String(item.call_id),
      output: typeof output === "string" ? output : JSON.stringify(output),
    });
  }
  return out;
}

/** The prompt of a request: the text of the last user message that is not Codex's own context. */
export function promptOf(request: ResponsesRequest): string {
  let prompt = "";
  for (const item of request.input) {
    if (item.type !== "message" || item.role !== "user" || !Array.isArray(item.content)) continue;
    const text = (item.content as { text?: string }[]).map((c) => c.text ?? "").join("");
    if (!text.trimStart().startsWith("<")) prompt = text;
  }
  return prompt;
}

/** Starts the server on 127.0.0.1, port 0. */
export function startResponsesSseServer(options: ResponsesSseServerOptions): ResponsesSseServer {
  const arrivals = new Arrivals<ResponsesRequest>();
  const requests = arrivals.requests;
  const otherRequests: OtherRequest[] = [];
  const closing = new AbortController();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method !== "POST" || !url.pathname.endsWith("/responses")) {
      await req.body?.cancel();
      otherRequests.push({ method: req.method, path: url.pathname });
      return Response.json({ error: { message: "not found", type: "invalid_request_error" } }, {
        status: 404,
      });
    }
    const body = await req.json() as ResponsesRequest;
    body.headers = Object.fromEntries(req.headers);
    arrivals.push(body);
    if (!await arrivals.barrier(options.barrier, closing.signal)) {
      return new Response(null, { status: 503 });
    }
    const script = typeof options.turns === "function"
      ? options.turns(promptOf(body))
      : options.turns;
    const index = modelResponses(body.input);
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
    const id = `resp_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
    if ("hang" in turn) return hang(id, closing.signal);
    if ("failed" in turn) {
      return sseResponse(
        sse({ type: "response.created", response: { id, status: "in_progress" } }) +
          sse({
            type: "response.failed",
            response: {
              id,
              status: "failed",
              error: { code: turn.failed.code ?? "server_error", message: turn.failed.message },
            },
          }),
      );
    }
    return sseResponse(replyEvents(id, body, turn, index));
  });
  const close = async () => {
    closing.abort();
    await server.shutdown();
  };
  return {
    url: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    otherRequests,
    requestCount: (n) => arrivals.count(n),
    close,
    [Symbol.asyncDispose]: close,
  };
}

type ReplyTurn = Extract<ScriptedResponsesTurn, { toolCalls?: ScriptedFunctionCall[] }>;

function isModelItem(item: Record<string, unknown>): boolean {
  return item.type === "function_call" || item.type === "reasoning" ||
    (item.type === "message" && item.role === "assistant");
}

/** Model responses already in the conversation: runs of consecutive model items. */
function modelResponses(input: Record<string, unknown>[]): number {
  let runs = 0;
  let inRun = false;
  for (const item of input) {
    const model = isModelItem(item);
    if (model && !inRun) runs++;
    inRun = model;
  }
  return runs;
}

function sse(data: { type: string; [key: string]: unknown }): string {
  return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

function sseResponse(body: string | ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/** The events of one scripted response: tool calls first, then the text message. */
function replyEvents(id: string, body: ResponsesRequest, turn: ReplyTurn, index: number): string {
  const usage = turn.usage ?? DEFAULT_TURN_USAGE;
  const text = typeof turn.text === "function" ? turn.text(body) : turn.text;
  let out = sse({ type: "response.created", response: { id, status: "in_progress" } });
  const output: unknown[] = [];
  let position = 0;
  for (const [i, call] of (turn.toolCalls ?? []).entries()) {
    const item = {
      type: "function_call",
      id: `fc_${index}_${i}`,
      call_id: call.callId ?? `call_${index}_${i}`,
      name: call.name,
      arguments: JSON.stringify(call.arguments),
      status: "completed",
    };
    out += sse({
      type: "response.output_item.added",
      output_index: position,
      item: { ...item, arguments: "", status: "in_progress" },
    });
    out += sse({
      type: "response.function_call_arguments.delta",
      output_index: position,
      item_id: item.id,
      delta: item.arguments,
    });
    out += sse({ type: "response.output_item.done", output_index: position, item });
    output.push(item);
    position++;
  }
  if (text !== undefined) {
    const itemId = `msg_${index}`;
    const item = {
      type: "message",
      id: itemId,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text, annotations: [] }],
    };
    out += sse({
      type: "response.output_item.added",
      output_index: position,
      item: { ...item, status: "in_progress", content: [] },
    });
    // Two deltas, as a real stream splits text.
    const half = Math.ceil(text.length / 2);
    for (const delta of [text.slice(0, half), text.slice(half)]) {
      if (delta === "") continue;
      out += sse({
        type: "response.output_text.delta",
        output_index: position,
        content_index: 0,
        item_id: itemId,
        delta,
      });
    }
    out += sse({ type: "response.output_item.done", output_index: position, item });
    output.push(item);
  }
  out += sse({
    type: "response.completed",
    response: {
      id,
      status: "completed",
      model: body.model,
      output,
      usage: {
        input_tokens: usage.input_tokens,
        input_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
        output_tokens: usage.output_tokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: usage.input_tokens + usage.output_tokens,
      },
    },
  });
  return out;
}

/** Starts a stream and never finishes it (until `signal` aborts). */
function hang(id: string, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        encoder.encode(sse({ type: "response.created", response: { id, status: "in_progress" } })),
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
  return sseResponse(stream);
}
