/**
 * What a module judge may import, checked before it runs: only files inside the dataset root,
 * named by a literal relative, absolute or `file:` path. Every other specifier (`npm:`, `jsr:`,
 * `node:`, `https:`, `data:`, a bare package name) and every `import()` whose specifier is
 * computed is refused, so nothing is fetched on a judge's behalf. The judge host's own flags
 * (`--no-remote --no-npm`, read of the root only) stop what a check of the source cannot see.
 *
 * The scan is a small lexer (comments, strings, template literals, regular expressions) that
 * finds `import … from "x"`, `export … from "x"`, `import "x"` and `import(…)`.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isInside } from "../fs/resolve.ts";

/** One import found in a module's source. */
export interface ModuleImport {
  /** The specifier; absent for an `import()` whose argument is not a literal string. */
  specifier?: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

const REGEX_AFTER_WORDS = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

/** A cursor over source text that skips what is not code. */
class Cursor {
  i = 0;
  constructor(readonly text: string) {}

  /** Skips white space and comments. */
  skipBlank(): void {
    const t = this.text;
    while (this.i < t.length) {
      const c = t[this.i];
      if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\ufeff") this.i++;
      else if (c === "/" && t[this.i + 1] === "/") {
        const end = t.indexOf("\n", this.i);
        this.i = end < 0 ? t.length : end;
      } else if (c === "/" && t[this.i + 1] === "*") {
        const end = t.indexOf("*/", this.i + 2);
        this.i = end < 0 ? t.length : end + 2;
      } else return;
    }
  }

  /** Reads a quoted string starting at the cursor; `undefined` for a template with `${`. */
  readString(): string | undefined {
    const t = this.text;
    const quote = t[this.i++];
    let value = "";
    while (this.i < t.length && t[this.i] !== quote) {
      if (t[this.i] === "\\") {
        value += t[this.i + 1] ?? "";
        this.i += 2;
        continue;
      }
      if (quote === "`" && t[this.i] === "$" && t[this.i + 1] === "{") return undefined;
      value += t[this.i++];
    }
    this.i++;
    return value;
  }

  /** Skips a regular expression literal starting at the cursor. */
  skipRegex(): void {
    const t = this.text;
    let inClass = false;
    this.i++;
    while (this.i < t.length && t[this.i] !== "\n") {
      const c = t[this.i++];
      if (c === "\\") this.i++;
      else if (c === "[") inClass = true;
      else if (c === "]") inClass = false;
      else if (c === "/" && !inClass) break;
    }
  }

