import { streamEvalCases } from "../lib/loader/stream_eval_cases.ts";
const path = Deno.args[0];
const g = (globalThis as any).gc;
g?.(); const before = Deno.memoryUsage();
let n = 0;
for await (const _ of streamEvalCases(path)) {
  if (++n % 5000 === 0) { g?.(); const m = Deno.memoryUsage(); console.log(n, "rss", ((m.rss - before.rss) / 1e6).toFixed(1), "heapUsed", (m.heapUsed / 1e6).toFixed(1), "heapTotal", (m.heapTotal/1e6).toFixed(1)); }
}
