import { z } from "zod";
import { RubricListSchema, SimpleEvaluatorConfigSchema } from "../lib/schema/evaluator.ts";
// @ts-ignore internal
import { compileFn } from "../../../root/.cache/deno/npm/registry.npmjs.org/zod/4.6.7/v4/core/compile.js";
import { FastRawEvalCaseSchema } from "../lib/schema/eval_file.ts";
const base = JSON.parse(Deno.readTextFileSync("/tmp/h1/b3/cases.jsonl").split("\n")[1]);
const R = z.compile(RubricListSchema);
const E = z.compile(z.array(SimpleEvaluatorConfigSchema));
function time(name: string, mk: () => unknown, f: (o: any) => unknown) {
  const objs = Array.from({ length: 100000 }, mk);
  for (let i = 0; i < 20000; i++) f(objs[i]);
  const t = performance.now();
  for (const o of objs) f(o);
  console.log(name.padEnd(10), ((performance.now() - t) / 100).toFixed(2), "us");
}
const rl = JSON.stringify(base.rubrics), el = JSON.stringify(base.evaluators);
time("rubrics", () => JSON.parse(rl), (o) => R.safeParse(o));
time("evals", () => JSON.parse(el), (o) => E.safeParse(o));
const code = compileFn(z.array(SimpleEvaluatorConfigSchema), { debug: true }).code;
console.log("eval code chars", code.length);
const full = (FastRawEvalCaseSchema as any)._zod.bag.validator;
console.log(Object.keys((FastRawEvalCaseSchema as any)._zod.bag));
