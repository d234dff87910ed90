import { loadEvalCases } from "../lib/loader/load_eval_cases.ts";
import { writeFixtures } from "./load_bench.ts";
const dir = "/tmp/h1/b3"; await Deno.mkdir(dir, { recursive: true });
const p = await writeFixtures(dir, 100000, 10);
for (let i = 0; i < 3; i++) { const t = performance.now(); await loadEvalCases(p.jsonl); console.log(performance.now() - t); }
