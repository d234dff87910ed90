/**
 * A small JSON Schema validator for the `json_schema` evaluator. Supports `type`, `properties`,
 * `required`, `additionalProperties`, `items` (schema or tuple array), `prefixItems`, `enum`,
 * `const`, `minimum`/`maximum`, `exclusiveMinimum`/`exclusiveMaximum`, `minLength`/`maxLength`,
 * `pattern`, `minItems`/`maxItems`, `anyOf`/`oneOf`/`allOf`/`not`, boolean schemas and `$ref`s
 * inside the schema (`#`, `#/$defs/...`). Other keywords (e.g. `format`) are not checked and are
 * reported as unsupported.
 *
 * @module
 */
import { compileLinearRegex, type LinearRegex, loadLinearRegex } from "../text/linear_regex.ts";
import { resolveSchemaRef } from "../schema/json_schema_problems.ts";
import { deepEqual, isPlainObject, preview } from "./match.ts";

// Patterns are matched by the linear-time engine, loaded with this module (the loader, which
// does not import evaluators, never pays for it).
await loadLinearRegex();

/** One place where the value breaks the schema. */
export interface SchemaViolation {
  /** JSON pointer (RFC 6901) of the offending value; `""` is the root. */
  pointer: string;
  /** What is wrong. */
  message: string;
}

/** The result of a validation. */
export interface SchemaCheck {
  /** Every violation found, in document order. */
  violations: SchemaViolation[];
  /** Keywords present in the schema that this validator does not check (sorted). */
  unsupported: string[];
}

const SUPPORTED = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "prefixItems",
  "enum",
  "const",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "$ref",
  "$defs",
  "definitions",
]);
const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === "number" && actual === "integer");
}

