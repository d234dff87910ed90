/**
 * Regular expressions from datasets, matched in linear time. Patterns come from untrusted files
 * and are run against model answers, so they are compiled with an RE2-class engine (`re2js`):
 * no pattern can make a match take longer than a constant times the input. The syntax is the
 * common subset of JavaScript and RE2; features that need backtracking (backreferences,
 * lookahead, lookbehind) are rejected with a message that says so.
 *
 * The engine is a large module, loaded on demand: {@link loadLinearRegex} must have resolved
 * before {@link compileLinearRegex} is called (commands and evaluators that match patterns await
 * it; the loader awaits it before it parses a file that may hold patterns). Without it,
 * {@link linearRegexProblem} still rejects what JavaScript or the linear-time subset rejects.
 *
 * @module
 */
import type { RE2JS } from "re2js";
import { isPlainPattern } from "./plain_pattern.ts";

/** The engine, once {@link loadLinearRegex} has loaded it. */
let engine: typeof RE2JS | undefined;

/**
 * Loads the linear-time engine (once); {@link compileLinearRegex} needs it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * await loadLinearRegex();
 * assert.ok(compileLinearRegex("a+").test("caat"));
 * ```
 */
export async function loadLinearRegex(): Promise<void> {
  engine ??= (await import("re2js")).RE2JS;
}

/** Whether {@link loadLinearRegex} has loaded the engine. */
export function linearRegexLoaded(): boolean {
  return engine !== undefined;
}

/** The engine; a programming error when it was not loaded first. */
function loadedEngine(): typeof RE2JS {
  if (engine === undefined) {
    throw new Error("the linear-time regex engine is not loaded: await loadLinearRegex() first");
  }
  return engine;
}

/** Flags that change how a pattern matches (RE2JS flag names). */
const MATCH_FLAGS: Record<string, "CASE_INSENSITIVE" | "MULTILINE" | "DOTALL"> = {
  i: "CASE_INSENSITIVE",
  m: "MULTILINE",
  s: "DOTALL",
};

/** JavaScript flags accepted without effect on whether (and where) the first match is found. */
const NEUTRAL_FLAGS = new Set(["g", "d", "u"]);

/** Flags supported by {@link compileLinearRegex}, for messages. */
export const SUPPORTED_REGEX_FLAGS =
  "i (ignore case), m (multiline), s (dot matches newline) and y (sticky: match at the start); g, d and u are accepted and change nothing";

/** The first match of a pattern: the matched text and its capture groups. */
export interface LinearMatch {
  /** The whole matched text. */
  text: string;
  /** Offset (UTF-16 code units) of the match in the input. */
  index: number;
  /** Capture groups 1..n; `undefined` for a group that did not take part. */
  groups: (string | undefined)[];
}

/** A compiled pattern that matches in time linear in the input. */
export interface LinearRegex {
  /** Whether the pattern matches somewhere in `input`. */
  test(input: string): boolean;
  /** The first match in `input`, or `undefined`. */
  exec(input: string): LinearMatch | undefined;
}

/** Why a pattern cannot be compiled. `unsupported` names a backtracking-only feature. */
export class LinearRegexError extends Error {
  /** Whether the pattern is valid JavaScript but uses a feature agentv does not support. */
  readonly unsupported: boolean;

  /** Creates the error. */
  constructor(message: string, unsupported: boolean) {
    super(message);
    this.name = "LinearRegexError";
    this.unsupported = unsupported;
  }
}

/**
 * Compiles a JavaScript-style pattern with JavaScript flags for linear-time matching. Throws a
 * {@link LinearRegexError} for a syntax error, an unsupported feature or an unsupported flag.
 * {@link loadLinearRegex} must have resolved first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * await loadLinearRegex();
 * assert.equal(compileLinearRegex("^(a+)+$").test("a".repeat(41) + "b"), false); // at once
 * assert.equal(compileLinearRegex("hello", "i").exec("Say HELLO")?.text, "HELLO");
 * ```
 */
export function compileLinearRegex(pattern: string, flags = ""): LinearRegex {
  const Engine = loadedEngine();
  const { matchFlags, sticky } = checkFlagsAndFeatures(pattern, flags);
  let bits = 0;
  for (const name of matchFlags) bits |= Engine[name];
  const translated = toRe2Syntax(pattern, matchFlags.includes("DOTALL"));
  const source = sticky ? `\\A(?:${translated})` : translated;
  let re: RE2JS;
  try {
    re = Engine.compile(source, bits);
  } catch (e) {
    const message = (e as Error).message.replace(/^error parsing regexp: /, "");
    throw new LinearRegexError(message, false);
  }
  return {
    test: (input) => re.matcher(input).find(),
    exec: (input) => {
      const m = re.matcher(input);
      if (!m.find()) return undefined;
      const groups: (string | undefined)[] = [];
      for (let g = 1; g <= m.groupCount(); g++) groups.push(m.group(g) ?? undefined);
      return { text: m.group(0) ?? "", index: m.start(0), groups };
    },
  };
}

/**
 * The RE2JS flags of `flags`, and whether the pattern is sticky; throws {@link LinearRegexError}
 * for an unsupported flag or a backtracking-only feature. Needs no engine.
 */
