/**
 * `${{ VAR }}` references in target settings and the `.env` files they are read from.
 *
 * Precedence: the process environment wins over every `.env`; among `.env` files, the one
 * nearest the eval file wins over outer ones (the original tool had this inverted).
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { ConfinedReadError, readConfinedText } from "../fs/read_confined.ts";
import { isInside } from "../fs/resolve.ts";

/** A `${{ VAR }}` reference anywhere in a string. */
const ENV_REF = /\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** A string that is exactly one `${{ VAR }}` reference. */
const WHOLE_REF = /^\s*\$\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}\s*$/;

/** A reference whose variable is unset or blank. */
export interface MissingEnvRef {
  /** Variable name. */
  name: string;
  /** Path of the setting, e.g. `["healthcheck", "url"]`. */
  path: (string | number)[];
  /** Whether the reference was the whole value (not embedded in a longer string). */
  whole: boolean;
}

/** A reference that was substituted. */
export interface UsedEnvRef {
  /** Variable name. */
  name: string;
  /** Path of the setting. */
  path: (string | number)[];
  /** The substituted value. */
  value: string;
}

/** Result of {@link interpolateEnv}. */
export interface Interpolation<T> {
  /** The value with every resolvable reference substituted (missing ones left as written). */
  value: T;
  /** References to unset or blank variables. */
  missing: MissingEnvRef[];
  /** References that were substituted. */
  used: UsedEnvRef[];
}

/**
 * Substitutes `${{ VAR }}` references in every string of `value` (recursively), whole values and
 * inside longer strings. A whole-value reference yields the variable's value untrimmed. Unset
 * or blank variables are reported in `missing`, never replaced by an empty string.
 *
 * @example
 * ```ts
 * import { interpolateEnv } from "./env.ts";
 * const r = interpolateEnv({ url: "http://${{ HOST }}/v1" }, { HOST: "127.0.0.1:8080" });
 * r.value; // { url: "http://127.0.0.1:8080/v1" }
 * ```
 */
export function interpolateEnv<T>(
  value: T,
  env: Readonly<Record<string, string>>,
): Interpolation<T> {
  const missing: MissingEnvRef[] = [];
  const used: UsedEnvRef[] = [];
  const walk = (v: unknown, path: (string | number)[]): unknown => {
    if (typeof v === "string") {
      const whole = WHOLE_REF.exec(v);
      if (whole) {
        const found = lookup(env, whole[1]);
        if (found === undefined) {
          missing.push({ name: whole[1], path, whole: true });
          return v;
        }
        used.push({ name: whole[1], path, value: found });
        return found;
      }
      return v.replace(ENV_REF, (text, name: string) => {
        const found = lookup(env, name);
        if (found === undefined) {
          missing.push({ name, path, whole: false });
          return text;
        }
        used.push({ name, path, value: found });
        return found;
      });
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...path, i]));
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(
        Object.entries(v).map(([k, item]) => [k, walk(item, [...path, k])]),
      );
    }
    return v;
  };
  return { value: walk(value, []) as T, missing, used };
}

function lookup(env: Readonly<Record<string, string>>, name: string): string | undefined {
  const value = Object.hasOwn(env, name) ? env[name] : undefined;
  return value === undefined || value.trim() === "" ? undefined : value;
}

/**
 * Parses `.env` text: `KEY=value`, optional `export `, `#` comments, single-, double- (with
 * `\n`-style escapes) and back-quoted values that may span lines.
 */
export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const src = text.replace(/\r\n?/g, "\n");
  const line = /^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*=[ \t]*/gm;
  let match: RegExpExecArray | null;
  while ((match = line.exec(src)) !== null) {
    const key = match[1];
    let pos = line.lastIndex;
    const quote = src[pos];
    let value: string;
    if (quote === '"' || quote === "'" || quote === "`") {
      let end = pos + 1;
      while (end < src.length && src[end] !== quote) {
        end += src[end] === "\\" && quote === '"' ? 2 : 1;
      }
      const raw = src.slice(pos + 1, end);
      value = quote === '"' ? unescape(raw) : raw;
      pos = end + 1;
      const eol = src.indexOf("\n", pos);
      line.lastIndex = eol === -1 ? src.length : eol;
    } else {
      const eol = src.indexOf("\n", pos);
      const rest = src.slice(pos, eol === -1 ? src.length : eol);
      value = rest.replace(/(^|[ \t])#.*$/, "").trim();
      line.lastIndex = eol === -1 ? src.length : eol;
    }
    out[key] = value;
  }
  return out;
}

