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
 * import assert from "node:assert/strict";
 * import { isPlainPattern } from "./plain_pattern.ts";
 * assert.equal(isPlainPattern("^ticket \\d+\\b", "i"), true);
 * // a backreference is outside the subset
 * assert.equal(isPlainPattern("(a)\\1", ""), false);
 * ```
 */
export function isPlainPattern(pattern: string, flags: string): boolean {
  if (pattern.length === 0 || pattern.length > MAX_LENGTH || !plainFlags(flags)) return false;
  const reader = new PatternReader(pattern);
  return reader.alternation(0) !== FAIL && reader.at === pattern.length;
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

/** A part that is not plain. */
const FAIL = -1;
/** Flags of a parsed part: it holds a counted repeat (`{n,m}`); it may be repeated. */
const COUNTED = 1;
const REPEATABLE = 2;

/**
 * A recursive-descent reader of the subset, from position `at` on. Each method reads one part,
 * moves `at` past it and returns its flags (`COUNTED`, `REPEATABLE`), or `FAIL`; nothing is
 * allocated per part (a pattern in each of 100,000 cases is read in a few ms).
 */
class PatternReader {
  readonly p: string;
  at = 0;

  constructor(pattern: string) {
    this.p = pattern;
  }

  /** `seq ('|' seq)*`; stops before `)` or at the end. */
  alternation(depth: number): number {
    let counted = 0;
    for (;;) {
      const seq = this.sequence(depth);
      if (seq === FAIL) return FAIL;
      counted |= seq;
      if (this.p.charCodeAt(this.at) !== 124 /* | */) return counted;
      this.at++;
    }
  }

  /** Atoms, each with at most one quantifier, up to `|`, `)` or the end. */
  sequence(depth: number): number {
    const p = this.p;
    let counted = 0;
    while (this.at < p.length) {
      const c = p.charCodeAt(this.at);
      if (c === 124 /* | */ || c === 41 /* ) */) break;
      const item = this.atom(depth);
      if (item === FAIL) return FAIL;
      if ((item & REPEATABLE) === 0) {
        if (isQuantifierStart(p, this.at)) return FAIL;
        continue;
      }
      const quantified = this.quantifier();
      if (quantified === FAIL) return FAIL;
      // A counted repeat inside another is not plain.
      if ((quantified & COUNTED) !== 0 && (item & COUNTED) !== 0) return FAIL;
      counted |= (item | quantified) & COUNTED;
      if (isQuantifierStart(p, this.at)) return FAIL; // `a**`, `a{2}{3}`
    }
    return counted;
  }

  /** One atom: a literal, `.`, an anchor, an escape, a class or a group. */
  atom(depth: number): number {
    const p = this.p;
    const c = p.charCodeAt(this.at);
    if (c === 94 /* ^ */ || c === 36 /* $ */) return this.#step(1, 0);
    if (c === 46 /* . */) return this.#step(1, REPEATABLE);
    if (c === 92 /* \ */) {
      const e = p.charCodeAt(this.at + 1);
      if (e === 98 /* b */ || e === 66 /* B */) return this.#step(2, 0);
      return isClassEscape(e) || isCharEscape(e) ? this.#step(2, REPEATABLE) : FAIL;
    }
    if (c === 91 /* [ */) {
      const end = charClass(p, this.at + 1);
      if (end === undefined) return FAIL;
      this.at = end;
      return REPEATABLE;
    }
    if (c === 40 /* ( */) {
      if (depth >= MAX_DEPTH) return FAIL;
      this.at++;
      if (p.charCodeAt(this.at) === 63 /* ? */) {
        if (p.charCodeAt(this.at + 1) !== 58 /* : */) return FAIL; // named, lookaround, flags
        this.at += 2;
      }
      const inner = this.alternation(depth + 1);
      if (inner === FAIL || p.charCodeAt(this.at) !== 41 /* ) */) return FAIL;
      this.at++;
      return REPEATABLE | inner;
    }
    return isLiteral(c) ? this.#step(1, REPEATABLE) : FAIL;
  }

  /** The quantifier here (if any) and its lazy `?`: `COUNTED` for `{n,m}`, else 0. */
  quantifier(): number {
    const p = this.p;
    const c = p.charCodeAt(this.at);
    let counted = 0;
    if (c === 42 /* * */ || c === 43 /* + */ || c === 63 /* ? */) this.at++;
    else if (c === 123 /* { */) {
      this.at++;
      const low = this.digits();
      if (low === FAIL) return FAIL;
      let high = low;
      if (p.charCodeAt(this.at) === 44 /* , */) {
        this.at++;
        if (p.charCodeAt(this.at) !== 125 /* } */) {
          high = this.digits();
          if (high === FAIL || high < low) return FAIL;
        }
      }
      if (p.charCodeAt(this.at) !== 125 /* } */ || high > MAX_COUNT) return FAIL;
      this.at++;
      counted = COUNTED;
    } else return 0;
    if (p.charCodeAt(this.at) === 63 /* ? */) this.at++;
    return counted;
  }

  /** A run of 1–3 decimal digits: its value. */
  digits(): number {
    const start = this.at;
    let value = 0;
    while (this.at - start < 4 && isDigit(this.p.charCodeAt(this.at))) {
      value = value * 10 + this.p.charCodeAt(this.at) - 48;
      this.at++;
    }
    return this.at === start || this.at - start > 3 ? FAIL : value;
  }

  #step(length: number, flags: number): number {
    this.at += length;
    return flags;
  }
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
