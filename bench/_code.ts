import { RubricListSchema, SimpleEvaluatorConfigSchema } from "../lib/schema/evaluator.ts";
// @ts-ignore internal module
import { compileFn } from "../../../root/.cache/deno/npm/registry.npmjs.org/zod/4.6.7/v4/core/compile.js";
const f = compileFn(RubricListSchema, { debug: true });
console.log(f.code);
