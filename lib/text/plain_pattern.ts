/**
 * A recogniser for plain patterns: a small subset of regular-expression syntax that JavaScript's
 * parser (without the `u` or `v` flag) and the linear-time engine (RE2, after `linear_regex.ts`
 * translates it) both accept, so a pattern in it needs neither parser to be known valid.
 * Compiling with RE2 costs some 20–40 µs per pattern; a dataset with a `regex` evaluator in each of
 * 100,000 cases spent seconds there. A pattern outside the subset is not invalid: it is checked
 * by the engines as before.
 *
 * The subset: printable ASCII literals; `.`; `^` and `$`; the escapes `\d \D \w \W \s \S` (also in
 * classes), `\b \B` (not repeated), `\n \r \t` and any escaped ASCII punctuation; classes
 * `[...]`/`[^...]` of literals, escapes and ranges between two literals in order; groups `(...)` and
 * `(?:...)`, nested at most 20 deep; `|`; the quantifiers `* + ?` and `{n}`, `{n,}`, `{n,m}` (n ≤ m
 * ≤ 100, never one counted repeat inside another), each optionally lazy (`?`). At most 1,000
 * characters, so RE2's size and nesting limits are out of reach. Flags: each of `dgimsuy` at most
 * once.
 *
 * @module
 */

/** Longest plain pattern (RE2's size and nesting limits are far above what this many allow). */
const MAX_LENGTH = 1000;
/** Deepest group nesting. */
const MAX_DEPTH = 20;
/** Largest count of a `{n,m}` quantifier. */
const MAX_COUNT = 100;

/**
 * Whether `pattern` with `flags` is in the plain subset (see the module doc): when it is, both
 * JavaScript (flags `ims`) and the linear-time engine accept it. `false` says nothing about
 * validity.
 *
 * @example
 * ```ts
 * import { isPlainPattern } from "./plain_pattern.ts";
 * isPlainPattern("^ticket \\d+\\b", "i"); // true
 * isPlainPattern("(a)\\1", ""); // false: a backreference is outside the subset
 * ```
 */
export function isPlainPattern(pattern: string, flags: string): boolean {
  if (pattern.length === 0 || pattern.length > MAX_LENGTH || !plainFlags(flags)) return false;
  const end = alternation(pattern, 0, 0);
  return end !== undefined && end.at === pattern.length;
}

/** Each of `dgimsuy` at most once (JavaScript rejects a repeated flag). */
function plainFlags(flags: string): boolean {
  let seen = 0;
  for (let i = 0; i < flags.length; i++) {
    const index = "dgimsuy".indexOf(flags[i]);
    if (index === -1 || (seen & (1 << index)) !== 0) return false;
    seen |= 1 << index;
  }
  return true;
}

/** Where a parsed part ends, and whether it holds a counted repeat. */
interface Parsed {
  at: number;
  counted: boolean;
}

/** `seq ('|' seq)*` from `at`; stops before `)` or at the end. */
function alternation(p: string, at: number, depth: number): Parsed | undefined {
  let counted = false;
  let i = at;
  for (;;) {
    const seq = sequence(p, i, depth);
    if (seq === undefined) return undefined;
    counted ||= seq.counted;
    i = seq.at;
    if (p.charCodeAt(i) !== 124 /* | */) return { at: i, counted };
    i++;
  }
}

/** Atoms, each with at most one quantifier, up to `|`, `)` or the end. */
function sequence(p: string, at: number, depth: number): Parsed | undefined {
  let counted = false;
  let i = at;
  while (i < p.length) {
    const c = p.charCodeAt(i);
    if (c === 124 /* | */ || c === 41 /* ) */) break;
    const item = atom(p, i, depth);
    if (item === undefined) return undefined;
    i = item.at;
    if (!item.repeatable) {
      if (isQuantifierStart(p, i)) return undefined;
      continue;
    }
    const quantified = quantifier(p, i);
    if (quantified === undefined) return undefined;
    if (quantified.counted && item.counted) return undefined; // a counted repeat inside another
    counted ||= item.counted || quantified.counted;
    i = quantified.at;
    if (isQuantifierStart(p, i)) return undefined; // `a**`, `a{2}{3}`
  }
  return { at: i, counted };
}

