/**
 * Plain patterns, fuzz tier: every pattern `isPlainPattern` accepts compiles in both engines that
 * check a dataset's patterns (JavaScript's parser with the `ims` flags, and the linear-time engine
 * after `linear_regex.ts` translates it), checked on 300,000 generated patterns built from the
 * tokens that matter to either parser; and `linearRegexProblem` gives the same verdict with the
 * shortcut as the engines give. (The everyday patterns are plain_pattern_test.ts.)
 */
import assert from "node:assert/strict";
import { isPlainPattern } from "../../lib/text/plain_pattern.ts";
import {
  compileLinearRegex,
  linearRegexProblem,
  loadLinearRegex,
} from "../../lib/text/linear_regex.ts";
import { createRng } from "../../lib/compare/statistics.ts";

/** Pieces of patterns: plain ones, and the ones either engine reads differently or rejects. */
const TOKENS = [
  "a",
  "b",
  "Z",
  "0",
  "9",
  " ",
  "-",
  "_",
  "/",
  ",",
  "'",
  "#",
  "~",
  "=",
  "<",
  ">",
  "!",
  ":",
  ".",
  "^",
  "$",
  "|",
  "*",
  "+",
  "?",
  "??",
  "*?",
  "+?",
  "{2}",
  "{1,3}",
  "{2,}",
  "{0}",
  "{0,0}",
  "{3,1}",
  "{100}",
  "{101}",
  "{1000}",
  "{1001}",
  "{,2}",
  "{",
  "}",
  "{1",
  "{a}",
  "(",
  ")",
  "(?:",
  "(?=",
  "(?!",
  "(?<=",
  "(?<!",
  "(?<n>",
  "(?i)",
  "(?P<n>",
  "[",
  "]",
  "[^",
  "[]",
  "[^]",
  "a-z",
  "z-a",
  "0-9",
  "--",
  "-]",
  "[-",
  "[^-",
  "[[:alpha:]]",
  "\\d",
  "\\D",
  "\\s",
  "\\S",
  "\\w",
  "\\W",
  "\\b",
  "\\B",
  "\\n",
  "\\t",
  "\\r",
  "\\f",
  "\\v",
  "\\0",
  "\\1",
  "\\k<n>",
  "\\u0041",
  "\\u{41}",
  "\\x41",
  "\\cA",
  "\\p{L}",
  "\\q",
  "\\z",
  "\\A",
  "\\.",
  "\\-",
  "\\_",
  "\\/",
  "\\]",
  "\\[",
  "\\\\",
  "\\^",
  "\\$",
  "\\{",
  "\\}",
  "\\*",
  "\\",
  "[\\s-z]",
  "[a-\\d]",
  "[\\d-]",
  "[\\w.]",
  "é",
  "\u2028",
  "\t",
  "🙂",
];

const FLAGS = ["", "", "i", "m", "s", "g", "y", "u", "d", "ims", "gi", "ii", "v", "x", "gimsuy"];

function generate(random: () => number): { pattern: string; flags: string } {
  const length = 1 + Math.floor(random() * 10);
  let pattern = "";
  for (let i = 0; i < length; i++) pattern += TOKENS[Math.floor(random() * TOKENS.length)];
  return { pattern, flags: FLAGS[Math.floor(random() * FLAGS.length)] };
}

/** JavaScript's verdict, as `linearRegexProblem` asks it before the engine is loaded. */
function javascriptAccepts(pattern: string, flags: string): boolean {
  try {
    new RegExp(pattern, flags.replace(/[^ims]/g, ""));
    return true;
  } catch {
    return false;
  }
}

function engineAccepts(pattern: string, flags: string): boolean {
  try {
    compileLinearRegex(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

Deno.test("every generated pattern isPlainPattern accepts compiles in JavaScript and in the linear-time engine", async () => {
  await loadLinearRegex();
  const random = createRng(20261127);
  let plain = 0;
  for (let n = 0; n < 300_000; n++) {
    const { pattern, flags } = generate(random);
    if (!isPlainPattern(pattern, flags)) continue;
    plain++;
    const shown = `${JSON.stringify(pattern)} with flags ${JSON.stringify(flags)}`;
    assert.ok(javascriptAccepts(pattern, flags), `JavaScript rejects plain ${shown}`);
    assert.ok(engineAccepts(pattern, flags), `the linear-time engine rejects plain ${shown}`);
  }
  // The generator reaches the subset often enough for the check to mean something.
  assert.ok(plain > 10_000, `only ${plain} generated patterns were plain`);
});

Deno.test("linearRegexProblem() gives the engines' verdict on generated patterns, plain or not", async () => {
  await loadLinearRegex();
  const random = createRng(7);
  for (let n = 0; n < 20_000; n++) {
    const { pattern, flags } = generate(random);
    const problem = linearRegexProblem(pattern, flags);
    let expected: string | undefined;
    try {
      compileLinearRegex(pattern, flags);
    } catch (e) {
      expected = (e as Error).message;
    }
    assert.equal(problem === undefined, expected === undefined, JSON.stringify(pattern));
  }
});
