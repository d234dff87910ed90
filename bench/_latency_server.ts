/**
 * Worker module for the runner benchmark: an OpenAI-compatible Chat Completions server on
 * 127.0.0.1 that answers every request after a fixed latency. It runs in its own thread so the
 * server's work does not share the event loop being measured (a real model API is another
 * machine). Message `{latencyMs}` starts it and replies `{port}`; message `"close"` stops it and
 * replies `"closed"`.
 *
 * @module
 */
/// <reference lib="deno.worker" />

const body = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
});

let server: Deno.HttpServer<Deno.NetAddr> | undefined;

self.onmessage = async (event: MessageEvent<{ latencyMs: number } | "close">) => {
  if (event.data === "close") {
    await server?.shutdown();
    self.postMessage("closed");
    return;
  }
  const { latencyMs } = event.data;
  server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const arrived = performance.now();
    await req.arrayBuffer();
    // setTimeout overshoots by a millisecond or two; aim so the reply leaves at `latencyMs`.
    const wait = latencyMs - (performance.now() - arrived) - 1;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    return new Response(body, { headers: { "content-type": "application/json" } });
  });
  self.postMessage({ port: server.addr.port });
};
