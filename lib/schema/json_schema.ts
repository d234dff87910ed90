/**
 * The JSON Schema of the YAML eval file format, generated from the zod schema (the committed
 * `schema/eval.schema.json` is kept equal to it by a test).
 *
 * @module
 */
import { z } from "zod";
import { AgentvConfigSchema } from "./config.ts";
import { EvalFileDocumentSchema } from "./eval_file.ts";

/** The `$id` of the published schema. */
export const EVAL_SCHEMA_ID = "https://agentv.dev/schema/eval.schema.json";

/**
 * The JSON Schema (draft 2020-12) of YAML eval files, for editors:
 * `# yaml-language-server: $schema=…/eval.schema.json`.
 *
 * @example
 * ```ts
 * import { evalFileJsonSchema } from "@agentv/agentv";
 * const schema = evalFileJsonSchema() as { title: string };
 * console.log(schema.title); // "agentv eval file"
 * ```
 */
export function evalFileJsonSchema(): object {
  const generated = z.toJSONSchema(EvalFileDocumentSchema, { io: "input" }) as Record<
    string,
    unknown
  >;
  const { $schema, ...rest } = generated;
  return {
    $schema,
    $id: EVAL_SCHEMA_ID,
    title: "agentv eval file",
    description:
      "An agentv eval dataset: `evalcases` plus file-level defaults (dataset, execution, evaluator).",
    ...rest,
  };
}

let keys: string[] | undefined;

/**
 * Every key name the eval format (eval files, JSONL lines, sidecars, `.agentv/config.yaml`)
 * knows, for "did you mean" suggestions.
 *
 * @example
 * ```ts
 * evalFormatKeys().includes("expected_outcome"); // true
 * ```
 */
export function evalFormatKeys(): string[] {
  if (keys) return keys;
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    const record = node as Record<string, unknown>;
    const properties = record.properties;
    if (properties && typeof properties === "object" && !Array.isArray(properties)) {
      for (const key of Object.keys(properties)) found.add(key);
    }
    for (const value of Object.values(record)) walk(value);
  };
  walk(z.toJSONSchema(EvalFileDocumentSchema, { io: "input", unrepresentable: "any" }));
  walk(z.toJSONSchema(AgentvConfigSchema, { io: "input" }));
  keys = [...found].sort();
  return keys;
}
