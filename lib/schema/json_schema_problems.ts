/**
 * Checks a `json_schema` evaluator's own schema when the eval file is loaded: keywords with values
 * of the wrong shape (e.g. `type: strin`, `required: name`) and `$ref`s that point at nothing
 * would otherwise make every answer score 0, silently. Also resolves local `$ref`s (`#`,
 * `#/$defs/...`, any JSON pointer into the schema) for the validator.
 *
 * @module
 */

/** A problem in a JSON Schema, at a path inside it. */
export interface JsonSchemaProblem {
  /** Path inside the schema (keys and indexes). */
  path: (string | number)[];
  /** What is wrong; what was expected; how to fix. */
  message: string;
}

const TYPES = ["string", "number", "integer", "boolean", "object", "array", "null"];
const SCHEMA_MAPS = ["properties", "$defs", "definitions", "patternProperties"];
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SCHEMAS = ["additionalProperties", "not", "contains", "if", "then", "else"];
const NUMBERS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
const COUNTS = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"];
/** How many `$ref`s may be followed in a row before the chain counts as a cycle. */
const MAX_REF_CHAIN = 32;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "a mapping" : `${typeof value} ${JSON.stringify(value)}`;
}

/**
 * The value a local `$ref` points at inside `root`, or why it cannot be resolved. Only references
 * into the same schema (`#` and `#/json/pointer`) are supported.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(resolveSchemaRef({ $defs: { id: { type: "string" } } }, "#/$defs/id"), {
 *   schema: { type: "string" },
 * });
 * const outside = resolveSchemaRef({}, "other.json");
 * assert.match("problem" in outside ? outside.problem : "", /^\$ref 'other\.json' cannot be resolved/);
 * ```
 */
export function resolveSchemaRef(
  root: unknown,
  ref: string,
): { schema: unknown } | { problem: string } {
  if (ref !== "#" && !ref.startsWith("#/")) {
    return {
      problem:
        `$ref '${ref}' cannot be resolved: only references inside this schema ('#' or '#/$defs/<name>') are supported; copy the referenced schema under $defs and point at it`,
    };
  }
  let node: unknown = root;
  const tokens = ref === "#" ? [] : ref.slice(2).split("/");
  for (const raw of tokens) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      token = raw;
    }
    if (Array.isArray(node) && /^\d+$/.test(token) && Number(token) < node.length) {
      node = node[Number(token)];
    } else if (isObject(node) && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      return {
        problem:
          `$ref '${ref}' points at nothing in this schema (no '${token}'); define it under $defs or fix the reference`,
      };
    }
  }
  if (typeof node !== "boolean" && !isObject(node)) {
    return { problem: `$ref '${ref}' points at ${kind(node)}, not a schema; point it at a schema` };
  }
  return { schema: node };
}

/**
 * Every problem of a JSON Schema that would make the `json_schema` evaluator score wrongly: a
 * keyword whose value has the wrong shape, an unknown `type`, or a `$ref` that cannot be resolved
 * or only leads to other `$ref`s in a cycle.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const [problem] = jsonSchemaProblems({ type: "strin" });
 * assert.deepEqual(problem.path, ["type"]);
 * assert.match(problem.message, /^type 'strin' is not a JSON Schema type; did you mean 'string'\?/);
 * ```
 */
export function jsonSchemaProblems(schema: unknown): JsonSchemaProblem[] {
  const problems: JsonSchemaProblem[] = [];
  const walk = (node: unknown, path: (string | number)[]): void => {
    if (typeof node === "boolean") return;
    if (!isObject(node)) {
      problems.push({
        path,
        message: `a schema must be a mapping (or true/false), found ${
          kind(node)
        }; write a mapping such as {type: string}`,
      });
      return;
    }
    const add = (key: string | number, message: string) =>
      problems.push({ path: [...path, key], message });
    if ("type" in node) checkType(node.type, (m) => add("type", m));
    if ("required" in node) {
      const r = node.required;
      if (!Array.isArray(r) || r.some((k) => typeof k !== "string")) {
        add(
          "required",
          `required must be a list of property names, found ${kind(r)}; write e.g. [name, age]`,
        );
      }
    }
    if ("enum" in node && !Array.isArray(node.enum)) {
      add("enum", `enum must be a list of allowed values, found ${kind(node.enum)}`);
    }
    for (const key of NUMBERS) {
      if (key in node && typeof node[key] !== "number") {
        add(key, `${key} must be a number, found ${kind(node[key])}`);
      }
    }
    for (const key of COUNTS) {
      const v = node[key];
      if (key in node && !(typeof v === "number" && Number.isInteger(v) && v >= 0)) {
        add(key, `${key} must be a whole number >= 0, found ${kind(v)}`);
      }
    }
    if ("pattern" in node && typeof node.pattern !== "string") {
      add(
        "pattern",
        `pattern must be a string (a regular expression), found ${kind(node.pattern)}`,
      );
    }
    for (const key of SCHEMA_MAPS) {
      if (!(key in node)) continue;
      const map = node[key];
      if (!isObject(map)) {
        add(key, `${key} must be a mapping of names to schemas, found ${kind(map)}`);
        continue;
      }
      for (const [name, sub] of Object.entries(map)) walk(sub, [...path, key, name]);
    }
    for (const key of SCHEMA_LISTS) {
      if (!(key in node)) continue;
      const list = node[key];
      if (!Array.isArray(list) || list.length === 0) {
        add(key, `${key} must be a non-empty list of schemas, found ${kind(list)}`);
        continue;
      }
      list.forEach((sub, i) => walk(sub, [...path, key, i]));
    }
    for (const key of SCHEMAS) if (key in node) walk(node[key], [...path, key]);
    if ("items" in node) {
      const items = node.items;
      if (Array.isArray(items)) items.forEach((sub, i) => walk(sub, [...path, "items", i]));
      else walk(items, [...path, "items"]);
    }
    if ("$ref" in node) checkRef(node.$ref, (m) => add("$ref", m));
  };
  const checkRef = (ref: unknown, add: (m: string) => void) => {
    if (typeof ref !== "string") {
      add(`$ref must be a string such as '#/$defs/name', found ${kind(ref)}`);
      return;
    }
    const seen = new Set<string>();
    let current = ref;
    for (let hop = 0; hop < MAX_REF_CHAIN; hop++) {
      if (seen.has(current)) {
        add(`$ref '${ref}' only leads to itself ('${current}' again); point it at a real schema`);
        return;
      }
      seen.add(current);
      const target = resolveSchemaRef(schema, current);
      if ("problem" in target) {
        add(target.problem);
        return;
      }
      const next = isObject(target.schema) ? target.schema.$ref : undefined;
      if (typeof next !== "string") return;
      current = next;
    }
    add(`$ref '${ref}' starts a chain of more than ${MAX_REF_CHAIN} references; shorten it`);
  };
  walk(schema, []);
  return problems;
}

function checkType(type: unknown, add: (message: string) => void): void {
  const names = Array.isArray(type) ? type : [type];
  if (names.length === 0) {
    add(`type must name at least one of ${TYPES.join(", ")}`);
    return;
  }
  for (const name of names) {
    if (typeof name === "string" && TYPES.includes(name)) continue;
    const close = typeof name === "string"
      ? TYPES.find((t) => t.startsWith(name.toLowerCase().slice(0, 3)))
      : undefined;
    add(
      `type ${typeof name === "string" ? `'${name}'` : kind(name)} is not a JSON Schema type${
        close ? `; did you mean '${close}'?` : ""
      }; expected one of ${TYPES.join(", ")}`,
    );
  }
}
