/**
 * What a "test command" is, for the integrity guard: a shell command line (an agent's `Bash` or
 * `command_execution` step) runs a test command when one of its simple commands — split at `;`,
 * `&&`, `||`, `|`, `&`, newlines and parentheses, with leading `VAR=value` assignments and
 * wrappers (`env`, `time`, `timeout 60`, `nice`, `sudo`, `command`, `exec`, `npx`, `bunx`,
 * `uv run`, `poetry run`, `pipenv run`, `pdm run`, `hatch run`, `bundle exec`, `pnpm exec`,
 * `yarn exec`) removed, and `sh -c` / `bash -lc` scripts looked into — starts with the words of a
 * pattern. A pattern is a list of words; its first word is compared with the program's file
 * name (`./node_modules/.bin/jest` is `jest`), and a `*` in a word matches any characters
 * (`python* -m pytest` matches `python3.12 -m pytest`).
 *
 * Whether the step's exit status is the test's own is decided too: a step that succeeded proves
 * the test passed only when nothing but `&&` follows the test and it is not piped into another
 * command (`pytest | tail` or `pytest || true` prove nothing); a step that failed proves the test
 * failed only when the test is its last command.
 *
 * @module
 */

/**
 * The test commands known by default (more are added with `integrity: {test_commands: [...]}`).
 */
export const DEFAULT_TEST_COMMANDS: readonly string[] = [
  "npm test",
  "npm t",
  "npm run test*",
  "npm run check",
  "yarn test",
  "yarn run test*",
  "pnpm test",
  "pnpm run test*",
  "bun test",
  "bun run test*",
  "node --test",
  "deno test",
  "jest",
  "vitest",
  "mocha",
  "ava",
  "playwright test",
  "pytest",
  "py.test",
  "python* -m pytest",
  "python* -m unittest",
  "python* -m nose2",
  "tox",
  "nox",
  "go test",
  "cargo test",
  "cargo nextest",
  "make test",
  "make check",
  "make tests",
  "ctest",
  "mvn test",
  "mvn verify",
  "mvnw test",
  "mvnw verify",
  "gradle test",
  "gradle check",
  "gradlew test",
  "gradlew check",
  "dotnet test",
  "swift test",
  "mix test",
  "rspec",
  "rake test",
  "phpunit",
];

/** Wrappers whose arguments are the command they run (each a word list, prefix-matched). */
const WRAPPERS: readonly (readonly string[])[] = [
  ["env"],
  ["time"],
  ["nice"],
  ["sudo"],
  ["command"],
  ["exec"],
  ["timeout"],
  ["npx"],
  ["bunx"],
  ["uv", "run"],
  ["poetry", "run"],
  ["pipenv", "run"],
  ["pdm", "run"],
  ["hatch", "run"],
  ["bundle", "exec"],
  ["pnpm", "exec"],
  ["yarn", "exec"],
];

/** Shells whose `-c SCRIPT` is looked into. */
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh"]);

/** Deepest `sh -c` nesting looked into. */
const MAX_DEPTH = 4;

/** Longest command text looked at (longer ones are cut). */
const MAX_COMMAND_CHARS = 16_384;

/** A token of a command line: a word, or an operator. */
type Token = { word: string } | { op: string };

/** Splits a command line into words (quotes removed) and operators. Approximate on purpose. */
function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let word = "";
  let inWord = false;
  const flush = () => {
    if (inWord) tokens.push({ word });
    word = "";
    inWord = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf(c, i + 1);
      word += line.slice(i + 1, end === -1 ? line.length : end);
      inWord = true;
      i = end === -1 ? line.length : end;
    } else if (c === '"') {
      // Inside double quotes a backslash escapes `"`, `\`, `$` and a backquote.
      inWord = true;
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) i++;
        word += line[i];
      }
    } else if (c === "\\" && i + 1 < line.length) {
      if (line[i + 1] !== "\n") {
        word += line[i + 1];
        inWord = true;
      }
      i++;
    } else if (c === "\n") {
      flush();
      tokens.push({ op: "\n" });
    } else if (c === " " || c === "\t" || c === "\r") {
      flush();
    } else if (";|&()".includes(c)) {
      flush();
      const two = line.slice(i, i + 2);
      const op = two === "&&" || two === "||" || two === ";;" || two === "|&" ? two : c;
      i += op.length - 1;
      tokens.push({ op });
    } else if (c === ">" || c === "<") {
      // A redirection (`> log`, `2>&1`): neither its file descriptor nor its target is a word.
      if (/^\d+$/.test(word)) {
        word = "";
        inWord = false;
      }
      flush();
      let j = i + 1;
      while (j < line.length && (line[j] === ">" || line[j] === "&")) j++;
      while (j < line.length && (line[j] === " " || line[j] === "\t")) j++;
      while (j < line.length && !/[\s;|&()]/.test(line[j])) j++;
      i = j - 1;
    } else {
      word += c;
      inWord = true;
    }
  }
  flush();
  return tokens;
}

/** A simple command and the operators around it. */
interface Simple {
  words: string[];
  /** Operators after it, in order, to the end of the line. */
  after: string[];
  /** Whether it writes into a pipe (`cmd | …`). */
  piped: boolean;
  /** Whether it is negated (`! cmd`). */
  negated: boolean;
}

