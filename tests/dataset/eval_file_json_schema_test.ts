/** Loader: `evalFileJsonSchema` equals the committed schema and validates the corpus. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { evalFileJsonSchema } from "../../mod.ts";
import { REPO_ROOT } from "../cli/_buffer_io.ts";
import { CORPUS, yamlCase } from "./_helpers.ts";

/** A small JSON Schema (2020-12 subset) validator with `$ref`: the errors' JSON pointers. */
function validateSchema(root: Record<string, unknown>, value: unknown): string[] {
  const errors: string[] = [];
  const type = (v: unknown) =>
    v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v;
  const check = (s: unknown, v: unknown, at: string, out: string[]): void => {
    if (s === true || s === undefined) return;
    if (s === false) return void out.push(`${at}: false schema`);
    const schema = s as Record<string, unknown>;
    if (typeof schema.$ref === "string") {
      const target = schema.$ref.replace(/^#\//, "").split("/")
        .reduce((node: unknown, key) => (node as Record<string, unknown>)[key], root);
      check(target, v, at, out);
    }
    if (schema.type !== undefined) {
      const types = ([] as unknown[]).concat(schema.type);
      const t = type(v);
      if (!types.includes(t) && !(t === "integer" && types.includes("number"))) {
        return void out.push(`${at}: type ${t}`);
      }
    }
    if ("const" in schema && JSON.stringify(schema.const) !== JSON.stringify(v)) {
      out.push(`${at}: const`);
    }
    if (
      Array.isArray(schema.enum) &&
      !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))
    ) {
      out.push(`${at}: enum`);
    }
    if (typeof v === "number") {
      if (typeof schema.minimum === "number" && v < schema.minimum) out.push(`${at}: minimum`);
      if (typeof schema.exclusiveMinimum === "number" && v <= schema.exclusiveMinimum) {
        out.push(`${at}: exclusiveMinimum`);
      }
    }
    if (typeof v === "string") {
      if (typeof schema.minLength === "number" && v.length < schema.minLength) {
        out.push(`${at}: minLength`);
      }
      if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(v)) {
        out.push(`${at}: pattern`);
      }
    }
    if (Array.isArray(v)) {
      if (typeof schema.minItems === "number" && v.length < schema.minItems) {
        out.push(`${at}: minItems`);
      }
      if (schema.items !== undefined) {
        v.forEach((item, i) => check(schema.items, item, `${at}/${i}`, out));
      }
    }
    if (type(v) === "object") {
      const record = v as Record<string, unknown>;
      const props = (schema.properties ?? {}) as Record<string, unknown>;
      for (const key of (schema.required ?? []) as string[]) {
        if (!(key in record)) out.push(`${at}/${key}: required`);
      }
      for (const [key, item] of Object.entries(record)) {
        if (schema.propertyNames !== undefined) {
          check(schema.propertyNames, key, `${at}/${key}`, out);
        }
        if (key in props) check(props[key], item, `${at}/${key}`, out);
        else if (schema.additionalProperties !== undefined) {
          check(schema.additionalProperties, item, `${at}/${key}`, out);
        }
      }
    }
    for (const sub of (schema.allOf ?? []) as unknown[]) check(sub, v, at, out);
    const branches = (list: unknown) =>
      ((list ?? []) as unknown[]).filter((sub) => {
        const inner: string[] = [];
        check(sub, v, at, inner);
        return inner.length === 0;
      }).length;
    if (Array.isArray(schema.anyOf) && branches(schema.anyOf) === 0) out.push(`${at}: anyOf`);
    if (Array.isArray(schema.oneOf) && branches(schema.oneOf) !== 1) out.push(`${at}: oneOf`);
  };
  check(root, value, "", errors);
  return errors;
}

Deno.test("evalFileJsonSchema equals the committed schema and validates the corpus", async () => {
  const schema = evalFileJsonSchema() as Record<string, unknown>;
  const committed = JSON.parse(await Deno.readTextFile(join(REPO_ROOT, "schema/eval.schema.json")));
  assert.deepEqual(schema, committed);
  assert.equal(typeof schema.$schema, "string");
  // YAML parsed through the loader's own file: cases as plain JSON values
  const { parseYamlSource } = await import("../../lib/dataset/yaml_source.ts");
  const parse = async (text: string) => {
    const parsed = await parseYamlSource(text);
    assert.ok(parsed.ok);
    return parsed.source.value;
  };
  const files: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const p = join(dir, e.name);
      if (e.isDirectory && !e.name.startsWith(".")) await walk(p);
      else if (e.isFile && /\.ya?ml$/.test(e.name)) files.push(p);
    }
  };
  await walk(CORPUS);
  let checked = 0;
  for (const file of files) {
    const value = await parse(await Deno.readTextFile(file)) as Record<string, unknown> | null;
    if (!value || !("evalcases" in value)) continue; // sidecars and settings
    assert.deepEqual(validateSchema(schema, value), [], file);
    checked++;
  }
  assert.ok(checked >= 20, `only ${checked} corpus files checked`);
  // and it rejects what the loader rejects
  const bad = (extra: string) => parse("evalcases:\n" + yamlCase("a", extra));
  assert.notDeepEqual(
    validateSchema(
      schema,
      await bad("    evaluators: [{ type: contains, value: x, weight: -1 }]\n"),
    ),
    [],
  );
  assert.notDeepEqual(
    validateSchema(
      schema,
      await bad("    evaluators: [{ type: tool_trajectory, mode: sometimes, expected: [] }]\n"),
    ),
    [],
  );
  assert.notDeepEqual(
    validateSchema(
      schema,
      await parse("evalcases:\n  - id: a\n    expected_outcome: G\n    input: 42\n"),
    ),
    [],
  );
  assert.deepEqual(validateSchema(schema, await bad("")), []);
});
