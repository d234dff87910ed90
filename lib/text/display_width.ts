/**
 * How many terminal columns text takes, and clipping text to a number of columns: East Asian
 * wide and fullwidth characters and emoji take two columns, combining marks and zero-width
 * characters none, and ANSI escape sequences (colours) none; a grapheme cluster (an emoji with
 * modifiers, a letter with its accents) is never split.
 *
 * @module
 */

/** CSI (`ESC [ … final`) and OSC (`ESC ] … BEL|ST`) sequences, matched at one position. */
// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]/y;

/** Code point ranges of East Asian Wide (W) and Fullwidth (F) characters that are not emoji. */
const WIDE: readonly [number, number][] = [
  [0x1100, 0x115f],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff],
  [0x1b000, 0x1b2ff],
  [0x1f200, 0x1f2ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]+$/u;
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|\p{Regional_Indicator}/u;

let segmenter: Intl.Segmenter | undefined;

function isWide(cp: number): boolean {
  for (const [from, to] of WIDE) {
    if (cp < from) return false;
    if (cp <= to) return true;
  }
  return false;
}

/** Columns taken by one grapheme cluster (no escape sequences in it). */
function graphemeWidth(grapheme: string): number {
  const cp = grapheme.codePointAt(0) ?? 0;
  if (grapheme.length === 1 && cp >= 0x20 && cp < 0x7f) return 1; // ASCII fast path
  if (ZERO_WIDTH.test(grapheme)) return 0;
  if (EMOJI.test(grapheme)) return 2;
  return isWide(cp) ? 2 : 1;
}

/** Splits text into escape sequences (width 0) and grapheme clusters. */
function* tokens(text: string): Generator<{ text: string; width: number; escape: boolean }> {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  let i = 0;
  while (i < text.length) {
    if (text[i] === "\x1b") {
      ANSI.lastIndex = i;
      const match = ANSI.exec(text);
      if (match) {
        yield { text: match[0], width: 0, escape: true };
        i += match[0].length;
        continue;
      }
    }
    const next = text.indexOf("\x1b", i + 1);
    const chunk = text.slice(i, next === -1 ? text.length : next);
    for (const { segment } of segmenter.segment(chunk)) {
      yield { text: segment, width: graphemeWidth(segment), escape: false };
    }
    i += chunk.length;
  }
}

/**
 * Columns `text` takes on a terminal (escape sequences take none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { displayWidth } from "./display_width.ts";
 * assert.equal(displayWidth("abc"), 3);
 * assert.equal(displayWidth("日本"), 4);
 * assert.equal(displayWidth("\x1b[31mok\x1b[0m"), 2);
 * ```
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const token of tokens(text)) width += token.width;
  return width;
}

/** Options of {@link clipToWidth}. */
export interface ClipOptions {
  /** Appended when text is cut, counted in the width (default `…`; `""` for none). */
  ellipsis?: string;
}

/**
 * Cuts `text` so that it takes at most `columns` columns, never inside a grapheme cluster or an
 * escape sequence. When it cuts, it ends with the ellipsis and, if the text held escape
 * sequences, with a colour reset (`ESC [0m`), so a cut colour does not leak.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clipToWidth } from "./display_width.ts";
 * assert.equal(clipToWidth("hello world", 8), "hello w…");
 * assert.equal(clipToWidth("日本語", 5), "日本…");
 * assert.equal(clipToWidth("short", 8), "short");
 * ```
 */
export function clipToWidth(text: string, columns: number, options: ClipOptions = {}): string {
  if (displayWidth(text) <= columns) return text;
  const ellipsis = options.ellipsis ?? "…";
  const room = Math.max(0, columns - displayWidth(ellipsis));
  let out = "";
  let width = 0;
  let escaped = false;
  for (const token of tokens(text)) {
    if (token.escape) {
      out += token.text;
      escaped = true;
      continue;
    }
    if (width + token.width > room) break;
    out += token.text;
    width += token.width;
  }
  const tail = displayWidth(ellipsis) <= columns ? ellipsis : "";
  return out + tail + (escaped ? "\x1b[0m" : "");
}