/** One atom: a literal, `.`, an anchor, an escape, a class or a group. */
function atom(
  p: string,
  at: number,
  depth: number,
): { at: number; repeatable: boolean; counted: boolean } | undefined {
  const c = p.charCodeAt(at);
  if (c === 94 /* ^ */ || c === 36 /* $ */) {
    return { at: at + 1, repeatable: false, counted: false };
  }
  if (c === 46 /* . */) return { at: at + 1, repeatable: true, counted: false };
  if (c === 92 /* \ */) {
    const e = p.charCodeAt(at + 1);
    if (e === 98 /* b */ || e === 66 /* B */) {
      return { at: at + 2, repeatable: false, counted: false };
    }
    return isClassEscape(e) || isCharEscape(e)
      ? { at: at + 2, repeatable: true, counted: false }
      : undefined;
  }
  if (c === 91 /* [ */) {
    const end = charClass(p, at + 1);
    return end === undefined ? undefined : { at: end, repeatable: true, counted: false };
  }
  if (c === 40 /* ( */) {
    if (depth >= MAX_DEPTH) return undefined;
    let i = at + 1;
    if (p.charCodeAt(i) === 63 /* ? */) {
      if (p.charCodeAt(i + 1) !== 58 /* : */) return undefined; // named groups, lookaround, flags
      i += 2;
    }
    const inner = alternation(p, i, depth + 1);
    if (inner === undefined || p.charCodeAt(inner.at) !== 41 /* ) */) return undefined;
    return { at: inner.at + 1, repeatable: true, counted: inner.counted };
  }
  return isLiteral(c) ? { at: at + 1, repeatable: true, counted: false } : undefined;
}

/** The quantifier at `at` (if any) and its lazy `?`: where it ends, and whether it counts. */
function quantifier(p: string, at: number): Parsed | undefined {
  const c = p.charCodeAt(at);
  let i = at;
  let counted = false;
  if (c === 42 /* * */ || c === 43 /* + */ || c === 63 /* ? */) i++;
  else if (c === 123 /* { */) {
    const low = digits(p, i + 1);
    if (low === undefined) return undefined;
    let high = low.value;
    i = low.at;
    if (p.charCodeAt(i) === 44 /* , */) {
      i++;
      if (p.charCodeAt(i) === 125 /* } */) high = low.value;
      else {
        const h = digits(p, i);
        if (h === undefined || h.value < low.value) return undefined;
        high = h.value;
        i = h.at;
      }
    }
    if (p.charCodeAt(i) !== 125 /* } */ || high > MAX_COUNT) return undefined;
    i++;
    counted = true;
  } else return { at, counted: false };
  if (p.charCodeAt(i) === 63 /* ? */) i++;
  return { at: i, counted };
}

/** A run of 1–3 decimal digits from `at`. */
function digits(p: string, at: number): { at: number; value: number } | undefined {
  let i = at;
  while (i < p.length && i - at < 4 && isDigit(p.charCodeAt(i))) i++;
  if (i === at || i - at > 3) return undefined;
  return { at: i, value: Number(p.slice(at, i)) };
}

/**
 * The members of a class after its `[` up to its `]`: the index after `]`. A `-` stands for
 * itself only first or last; any other `-` must make a range between two literals in order.
 */
function charClass(p: string, at: number): number | undefined {
  let i = at;
  if (p.charCodeAt(i) === 94 /* ^ */) i++;
  const first = i;
  while (i < p.length) {
    const c = p.charCodeAt(i);
    if (c === 93 /* ] */) return i > first ? i + 1 : undefined; // `[]`, `[^]` are not plain
    if (c === 45 /* - */) {
      if (i !== first && p.charCodeAt(i + 1) !== 93) return undefined;
      i++;
      continue;
    }
    if (c === 92 /* \ */) {
      const e = p.charCodeAt(i + 1);
      if (!isClassEscape(e) && !isPunctuation(e)) return undefined;
      if (p.charCodeAt(i + 2) === 45 /* - */) return undefined; // not a range bound
      i += 2;
      continue;
    }
    if (!isClassLiteral(c)) return undefined;
    if (p.charCodeAt(i + 1) === 45 /* - */ && p.charCodeAt(i + 2) !== 93 /* ] */) {
      const high = p.charCodeAt(i + 2);
      if (!isClassLiteral(high) || high === 45 || high < c) return undefined;
      i += 3;
      continue;
    }
    i++;
  }
  return undefined;
}

function isClassEscape(c: number): boolean {
  // d D w W s S
  return c === 100 || c === 68 || c === 119 || c === 87 || c === 115 || c === 83;
}

/** `\n`, `\r`, `\t`, or an escaped punctuation character (a literal in both engines). */
function isCharEscape(c: number): boolean {
  return c === 110 || c === 114 || c === 116 || isPunctuation(c);
}

/** ASCII punctuation: printable, not a letter, digit or space. */
function isPunctuation(c: number): boolean {
  return c > 32 && c < 127 && !isDigit(c) && !((c | 32) >= 97 && (c | 32) <= 122);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** A printable ASCII character that stands for itself outside a class. */
function isLiteral(c: number): boolean {
  if (c < 32 || c > 126) return false;
  // \ ^ $ . | ? * + ( ) [ ] { }
  return !"\\^$.|?*+()[]{}".includes(String.fromCharCode(c));
}

/** A printable ASCII character that stands for itself inside a class (`]`, `\`, `[`, `-` aside). */
function isClassLiteral(c: number): boolean {
  return c >= 32 && c <= 126 && c !== 93 && c !== 92 && c !== 91 && c !== 45;
}

/** Whether a quantifier starts at `at`. */
function isQuantifierStart(p: string, at: number): boolean {
  const c = p.charCodeAt(at);
  return c === 42 || c === 43 || c === 63 || c === 123;
}
