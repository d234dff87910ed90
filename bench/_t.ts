import { loadEvalCases } from "../lib/loader/load_eval_cases.ts";
for (const f of Deno.args) {
  const before = Deno.memoryUsage().heapUsed;
  const t = performance.now();
  const c = await loadEvalCases(f);
  console.log(f, c.length, (performance.now() - t).toFixed(0), "ms", ((Deno.memoryUsage().heapUsed - before) / 1e6).toFixed(1), "MB");
}