function unescape(raw: string): string {
  return raw.replace(
    /\\([nrt"\\])/g,
    (_, c: string) => c === "n" ? "\n" : c === "r" ? "\r" : c === "t" ? "\t" : c,
  );
}

/**
 * Reads every `.env` from `root` down to `fromDir` (the eval file's folder) and merges them; the
 * nearest file wins for keys defined in several. Nothing outside `root` is read: when `fromDir`
 * is outside it, only `root`'s own `.env` is. A `.env` that links outside the root, is not a
 * regular file (a FIFO, a device), is over 1 MiB or is not UTF-8 throws a `ConfinedReadError`
 * (its values are never used).
 *
 * @example
 * ```ts
 * import { loadDotEnv, mergeEnv } from "./env.ts";
 * const env = mergeEnv(await loadDotEnv("evals/sub", "."), Deno.env.toObject());
 * ```
 */
export async function loadDotEnv(fromDir: string, root: string): Promise<Record<string, string>> {
  const top = resolve(root);
  const dirs: string[] = [];
  let dir = resolve(fromDir);
  if (!isInside(dir, top)) dir = top;
  for (;;) {
    dirs.push(dir);
    const parent = dirname(dir);
    if (dir === top || parent === dir) break;
    dir = parent;
  }
  const merged: Record<string, string> = {};
  for (const d of dirs.reverse()) {
    const read = await readConfinedText(join(d, ".env"), { label: ".env file", root: top });
    if (read.ok) Object.assign(merged, parseDotEnv(read.text));
    else if (read.reason === "refused" || read.reason === "invalid") {
      // No line: an excerpt of a `.env` file would show a secret.
      const { line: _line, column: _column, ...diagnostic } = read.diagnostic;
      throw new ConfinedReadError(diagnostic);
    }
  }
  return merged;
}

/** The environment targets see: `.env` values overridden by the process environment. */
export function mergeEnv(
  dotEnv: Readonly<Record<string, string>>,
  processEnv: Readonly<Record<string, string>>,
): Record<string, string> {
  return { ...dotEnv, ...processEnv };
}

/** Any `${{ ... }}`, valid or not. */
const ANY_REF = /\$\{\{([^{}]*)\}\}/g;

/** A valid variable name inside `${{ }}`. */
const VAR_NAME = /^\s*[A-Za-z_][A-Za-z0-9_]*\s*$/;

/**
 * Every `${{ ... }}` in the strings of `value` whose content is not a variable name (e.g.
 * `${{ 1BAD }}`, `${{ }}`, `${{ A-B }}`): such a reference would otherwise be sent literally.
 *
 * @example
 * ```ts
 * import { invalidEnvRefs } from "./env.ts";
 * invalidEnvRefs({ api_key: "${{ 1BAD }}" }); // [{ text: "${{ 1BAD }}", path: ["api_key"] }]
 * ```
 */
export function invalidEnvRefs(value: unknown): { text: string; path: (string | number)[] }[] {
  const found: { text: string; path: (string | number)[] }[] = [];
  const walk = (v: unknown, path: (string | number)[]): void => {
    if (typeof v === "string") {
      for (const match of v.matchAll(ANY_REF)) {
        if (!VAR_NAME.test(match[1])) found.push({ text: match[0], path });
      }
    } else if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...path, i]));
    else if (v !== null && typeof v === "object") {
      for (const [k, item] of Object.entries(v)) walk(item, [...path, k]);
    }
  };
  walk(value, []);
  return found;
}

/**
 * Removes the settings whose value needs an unset secret variable (`api_key`, a header, a
 * variable whose name matches `secretVar`) from `resolved`, for a target that makes no call
 * (`--replay`); returns the other missing references.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dropSecretRefs, interpolateEnv } from "./env.ts";
 * const { value, missing } = interpolateEnv({ api_key: "${{ KEY }}", model: "${{ MODEL }}" }, {});
 * const rest = dropSecretRefs(value, missing, /KEY/);
 * assert.deepEqual([Object.keys(value), rest.map((r) => r.name)], [["model"], ["MODEL"]]);
 * ```
 */
export function dropSecretRefs(
  resolved: Record<string, unknown>,
  missing: MissingEnvRef[],
  secretVar: RegExp,
): MissingEnvRef[] {
  const rest: MissingEnvRef[] = [];
  for (const ref of missing) {
    const secret = ref.path[0] === "api_key" || ref.path[0] === "headers" ||
      secretVar.test(ref.name);
    if (!secret || ref.path.length === 0) {
      rest.push(ref);
      continue;
    }
    let parent: unknown = resolved;
    for (const part of ref.path.slice(0, -1)) {
      parent = (parent as Record<string | number, unknown> | undefined)?.[part];
    }
    const last = ref.path[ref.path.length - 1];
    if (parent !== null && typeof parent === "object" && !Array.isArray(parent)) {
      delete (parent as Record<string | number, unknown>)[last];
    } else rest.push(ref);
  }
  return rest;
}
