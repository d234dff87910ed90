import { loadEvalCases } from "../lib/loader/load_eval_cases.ts";
for (let i = 0; i < 2; i++) { const t = performance.now(); await loadEvalCases("/tmp/h1/b3/cases.jsonl"); console.log(performance.now() - t); }
