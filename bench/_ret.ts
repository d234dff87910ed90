import { parseRawEvalCase } from "../lib/schema/eval_file.ts";
import { loadEvalCases } from "../lib/loader/load_eval_cases.ts";
const gc = (globalThis as any).gc;
const lines = Deno.readTextFileSync("/tmp/h1/b2/h20nf.jsonl").split("\n").filter(Boolean).slice(0, 10000);
function measure(name: string, f: () => unknown) {
  gc(); const b = Deno.memoryUsage().heapUsed;
  const keep = f();
  gc(); const a = Deno.memoryUsage().heapUsed;
  console.log(name, ((a - b) / 10000).toFixed(0), "bytes/case", (keep as any[]).length);
}
measure("json", () => lines.map((l) => JSON.parse(l)));
measure("zod", () => lines.map((l) => parseRawEvalCase(JSON.parse(l)).data));
await Deno.writeTextFile("/tmp/h1/b2/t10k.jsonl", lines.join("\n"));
gc(); const b = Deno.memoryUsage().heapUsed;
const cases = await loadEvalCases("/tmp/h1/b2/t10k.jsonl");
gc(); console.log("load", ((Deno.memoryUsage().heapUsed - b) / 10000).toFixed(0), cases.length);