/** Escapes one reference token of a JSON pointer. */
function token(key: string | number): string {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Collects keywords this validator does not check, walking every subschema. */
function collectUnsupported(schema: unknown, out: Set<string>): void {
  if (!isPlainObject(schema)) return;
  for (const key of Object.keys(schema)) {
    if (!SUPPORTED.has(key) && !ANNOTATIONS.has(key)) out.add(key);
  }
  const subs: unknown[] = [schema.items, schema.additionalProperties, schema.not];
  for (const key of ["prefixItems", "anyOf", "oneOf", "allOf"]) {
    if (Array.isArray(schema[key])) subs.push(...(schema[key] as unknown[]));
  }
  if (Array.isArray(schema.items)) subs.push(...schema.items);
  if (isPlainObject(schema.properties)) subs.push(...Object.values(schema.properties));
  for (const key of ["$defs", "definitions"]) {
    if (isPlainObject(schema[key])) subs.push(...Object.values(schema[key]));
  }
  for (const sub of subs) collectUnsupported(sub, out);
}

/** How many `$ref`s may be followed in a row (a cycle that consumes no data stops here). */
const MAX_REF_DEPTH = 64;

class Checker {
  #refs = 0;
  constructor(private readonly root: unknown) {}

  check(schema: unknown, value: unknown, pointer: string, out: SchemaViolation[]): void {
    if (schema === true || schema === undefined) return;
    if (schema === false) {
      out.push({ pointer, message: "no value is allowed here (schema is false)" });
      return;
    }
    if (!isPlainObject(schema)) return;
    const add = (message: string, at = pointer) => out.push({ pointer: at, message });
    if (typeof schema.$ref === "string") {
      const target = resolveSchemaRef(this.root, schema.$ref);
      if ("problem" in target) add(target.problem);
      else if (this.#refs >= MAX_REF_DEPTH) add(`$ref '${schema.$ref}' nests too deeply`);
      else {
        this.#refs++;
        this.check(target.schema, value, pointer, out);
        this.#refs--;
      }
    }

    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? schema.type.map(String) : [String(schema.type)];
      if (!types.some((t) => hasType(value, t))) {
        add(`expected ${types.join(" or ")}, found ${typeOf(value)}`);
        return; // further keywords would only repeat the type problem
      }
    }
    if (Array.isArray(schema.enum) && !schema.enum.some((e) => deepEqual(e, value))) {
      add(
        `expected one of ${schema.enum.map((e) => preview(e, 30)).join(", ")}, found ${
          preview(value)
        }`,
      );
    }
    if ("const" in schema && !deepEqual(schema.const, value)) {
      add(`expected ${preview(schema.const)}, found ${preview(value)}`);
    }
    if (typeof value === "number") this.checkNumber(schema, value, add);
    if (typeof value === "string") this.checkString(schema, value, add);
    if (Array.isArray(value)) this.checkArray(schema, value, pointer, out);
    if (isPlainObject(value)) this.checkObject(schema, value, pointer, out);
    this.checkCombinators(schema, value, pointer, out);
  }

  private checkNumber(s: Record<string, unknown>, v: number, add: (m: string) => void) {
    if (typeof s.minimum === "number" && v < s.minimum) add(`${v} is below minimum ${s.minimum}`);
    if (typeof s.maximum === "number" && v > s.maximum) add(`${v} is above maximum ${s.maximum}`);
    if (typeof s.exclusiveMinimum === "number" && v <= s.exclusiveMinimum) {
      add(`${v} must be greater than ${s.exclusiveMinimum}`);
    }
    if (typeof s.exclusiveMaximum === "number" && v >= s.exclusiveMaximum) {
      add(`${v} must be less than ${s.exclusiveMaximum}`);
    }
  }

  private checkString(s: Record<string, unknown>, v: string, add: (m: string) => void) {
    const length = [...v].length;
    if (typeof s.minLength === "number" && length < s.minLength) {
      add(`string is ${length} characters, shorter than minLength ${s.minLength}`);
    }
    if (typeof s.maxLength === "number" && length > s.maxLength) {
      add(`string is ${length} characters, longer than maxLength ${s.maxLength}`);
    }
    if (typeof s.pattern === "string") {
      let re: LinearRegex;
      try {
        re = compileLinearRegex(s.pattern);
      } catch (e) {
        add(`schema pattern ${preview(s.pattern)} cannot be used: ${(e as Error).message}`);
        return;
      }
      if (!re.test(v)) add(`${preview(v)} does not match pattern ${preview(s.pattern)}`);
    }
  }

  private checkArray(s: Record<string, unknown>, v: unknown[], at: string, out: SchemaViolation[]) {
    if (typeof s.minItems === "number" && v.length < s.minItems) {
      out.push({ pointer: at, message: `${v.length} items, fewer than minItems ${s.minItems}` });
    }
    if (typeof s.maxItems === "number" && v.length > s.maxItems) {
      out.push({ pointer: at, message: `${v.length} items, more than maxItems ${s.maxItems}` });
    }
    const tuple = Array.isArray(s.prefixItems)
      ? s.prefixItems
      : Array.isArray(s.items)
      ? s.items
      : undefined;
    const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
    v.forEach((item, i) => {
      const itemSchema = tuple !== undefined && i < tuple.length ? tuple[i] : rest;
      this.check(itemSchema, item, `${at}/${i}`, out);
    });
  }

  private checkObject(
    s: Record<string, unknown>,
    v: Record<string, unknown>,
    at: string,
    out: SchemaViolation[],
  ) {
    const props = isPlainObject(s.properties) ? s.properties : {};
    if (Array.isArray(s.required)) {
      for (const key of s.required.map(String)) {
        if (!Object.hasOwn(v, key)) {
          out.push({ pointer: `${at}/${token(key)}`, message: "required property is missing" });
        }
      }
    }
    for (const [key, value] of Object.entries(v)) {
      const child = `${at}/${token(key)}`;
      if (Object.hasOwn(props, key)) {
        this.check(props[key], value, child, out);
      } else if (s.additionalProperties === false) {
        out.push({ pointer: child, message: "property is not allowed (additionalProperties)" });
      } else if (isPlainObject(s.additionalProperties)) {
        this.check(s.additionalProperties, value, child, out);
      }
    }
  }

  private checkCombinators(
    s: Record<string, unknown>,
    v: unknown,
    at: string,
    out: SchemaViolation[],
  ) {
    if (Array.isArray(s.allOf)) { for (const sub of s.allOf) this.check(sub, v, at, out); }
    const failures = (subs: unknown[]) =>
      subs.map((sub) => {
        const found: SchemaViolation[] = [];
        this.check(sub, v, at, found);
        return found;
      });
    const first = (list: SchemaViolation[][]) => {
      const f = list.find((l) => l.length > 0)?.[0];
      return f ? ` (first: ${f.pointer || "(root)"}: ${f.message})` : "";
    };
    if (Array.isArray(s.anyOf)) {
      const results = failures(s.anyOf);
      if (!results.some((r) => r.length === 0)) {
        out.push({
          pointer: at,
          message: `matches none of the ${s.anyOf.length} anyOf schemas${first(results)}`,
        });
      }
    }
    if (Array.isArray(s.oneOf)) {
      const results = failures(s.oneOf);
      const passing = results.filter((r) => r.length === 0).length;
      if (passing === 0) {
        out.push({
          pointer: at,
          message: `matches none of the ${s.oneOf.length} oneOf schemas${first(results)}`,
        });
      } else if (passing > 1) {
        out.push({
          pointer: at,
          message: `matches ${passing} of the oneOf schemas; expected exactly one`,
        });
      }
    }
    if (s.not !== undefined) {
      const found: SchemaViolation[] = [];
      this.check(s.not, v, at, found);
      if (found.length === 0) out.push({ pointer: at, message: "must not match the `not` schema" });
    }
  }
}

/**
 * Validates a JSON value against a JSON Schema (the subset listed in the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkJsonSchema } from "./json_schema_check.ts";
 * const r = checkJsonSchema(
 *   { type: "object", required: ["name"], properties: { age: { type: "integer", minimum: 0 } } },
 *   { age: -1 },
 * );
 * assert.deepEqual(r.violations.map((v) => v.pointer), ["/name", "/age"]);
 * ```
 */
export function checkJsonSchema(schema: unknown, value: unknown): SchemaCheck {
  const violations: SchemaViolation[] = [];
  new Checker(schema).check(schema, value, "", violations);
  const unsupported = new Set<string>();
  collectUnsupported(schema, unsupported);
  return { violations, unsupported: [...unsupported].sort() };
}
