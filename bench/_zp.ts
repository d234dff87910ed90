import { parseRawEvalCase } from "../lib/schema/eval_file.ts";
const line = Deno.readTextFileSync("/tmp/h1/b3/cases.jsonl").split("\n")[1];
const base = JSON.parse(line);
const variants: Record<string, any> = {
  full: base,
  noRubrics: { ...base, rubrics: undefined },
  noEvals: { ...base, evaluators: undefined },
  neither: { ...base, rubrics: undefined, evaluators: undefined },
  minimal: { id: "a", expected_outcome: "b", input: "c" },
  strInput: { ...base, rubrics: undefined, evaluators: undefined, input: "hello" },
};
for (const [k, v] of Object.entries(variants)) for (const key of Object.keys(v)) if (v[key] === undefined) delete v[key];
for (const [name, v] of Object.entries(variants)) {
  const lines = Array.from({ length: 100000 }, () => JSON.stringify(v));
  const objs = lines.map((l) => JSON.parse(l));
  for (let i = 0; i < 20000; i++) parseRawEvalCase(objs[i]);
  const t = performance.now();
  for (const o of objs) parseRawEvalCase(o);
  console.log(name.padEnd(10), ((performance.now() - t) / 100).toFixed(2), "us");
}
