/**
 * The floor scripts of the whole-process benchmarks (`cli_bench.ts` writes them into its bench
 * folder and runs them with `deno run`): what the same work costs without agentv.
 *
 * @module
 */

/** The floor scripts, written into the bench folder. */
export const FLOORS = {
  "yaml_floor.ts": `import { z } from "npm:zod@4.6.7";
import { parse } from "npm:yaml@2.9.1";
const doc = parse(await Deno.readTextFile(Deno.args[0]));
const Case = z.looseObject({ id: z.string(), expected_outcome: z.string() });
const parsed = z.looseObject({ evalcases: z.array(Case) }).parse(doc);
console.log(parsed.evalcases.length + " cases");
`,
  "jsonl_floor.ts": `const text = await Deno.readTextFile(Deno.args[0]);
let n = 0;
for (const line of text.split("\\n")) if (line.trim() !== "") { JSON.parse(line); n++; }
console.log(n + " cases");
`,
  "runner_floor.ts": `const [file, url, out] = Deno.args;
const cases = (await Deno.readTextFile(file)).split("\\n").filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l));
const results = await Deno.open(out, { write: true, create: true, truncate: true });
const encoder = new TextEncoder();
let next = 0, passed = 0;
async function worker() {
  while (next < cases.length) {
    const c = cases[next++];
    const started = performance.now();
    const response = await fetch(url + "/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-bench" },
      body: JSON.stringify({ model: "bench", messages: [{ role: "user", content: c.input }] }),
    });
    const answer = (await response.json()).choices[0].message.content;
    const score = answer.includes("ok") ? 1 : 0;
    passed += score;
    const row = { eval_id: c.id, answer, score, duration_ms: performance.now() - started };
    results.writeSync(encoder.encode(JSON.stringify(row) + "\\n"));
  }
}
await Promise.all(Array.from({ length: 32 }, worker));
results.close();
console.log(passed + "/" + cases.length + " passed");
`,
};
