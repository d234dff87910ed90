/**
 * Where a YAML syntax error starts. The parser reports some errors where it gave up (an unclosed
 * quote at the end of the file, an over-indented line at the value before it); these functions
 * move the offset to the cause: the opening quote or bracket, the first character of the
 * offending line.
 *
 * @module
 */

/** The parts of a `yaml` error this module reads. */
export interface YamlErrorLike {
  /** Error code (`MISSING_CHAR`, `MULTILINE_IMPLICIT_KEY`, ...). */
  code: string;
  /** Offsets `[start, end]` in the text. */
  pos: [number, number];
  /** The parser's message. */
  message: string;
}

/**
 * The offset where the problem reported by `error` starts, in `text`.
 *
 * @example
 * ```ts
 * const text = 'a: "open\nb: 1\n';
 * yamlErrorCause(text, { code: "MISSING_CHAR", pos: [14, 15], message: 'Missing closing "quote' }, []);
 * // 3 (the opening quote)
 * ```
 */
export function yamlErrorCause(
  text: string,
  error: YamlErrorLike,
  all: readonly YamlErrorLike[],
): number {
  const at = Math.min(error.pos[0], text.length);
  const quote = /^Missing closing (["'])quote/.exec(error.message);
  if (error.code === "MISSING_CHAR" && quote) {
    const open = openingQuote(text, at, quote[1]);
    if (open !== undefined) return open;
  }
  const flow = /end with an? ([\]}])/.exec(error.message);
  if (flow) {
    const open = openingBracket(text, at, flow[1] === "]" ? "[" : "{", flow[1]);
    if (open !== undefined) return open;
  }
  // A value continued on an over-indented line: the cause is that line.
  const multiline = all.find((e) => e.code === "MULTILINE_IMPLICIT_KEY" && e.pos[0] === at);
  if (
    multiline && (error.code === "MULTILINE_IMPLICIT_KEY" || error.code === "BLOCK_AS_IMPLICIT_KEY")
  ) {
    const next = text.indexOf("\n", at);
    if (next !== -1 && next < multiline.pos[1]) return firstNonSpace(text, next + 1);
  }
  return skipIndent(text, at);
}

/** The last unescaped `quote` before `end` (the content of an unclosed string has none). */
function openingQuote(text: string, end: number, quote: string): number | undefined {
  for (let i = end - 1; i >= 0; i--) {
    if (text[i] !== quote) continue;
    if (quote === '"') {
      let slashes = 0;
      for (let j = i - 1; j >= 0 && text[j] === "\\"; j--) slashes++;
      if (slashes % 2 === 0) return i;
    } else if (text[i - 1] === "'") {
      i--; // `''` is an escaped quote inside the string
    } else {
      return i;
    }
  }
  return undefined;
}

/** The unmatched `open` bracket before `end` (quoted text skipped only roughly: by line). */
function openingBracket(
  text: string,
  end: number,
  open: string,
  close: string,
): number | undefined {
  let depth = 0;
  for (let i = end - 1; i >= 0; i--) {
    const c = text[i];
    if (c === close) depth++;
    else if (c === open) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return undefined;
}

function firstNonSpace(text: string, lineStart: number): number {
  let i = lineStart;
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  return i < text.length && text[i] !== "\n" && text[i] !== "\r" ? i : lineStart;
}

/** An offset inside a line's indentation moves to the line's first character. */
function skipIndent(text: string, at: number): number {
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  for (let i = lineStart; i < at; i++) if (text[i] !== " " && text[i] !== "\t") return at;
  return firstNonSpace(text, at);
}