  position(at: number): { line: number; column: number } {
    const before = this.text.slice(0, at);
    const line = before.split("\n").length;
    return { line, column: at - before.lastIndexOf("\n") };
  }
}

/** Skips a template literal's text from the cursor (after the backtick or a `}`). */
function skipTemplateText(cur: Cursor, templates: number[], depth: number): void {
  const t = cur.text;
  while (cur.i < t.length) {
    const c = t[cur.i];
    if (c === "\\") cur.i += 2;
    else if (c === "`") {
      cur.i++;
      return;
    } else if (c === "$" && t[cur.i + 1] === "{") {
      cur.i += 2;
      templates.push(depth);
      return;
    } else cur.i++;
  }
}

/** What follows the keyword `import` at the cursor (after it), added to `out`. */
function readImportKeyword(cur: Cursor, at: number, out: ModuleImport[]): void {
  cur.skipBlank();
  const c = cur.text[cur.i];
  if (c === "(") {
    cur.i++;
    cur.skipBlank();
    const q = cur.text[cur.i];
    let specifier: string | undefined;
    if (q === "'" || q === '"' || q === "`") {
      specifier = cur.readString();
      cur.skipBlank();
      if (cur.text[cur.i] !== ")" && cur.text[cur.i] !== ",") specifier = undefined;
    }
    out.push({ ...(specifier !== undefined ? { specifier } : {}), ...cur.position(at) });
  } else if (c === "'" || c === '"') {
    out.push({ specifier: cur.readString() ?? "", ...cur.position(at) });
  }
}

/**
 * The imports of a JavaScript or TypeScript module's source, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scanImports } from "./module_judge_imports.ts";
 * assert.deepEqual(scanImports('import x from "./x.ts";\nconst y = await import("npm:" + name);'), [
 *   { specifier: "./x.ts", line: 1, column: 10 },
 *   { line: 2, column: 17 }, // computed: no specifier to check, so the judge is refused
 * ]);
 * ```
 */
export function scanImports(source: string): ModuleImport[] {
  const cur = new Cursor(source);
  const out: ModuleImport[] = [];
  const templates: number[] = [];
  let depth = 0;
  let regexAllowed = true;
  // For each open parenthesis: whether a regular expression may follow its `)` (`if (x) /re/`).
  const parens: boolean[] = [];
  let word = "";
  const t = source;
  while (true) {
    cur.skipBlank();
    if (cur.i >= t.length) return out;
    const c = t[cur.i];
    const start = cur.i;
    if (/[A-Za-z_$\u0080-\uffff]/.test(c)) {
      let end = cur.i + 1;
      while (end < t.length && /[\w$\u0080-\uffff]/.test(t[end])) end++;
      word = t.slice(cur.i, end);
      const member = start > 0 && t[start - 1] === "." && t[start - 2] !== ".";
      cur.i = end;
      if (!member && word === "import") readImportKeyword(cur, start, out);
      else if (!member && word === "from") {
        cur.skipBlank();
        const q = t[cur.i];
        if (q === "'" || q === '"') {
          out.push({ specifier: cur.readString() ?? "", ...cur.position(start) });
        }
      }
      regexAllowed = REGEX_AFTER_WORDS.has(word);
      continue;
    }
    const before = word;
    word = "";
    if (c === "'" || c === '"') {
      cur.readString();
      regexAllowed = false;
    } else if (c === "`") {
      cur.i++;
      skipTemplateText(cur, templates, depth);
      regexAllowed = false;
    } else if (c === "/" && regexAllowed) {
      cur.skipRegex();
      regexAllowed = false;
    } else if (c === "{") {
      depth++;
      cur.i++;
      regexAllowed = true;
    } else if (c === "}") {
      cur.i++;
      if (templates.length > 0 && templates.at(-1) === depth) {
        templates.pop();
        skipTemplateText(cur, templates, depth);
        regexAllowed = false;
      } else {
        depth--;
        regexAllowed = true;
      }
    } else if (/[0-9]/.test(c)) {
      while (cur.i < t.length && /[\w.]/.test(t[cur.i])) cur.i++;
      regexAllowed = false;
    } else if (c === "(") {
      cur.i++;
      parens.push(/^(if|while|for|with)$/.test(before));
      regexAllowed = true;
    } else if (c === ")") {
      cur.i++;
      regexAllowed = parens.pop() ?? false;
    } else {
      cur.i++;
      regexAllowed = c !== "]";
    }
  }
}

/** Options of {@link checkJudgeImports}. */
export interface CheckJudgeImportsOptions {
  /** The dataset root (real path): every imported file must lie inside it. */
  root: string;
  /** Whether a path is one a judge may not read (`.env*`, `.agentv/cache/`, targets files). */
  isDenied: (path: string) => boolean;
  /** At most this many modules are read (default 200). */
  maxModules?: number;
}

const MODULE_CAP_BYTES = 4 * 1024 * 1024;
const CODE = /\.(m|c)?(ts|js)$/i;

/** Why `specifier` (found in `from`) may not be imported, or where it leads. */
async function resolveImport(
  specifier: string,
  from: string,
  options: CheckJudgeImportsOptions,
): Promise<{ path: string } | { refused: string }> {
  let path: string;
  if (/^file:/i.test(specifier)) path = fileURLToPath(specifier);
  else if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(specifier) && !/^[A-Za-z]:[\\/]/.test(specifier)) {
    return { refused: `'${specifier}' is not a file: module judges import only files` };
  } else if (/^\.{0,2}\//.test(specifier) || /^[A-Za-z]:[\\/]/.test(specifier)) {
    path = resolve(dirname(from), specifier);
  } else {
    return { refused: `'${specifier}' is a package name: module judges import only files` };
  }
  const real = await Deno.realPath(path).catch(() => undefined);
  if (real === undefined) return { refused: `'${specifier}' does not exist (${path})` };
  if (!isInside(real, options.root)) {
    return { refused: `'${specifier}' resolves to ${real}, outside the dataset root` };
  }
  if (options.isDenied(real) || options.isDenied(path)) {
    return { refused: `'${specifier}' is a file module judges may not read (${real})` };
  }
  return { path: real };
}

/**
 * Checks the judge module at `entry` (a real path inside the root) and every module it imports,
 * transitively. Returns why it may not run (`file:line:col: …`), or `undefined` when it may.
 *
 * @example
 * ```ts ignore
 * const problem = await checkJudgeImports("/data/judges/len.ts", {
 *   root: "/data", isDenied: () => false,
 * });
 * ```
 */
export async function checkJudgeImports(
  entry: string,
  options: CheckJudgeImportsOptions,
): Promise<string | undefined> {
  const seen = new Set([entry]);
  const queue = [entry];
  const max = options.maxModules ?? 200;
  while (queue.length > 0) {
    const file = queue.shift()!;
    const info = await Deno.stat(file);
    if (info.size > MODULE_CAP_BYTES) {
      return `${file}: the module is larger than ${MODULE_CAP_BYTES / 1024 / 1024} MiB`;
    }
    if (!CODE.test(file)) continue; // JSON and other data imports have no imports of their own
    for (const found of scanImports(await Deno.readTextFile(file))) {
      const at = `${file}:${found.line}:${found.column}`;
      if (found.specifier === undefined) {
        return `${at}: import() with a computed specifier is refused; a module judge may ` +
          "import only files inside the dataset root, named by a literal path";
      }
      const target = await resolveImport(found.specifier, file, options);
      if ("refused" in target) return `${at}: import of ${target.refused}; nothing was fetched`;
      if (seen.has(target.path)) continue;
      if (seen.size >= max) return `${at}: the judge imports more than ${max} modules`;
      seen.add(target.path);
      queue.push(target.path);
    }
  }
  return undefined;
}
