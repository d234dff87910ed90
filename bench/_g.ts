import { parseRawEvalCase, RawEvalCaseSchema } from "../lib/schema/eval_file.ts";
const lines = Deno.readTextFileSync("/tmp/h1/b2/h20.jsonl").split("\n").filter(Boolean);
const mode = Deno.args[0];
const before = Deno.memoryUsage().heapUsed;
let max = 0;
const t = performance.now();
for (let k = 0; k < 5; k++) for (const l of lines) {
  const v = JSON.parse(l);
  if (mode === "fast") parseRawEvalCase(v); else if (mode === "rt") RawEvalCaseSchema.safeParse(v);
  max = Math.max(max, Deno.memoryUsage().heapUsed);
}
console.log(mode, ((max - before) / 1e6).toFixed(1), "MB peak", (performance.now() - t).toFixed(0), "ms");
