import { z } from "zod";
import { FastRawEvalCaseSchema } from "../lib/schema/eval_file.ts";
import { SimpleEvaluatorConfigSchema, RubricListSchema } from "../lib/schema/evaluator.ts";
console.log("compiled", "fallbackRun" in (FastRawEvalCaseSchema as any)._zod.bag);
const base = JSON.parse(Deno.readTextFileSync("/tmp/h1/b3/cases.jsonl").split("\n")[1]);
const E = z.compile(SimpleEvaluatorConfigSchema);
const LE = z.compile(z.array(z.lazy(() => E)));
const AE = z.compile(z.array(SimpleEvaluatorConfigSchema));
function time(name: string, mk: () => unknown, f: (o: any) => unknown) {
  const objs = Array.from({ length: 100000 }, mk);
  for (let i = 0; i < 20000; i++) f(objs[i]);
  const t = performance.now();
  for (const o of objs) f(o);
  console.log(name.padEnd(10), ((performance.now() - t) / 100).toFixed(2), "us");
}
const el = JSON.stringify(base.evaluators);
time("direct", () => JSON.parse(el), (o) => AE.safeParse(o));
time("lazy", () => JSON.parse(el), (o) => LE.safeParse(o));
time("full", () => JSON.parse(JSON.stringify(base)), (o) => FastRawEvalCaseSchema.safeParse(o));
