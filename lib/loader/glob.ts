/**
 * Glob patterns: `*`, `**`, `?`, `{a,b}` and `[...]` classes. A glob is translated into a regular
 * expression matched by a linear-time (RE2-class) engine, so no pattern (`--filter`,
 * `guideline_patterns`) and no path can make matching take more than linear time.
 *
 * @module
 */
import { compileLinearRegex, type LinearRegex } from "../text/linear_regex.ts";

/**
 * Compiles a glob into an anchored, linear-time matcher over `/`-separated paths. `*` and `?`
 * never cross a `/`; `**` as a whole segment matches any number of segments (including none);
 * `{a,b}` alternatives may nest; `[abc]`, `[a-z]` and `[!a]` are character classes.
 *
 * @example
 * ```ts
 * globToRegExp("**\/*.instructions.md").test("docs/python.instructions.md"); // true
 * globToRegExp("evals/{a,b}.yaml").test("evals/b.yaml"); // true
 * ```
 */
export function globToRegExp(pattern: string): LinearRegex {
  return compileLinearRegex(`^${translate(pattern.replaceAll("\\", "/"))}$`);
}

const cache = new Map<string, LinearRegex>();

/**
 * Whether `path` matches the glob (backslashes in `path` count as `/`). Compiled patterns are
 * cached.
 *
 * @example
 * ```ts
 * matchGlob("case-*", "case-12"); // true
 * matchGlob("src/**", "src/a/b.ts"); // true
 * ```
 */
export function matchGlob(pattern: string, path: string): boolean {
  let re = cache.get(pattern);
  if (!re) {
    re = globToRegExp(pattern);
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
 * globProblem("case-[0-9]*"); // undefined
 * globProblem("[z-a]"); // "glob '[z-a]' is invalid: ..."
 * ```
 */
export function globProblem(pattern: string): string | undefined {
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