/** The simple commands of a line (redirections like `2>&1` dropped). */
function simpleCommands(line: string): Simple[] {
  // Each command with the operator right after it; empty commands (`a;;b`, blank lines) dropped.
  const parts: { words: string[]; op: string }[] = [];
  let current: string[] = [];
  for (const token of tokenize(line)) {
    if ("word" in token) {
      current.push(token.word);
      continue;
    }
    if (current.length > 0) {
      parts.push({ words: current, op: /[()]/.test(token.op) ? ";" : token.op });
    }
    current = [];
  }
  if (current.length > 0) parts.push({ words: current, op: ";" });
  return parts.map((part, i) => {
    const negated = part.words[0] === "!";
    const last = i === parts.length - 1;
    return {
      words: negated ? part.words.slice(1) : part.words,
      // What follows it: the operators between it and the last command.
      after: parts.slice(i, -1).map((p) => p.op),
      piped: !last && (part.op === "|" || part.op === "|&"),
      negated,
    };
  });
}

/** The program's file name (`/usr/bin/python3` → `python3`). */
function programName(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1);
}

/** The words after assignments and wrappers (`FOO=1 timeout 60 npx jest` → `jest`). */
function unwrap(words: readonly string[]): string[] {
  let rest = [...words];
  for (let guard = 0; guard < 16 && rest.length > 0; guard++) {
    while (rest.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0])) rest = rest.slice(1);
    const wrapper = WRAPPERS.find((w) =>
      w.every((part, i) => (i === 0 ? programName(rest[i] ?? "") : rest[i]) === part)
    );
    if (wrapper === undefined) break;
    rest = rest.slice(wrapper.length);
    // The wrapper's own options and values (`timeout -s 9 60`, `env -i A=1`, `nice -n 5`).
    while (rest.length > 0 && (/^-/.test(rest[0]) || /^\d+[smhd]?$/.test(rest[0]))) {
      rest = rest.slice(1);
    }
  }
  return rest;
}

/** Whether a pattern word (with `*`) matches a word. */
function wordMatches(pattern: string, word: string): boolean {
  if (!pattern.includes("*")) return pattern === word;
  const parts = pattern.split("*");
  if (!word.startsWith(parts[0])) return false;
  let at = parts[0].length;
  for (let i = 1; i < parts.length - 1; i++) {
    const found = word.indexOf(parts[i], at);
    if (found === -1) return false;
    at = found + parts[i].length;
  }
  const last = parts[parts.length - 1];
  return word.length - at >= last.length && word.endsWith(last);
}

/** Whether `words` start with the words of `pattern` (the first also by its file name). */
function startsWith(words: readonly string[], pattern: readonly string[]): boolean {
  if (words.length < pattern.length) return false;
  return pattern.every((p, i) =>
    wordMatches(p, words[i]) || (i === 0 && wordMatches(p, programName(words[i])))
  );
}

/** A test command found in a command line. */
export interface TestCommandMatch {
  /** The pattern it matched. */
  pattern: string;
  /** A successful step proves it passed (only `&&` follows it, not piped, not negated). */
  passProof: boolean;
  /** A failed step proves it failed (it is the last command, not piped, not negated). */
  failProof: boolean;
}

/** The script of `sh -c SCRIPT` / `bash -lc SCRIPT`, when `words` are one. */
function shellScript(words: readonly string[]): string | undefined {
  if (!SHELLS.has(programName(words[0] ?? ""))) return undefined;
  for (let i = 1; i < words.length - 1; i++) {
    if (/^-[a-z]*c[a-z]*$/.test(words[i])) return words[i + 1];
    if (!words[i].startsWith("-")) return undefined;
  }
  return undefined;
}

/**
 * The test commands a command line runs (see the module doc), each with what the step's exit
 * status proves about it; empty when it runs none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_TEST_COMMANDS, findTestCommands } from "./test_commands.ts";
 * const patterns = DEFAULT_TEST_COMMANDS.map((p) => p.split(" "));
 * assert.deepEqual(findTestCommands("cd app && npm test", patterns)[0], {
 *   pattern: "npm test",
 *   passProof: true,
 *   failProof: true,
 * });
 * assert.equal(findTestCommands("pytest -q | tail -5", patterns)[0]?.passProof, false);
 * assert.equal(findTestCommands("/bin/bash -lc 'go test ./...'", patterns)[0]?.pattern, "go test");
 * ```
 */
export function findTestCommands(
  line: string,
  patterns: readonly (readonly string[])[],
  depth = 0,
): TestCommandMatch[] {
  const found: TestCommandMatch[] = [];
  for (const simple of simpleCommands(line.slice(0, MAX_COMMAND_CHARS))) {
    const words = unwrap(simple.words);
    const clean = !simple.piped && !simple.negated;
    const passProof = clean && simple.after.every((op) => op === "&&");
    const failProof = clean && simple.after.length === 0;
    const script = shellScript(words);
    if (script !== undefined && depth < MAX_DEPTH) {
      for (const inner of findTestCommands(script, patterns, depth + 1)) {
        found.push({
          pattern: inner.pattern,
          passProof: inner.passProof && passProof,
          failProof: inner.failProof && failProof,
        });
      }
      continue;
    }
    const pattern = patterns.find((p) => startsWith(words, p));
    if (pattern !== undefined) found.push({ pattern: pattern.join(" "), passProof, failProof });
  }
  return found;
}

/**
 * The patterns in use: the defaults, then `extra` (each split into words).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { testCommandPatterns } from "./test_commands.ts";
 * assert.deepEqual(testCommandPatterns(["./run_tests.sh"]).at(-1), ["./run_tests.sh"]);
 * ```
 */
export function testCommandPatterns(extra: readonly string[] = []): string[][] {
  return [...DEFAULT_TEST_COMMANDS, ...extra].map((p) => p.trim().split(/\s+/));
}
