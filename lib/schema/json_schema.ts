/**
 * The JSON Schemas of the YAML eval file and of the JSONL sidecar, generated from the zod schemas
 * (the committed `schema/eval.schema.json` and `schema/sidecar.schema.json` are kept equal to
 * them by a test).
 *
 * @module
 */
import { z } from "zod";
import { AgentvConfigSchema } from "./config.ts";
import { EvalFileDocumentSchema, SidecarSchema } from "./eval_file.ts";
import { applyJsonSchemaRules } from "./json_schema_rules.ts";

/** The `$id` of the published schema. */
export const EVAL_SCHEMA_ID = "https://agentv.dev/schema/eval.schema.json";

/** The `$id` of the published sidecar schema. */
export const SIDECAR_SCHEMA_ID = "https://agentv.dev/schema/sidecar.schema.json";

/**
 * The JSON Schema (draft 2020-12) of YAML eval files, for editors:
 * `# yaml-language-server: $schema=…/eval.schema.json`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evalFileJsonSchema } from "@agentv/agentv";
 * const schema = evalFileJsonSchema() as { title: string };
 * assert.equal(schema.title, "agentv eval file");
 * ```
 */
export function evalFileJsonSchema(): object {
  return published(EvalFileDocumentSchema, {
    $id: EVAL_SCHEMA_ID,
    title: "agentv eval file",
    description:
      "An agentv eval dataset: `evalcases` plus file-level defaults (dataset, execution, evaluator).",
  });
}

/**
 * The JSON Schema (draft 2020-12) of a JSONL dataset's sidecar (`dataset.yaml` beside
 * `dataset.jsonl`): the file-level settings, without `evalcases`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sidecarJsonSchema } from "@agentv/agentv";
 * const schema = sidecarJsonSchema() as { title: string };
 * assert.equal(schema.title, "agentv JSONL sidecar");
 * ```
 */
export function sidecarJsonSchema(): object {
  return published(SidecarSchema, {
    $id: SIDECAR_SCHEMA_ID,
    title: "agentv JSONL sidecar",
    description:
      "File-level settings (description, dataset, execution, evaluator) of the JSONL dataset with the same name.",
  });
}

/** `schema` as JSON Schema with the refinements JSON Schema can express, and a header. */
function published(
  schema: z.ZodType,
  header: { $id: string; title: string; description: string },
): object {
  const generated = z.toJSONSchema(schema, {
    io: "input",
    override: applyJsonSchemaRules,
  }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return { $schema, ...header, ...rest };
}

let keys: string[] | undefined;

/**
 * Every key name the eval format (eval files, JSONL lines, sidecars, `.agentv/config.yaml`)
 * knows, for "did you mean" suggestions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.ok(evalFormatKeys().includes("expected_outcome"));
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
