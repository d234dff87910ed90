import { loadEvalCases } from "../lib/loader/load_eval_cases.ts";
import { streamEvalCases } from "../lib/loader/stream_eval_cases.ts";
const p = "/tmp/h1/b3/cases.jsonl";
async function floor() { const text = await Deno.readTextFile(p); for (const l of text.split("\n")) if (l.trim()) JSON.parse(l); }
async function floorKeep() { const text = await Deno.readTextFile(p); const out = []; for (const l of text.split("\n")) if (l.trim()) out.push(JSON.parse(l)); return out; }
for (let i = 0; i < 3; i++) {
  let t = performance.now(); await floor(); const f = performance.now() - t;
  t = performance.now(); await floorKeep(); const fk = performance.now() - t;
  t = performance.now(); let n = 0; for await (const _ of streamEvalCases(p)) n++; const s = performance.now() - t;
  t = performance.now(); await loadEvalCases(p); const l = performance.now() - t;
  console.log({ floor: f.toFixed(0), floorKeep: fk.toFixed(0), stream: s.toFixed(0), load: l.toFixed(0) });
}
