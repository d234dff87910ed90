/**
 * Glob patterns: `*`, `**`, `?`, `{a,b}` and `[...]` classes. A glob is translated into a regular
 * expression matched by a linear-time (RE2-class) engine, so no pattern (`--filter`,
 * `guideline_patterns`) and no path can make matching take more than linear time.
 *
 * @module
 */
import { compileLinearRegex, type LinearRegex, loadLinearRegex } from "./linear_regex.ts";

/**
 * A glob that needs no regex engine: an optional leading `**\/` and one segment of literal
 * characters and single `*`s (the default guideline patterns, `case-*`). Anything else is
 * compiled for the linear-time engine, which {@link loadGlobs} loads.
 */
const SIMPLE_GLOB = /^(?:\*\*\/)?(?:[^*?[{}\]\\/]|\*(?!\*))*$/;

/** A compiled glob. */
interface GlobMatcher {
  test(path: string): boolean;
}

/**
 * Loads what matching `patterns` needs: nothing for simple globs (see {@link matchGlob}), the
 * linear-time regex engine for the others. {@link matchGlob}, {@link globToRegExp} and
 * {@link globProblem} need it to have resolved for patterns that are not simple.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * await loadGlobs(["evals/{a,b}.yaml"]);
 * assert.equal(matchGlob("evals/{a,b}.yaml", "evals/b.yaml"), true);
 * ```
 */
export async function loadGlobs(patterns: readonly string[]): Promise<void> {
  if (patterns.some((p) => !SIMPLE_GLOB.test(p.replaceAll("\\", "/")))) await loadLinearRegex();
}

/** A matcher for a simple glob (see {@link SIMPLE_GLOB}), or `undefined` for another glob. */
function simpleGlob(pattern: string): GlobMatcher | undefined {
  const p = pattern.replaceAll("\\", "/");
  if (!SIMPLE_GLOB.test(p)) return undefined;
  const anyFolder = p.startsWith("**/");
  const parts = (anyFolder ? p.slice(3) : p).split("*");
  return {
    test(path) {
      const slash = path.lastIndexOf("/");
      if (slash !== -1 && !anyFolder) return false;
      return matchStars(parts, path.slice(slash + 1));
    },
  };
}

/**
 * Whether `name` (no `/`) matches the literal `parts` joined by `*`s. For star-only patterns
 * taking each middle part at its first place after the previous one is correct, so this is a
 * few `indexOf` calls, never backtracking.
 */
function matchStars(parts: readonly string[], name: string): boolean {
  const first = parts[0];
  if (parts.length === 1) return name === first;
  const last = parts[parts.length - 1];
  if (name.length < first.length + last.length) return false;
  if (!name.startsWith(first) || !name.endsWith(last)) return false;
  let at = first.length;
  const end = name.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const found = name.indexOf(parts[i], at);
    if (found === -1 || found + parts[i].length > end) return false;
    at = found + parts[i].length;
  }
  return true;
}

/**
 * Compiles a glob into an anchored, linear-time matcher over `/`-separated paths. `*` and `?`
 * never cross a `/`; `**` as a whole segment matches any number of segments (including none);
 * `{a,b}` alternatives may nest; `[abc]`, `[a-z]` and `[!a]` are character classes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * await loadGlobs(["evals/{a,b}.yaml"]);
 * assert.ok(globToRegExp("**\/*.instructions.md").test("docs/python.instructions.md"));
 * assert.ok(globToRegExp("evals/{a,b}.yaml").test("evals/b.yaml"));
 * ```
 */
export function globToRegExp(pattern: string): LinearRegex {
  return compileLinearRegex(`^${translate(pattern.replaceAll("\\", "/"))}$`);
}

const cache = new Map<string, GlobMatcher>();

/**
 * Whether `path` matches the glob (backslashes in `path` count as `/`). Compiled patterns are
 * cached. A glob that is not simple needs {@link loadGlobs} first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.ok(matchGlob("case-*", "case-12")); // a simple glob: no engine needed
 * await loadGlobs(["src/**"]);
 * assert.ok(matchGlob("src/**", "src/a/b.ts"));
 * ```
 */
export function matchGlob(pattern: string, path: string): boolean {
  let re = cache.get(pattern);
  if (!re) {
    re = simpleGlob(pattern) ?? globToRegExp(pattern);
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, re);
  }
  return re.test(path.replaceAll("\\", "/"));
}

/**
 * Why `pattern` is not a usable glob (e.g. a class range out of order, `[z-a]`), or `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * await loadGlobs(["case-[0-9]*"]);
 * assert.equal(globProblem("case-[0-9]*"), undefined);
 * assert.match(globProblem("[z-a]") ?? "", /^glob '\[z-a\]' is invalid: /);
 * ```
 */
export function globProblem(pattern: string): string | undefined {
  if (simpleGlob(pattern) !== undefined) return undefined;
  try {
    globToRegExp(pattern);
    return undefined;
  } catch (e) {
    return `glob '${pattern}' is invalid: ${(e as Error).message}`;
  }
}

export { hasGlobSyntax } from "./glob_syntax.ts";

function translate(p: string): string {
  let out = "";
  let i = 0;
  while (i < p.length) {
    const c = p[i];
    if (c === "*") {
      if (p[i + 1] === "*") {
        const atStart = i === 0 || p[i - 1] === "/";
        let j = i;
        while (p[j] === "*") j++;
        const atEnd = j === p.length || p[j] === "/";
        if (atStart && atEnd) {
          if (j === p.length) {
            out += ".*";
            i = j;
          } else {
            out += "(?:[^/]*/)*";
            i = j + 1;
          }
          continue;
        }
        out += "[^/]*";
        i = j;
        continue;
      }
      out += "[^/]*";
      i++;
    } else if (c === "?") {
      out += "[^/]";
      i++;
    } else if (c === "[") {
      const end = p.indexOf("]", i + 2);
      if (end === -1) {
        out += "\\[";
        i++;
        continue;
      }
      let body = p.slice(i + 1, end);
      let negate = false;
      if (body[0] === "!" || body[0] === "^") {
        negate = true;
        body = body.slice(1);
      }
      body = body.replace(/[\\\]^[]/g, "\\$&").replace(/\//g, "");
      out += negate ? `[^/${body}]` : `[${body}]`;
      i = end + 1;
    } else if (c === "{") {
      const end = matchingBrace(p, i);
      if (end === -1) {
        out += "\\{";
        i++;
        continue;
      }
      const parts = splitTopLevel(p.slice(i + 1, end));
      out += `(?:${parts.map(translate).join("|")})`;
      i = end + 1;
    } else {
      out += c.replace(/[.+^$()|\\\]}]/g, "\\$&");
      i++;
    }
  }
  return out;
}

function matchingBrace(p: string, start: number): number {
  let depth = 0;
  for (let i = start; i < p.length; i++) {
    if (p[i] === "{") depth++;
    else if (p[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const c of body) {
    if (c === "{") depth++;
    if (c === "}") depth--;
    if (c === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts;
}
