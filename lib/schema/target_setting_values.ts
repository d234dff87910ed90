/**
 * Value helpers of target settings schemas: in `file` mode a `${{ VAR }}` string stands for any
 * value; numbers and booleans also accept numeric / boolean strings (values from the environment
 * are strings). Used by the per-provider schemas of `target_settings.ts`.
 *
 * @module
 */
import { z } from "zod";

/** A whole-value `${{ VAR }}` reference. */
export const WHOLE_ENV_REF = /^\s*\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}\s*$/;

/** A string holding a `${{ VAR }}` reference somewhere (e.g. `http://127.0.0.1:${{ PORT }}/v1`). */
const EMBEDDED_ENV_REF = /\$\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\}/;

/** `file`: values may still be `${{ VAR }}` references; `resolved`: every reference substituted. */
export type SchemaMode = "file" | "resolved";

/** A numeric string as a number; any other value unchanged. */
export function coerceNumber(v: unknown): unknown {
  return typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
}

/** `true`/`1` and `false`/`0` strings (any case) as booleans; any other value unchanged. */
function coerceBoolean(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const s = v.trim().toLowerCase();
  return s === "true" || s === "1" ? true : s === "false" || s === "0" ? false : v;
}

/** In `file` mode `schema` or a `${{ VAR }}` string (typed as `schema`: resolved values are). */
function withEnv<T extends z.ZodType>(mode: SchemaMode, schema: T, message: string): T {
  if (mode === "resolved") return schema;
  const envRef = z.string({ error: message }).regex(WHOLE_ENV_REF, { error: message });
  return z.union([schema, envRef], { error: message }) as unknown as T;
}

/**
 * An optional number (an integer with `int`), within `min`/`max` when given; numeric strings
 * accepted, and `${{ VAR }}` references in `file` mode. Messages name `what`.
 */
export function num(
  mode: SchemaMode,
  what: string,
  opts: { min?: number; max?: number; int?: boolean } = {},
) {
  const range = opts.min !== undefined && opts.max !== undefined
    ? ` between ${opts.min} and ${opts.max}`
    : opts.min !== undefined
    ? ` >= ${opts.min}`
    : "";
  const message = `${what} must be ${opts.int ? "an integer" : "a number"}${range}`;
  let schema = opts.int ? z.int({ error: message }) : z.number({ error: message });
  if (opts.min !== undefined) schema = schema.min(opts.min, { error: message });
  if (opts.max !== undefined) schema = schema.max(opts.max, { error: message });
  return z.preprocess(coerceNumber, withEnv(mode, schema, message)).optional();
}

/** An optional number > 0 (numeric strings and, in `file` mode, references accepted). */
export function positive(mode: SchemaMode, what: string) {
  const message = `${what} must be a number > 0`;
  return z.preprocess(
    coerceNumber,
    withEnv(mode, z.number({ error: message }).positive({ error: message }), message),
  ).optional();
}

/** An optional boolean (`true`/`false`/`1`/`0` strings and, in `file` mode, references accepted). */
export function bool(mode: SchemaMode, what: string) {
  const message = `${what} must be true or false`;
  return z.preprocess(coerceBoolean, withEnv(mode, z.boolean({ error: message }), message))
    .optional();
}

/** A string, with a message naming `what`. */
export function str(what: string) {
  return z.string({ error: `${what} must be a string` });
}

/**
 * An optional http(s) URL. In `file` mode a string holding a `${{ VAR }}` reference anywhere is
 * accepted as written: the URL it makes is checked once the reference is substituted (`resolved`
 * mode, when the target is created), so `http://127.0.0.1:${{ PORT }}/v1` is no error.
 */
export function url(mode: SchemaMode, what: string) {
  const message = `${what} must be an http(s) URL, e.g. http://127.0.0.1:8000/v1`;
  const shape = z.string({ error: message }).regex(/^https?:\/\/\S+$/i, { error: message });
  if (mode === "resolved") return shape.optional();
  const withRef = z.string({ error: message }).regex(EMBEDDED_ENV_REF, { error: message });
  return z.union([shape, withRef], { error: message }).optional();
}

/** A mapping of names to strings, with messages naming `what`. */
export const stringMap = (what: string) =>
  z.record(z.string(), z.string({ error: `values of ${what} must be strings` }), {
    error: `${what} must be a mapping of names to strings`,
  });