function checkFlagsAndFeatures(
  pattern: string,
  flags: string,
): { matchFlags: (typeof MATCH_FLAGS)[string][]; sticky: boolean } {
  const matchFlags: (typeof MATCH_FLAGS)[string][] = [];
  let sticky = false;
  for (const flag of flags) {
    if (Object.hasOwn(MATCH_FLAGS, flag)) matchFlags.push(MATCH_FLAGS[flag]);
    else if (flag === "y") sticky = true;
    else if (!NEUTRAL_FLAGS.has(flag)) {
      throw new LinearRegexError(
        `flag '${flag}' is not supported; supported flags: ${SUPPORTED_REGEX_FLAGS}`,
        flag === "v",
      );
    }
  }
  const unsupported = unsupportedFeature(pattern);
  if (unsupported) {
    throw new LinearRegexError(
      `${unsupported} is not supported: patterns run on a linear-time (RE2) engine so that no ` +
        `answer can make a match hang; rewrite the pattern without backreferences or lookaround`,
      true,
    );
  }
  return { matchFlags, sticky };
}

/**
 * Why `pattern` with `flags` cannot be used, or `undefined` when it compiles. A plain pattern
 * (`plain_pattern.ts`: a subset both engines accept) is known to compile without compiling it,
 * which is some 20–40 µs less per pattern. Before {@link loadLinearRegex} has resolved, another
 * pattern is checked by JavaScript's own parser and for backtracking-only features (what only RE2
 * rejects is then found when it is compiled).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * await loadLinearRegex();
 * assert.match(linearRegexProblem("(a)\\1") ?? "", /^backreference '\\1' is not supported: /);
 * assert.equal(linearRegexProblem("^\\d+$"), undefined);
 * ```
 */
export function linearRegexProblem(pattern: string, flags = ""): string | undefined {
  if (isPlainPattern(pattern, flags)) return undefined;
  try {
    if (engine !== undefined) compileLinearRegex(pattern, flags);
    else {
      checkFlagsAndFeatures(pattern, flags);
      new RegExp(pattern, flags.replace(/[^ims]/g, ""));
    }
    return undefined;
  } catch (e) {
    if (e instanceof LinearRegexError || e instanceof SyntaxError) {
      return e.message.replace(/^Invalid regular expression: /, "");
    }
    throw e;
  }
}

/** Names the first backtracking-only construct in `pattern`, or `undefined`. */
function unsupportedFeature(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      const next = pattern[i + 1] ?? "";
      if (!inClass && /[1-9]/.test(next)) return `backreference '\\${next}'`;
      if (!inClass && next === "k" && pattern[i + 2] === "<") return "named backreference '\\k<…>'";
      i++;
    } else if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") {
      // `[]` and `[^]` are complete classes in JavaScript.
      if (pattern.startsWith("[]", i)) i++;
      else if (pattern.startsWith("[^]", i)) i += 2;
      else inClass = true;
    } else if (c === "(" && pattern[i + 1] === "?") {
      const head = pattern.slice(i + 2, i + 4);
      if (head.startsWith("=")) return "lookahead '(?='";
      if (head.startsWith("!")) return "negative lookahead '(?!'";
      if (head === "<=") return "lookbehind '(?<='";
      if (head === "<!") return "negative lookbehind '(?<!'";
    }
  }
  return undefined;
}

/** JavaScript's `\s` (Unicode white space and line terminators) as RE2 class items. */
const JS_SPACE = "\\s\\x0B\\x{A0}\\x{FEFF}\\p{Zs}\\x{2028}\\x{2029}";

/**
 * Rewrites JavaScript-only syntax into RE2's: `\uXXXX` and `\u{X}` become `\x{X}`; `\s` (and
 * `\S` outside a class) take JavaScript's Unicode meaning instead of RE2's ASCII one; without
 * `dotAll`, `.` excludes every JavaScript line terminator, not only `\n`.
 */
function toRe2Syntax(pattern: string, dotAll: boolean): string {
  const unicode = /u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})/y;
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c !== "\\") {
      if (inClass && c === "]") inClass = false;
      else if (!inClass && c === "[") {
        // JavaScript's `[]` matches nothing and `[^]` any character (RE2 reads `]` there as a
        // member of the class).
        if (pattern.startsWith("[]", i)) {
          out += "[^\\x00-\\x{10FFFF}]";
          i += 1;
          continue;
        }
        if (pattern.startsWith("[^]", i)) {
          out += "(?s:.)";
          i += 2;
          continue;
        }
        inClass = true;
      }
      out += c === "." && !inClass && !dotAll ? "[^\\n\\r\\x{2028}\\x{2029}]" : c;
      continue;
    }
    unicode.lastIndex = i + 1;
    const found = unicode.exec(pattern);
    const next = pattern[i + 1] ?? "";
    if (found) {
      out += `\\x{${found[1] ?? found[2]}}`;
      i += found[0].length;
      continue;
    }
    if (next === "s") out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
    else if (next === "S" && !inClass) out += `[^${JS_SPACE}]`;
    else out += c + next;
    i++;
  }
  return out;
}
