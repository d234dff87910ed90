const worker = new Worker(new URL("./_latency_server.ts", import.meta.url).href, { type: "module" });
const reply = (m: unknown) => new Promise<unknown>((r) => { worker.onmessage = (e) => r(e.data); worker.postMessage(m); });
const lat = Number(Deno.env.get("LAT") ?? 50);
const { port } = await reply({ latencyMs: lat }) as { port: number };
const url = `http://127.0.0.1:${port}/v1/chat/completions`;
const N = 2000, W = 32;
let next = 0;
const t0 = performance.now();
await Promise.all(Array.from({ length: W }, async () => {
  while (next < N) {
    next++;
    const r = await fetch(url, { method: "POST", body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }), headers: { "content-type": "application/json", authorization: "Bearer x" } });
    await r.json();
  }
}));
console.log("wall", performance.now() - t0, "ideal", Math.ceil(N / W) * lat);
await reply("close"); worker.terminate();
