/**
 * Safe decoding of user files: bytes → text, or a located reason why the bytes are not UTF-8
 * text. Never throws for bad input.
 *
 * @module
 */

/** A 1-based line and column in a text. */
export interface Position {
  /** 1-based line. */
  line: number;
  /** 1-based column (UTF-16 code units, as editors count for most text). */
  column: number;
}

/** The result of {@link decodeText}. */
export type DecodeResult =
  | { ok: true; text: string }
  | { ok: false; message: string; position?: Position };

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decodes UTF-8 bytes into text: strips a UTF-8 byte order mark, refuses UTF-16/32 (by BOM),
 * binary content (NUL bytes) and invalid UTF-8, with the position of the first offending byte.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * // The byte order mark is dropped.
 * assert.deepEqual(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])), { ok: true, text: "a" });
 * ```
 */
export function decodeText(bytes: Uint8Array): DecodeResult {
  if (
    (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)
  ) {
    return {
      ok: false,
      message:
        "File is UTF-16 encoded (byte order mark); expected UTF-8 text; save the file as UTF-8",
    };
  }
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const nul = bytes.indexOf(0, start);
  if (nul !== -1) {
    return {
      ok: false,
      message:
        "File contains NUL bytes and looks binary; expected UTF-8 text; check that the path names a text file",
      position: positionOfByte(bytes, start, nul),
    };
  }
  try {
    return { ok: true, text: decoder.decode(start === 0 ? bytes : bytes.subarray(start)) };
  } catch {
    const bad = firstInvalidUtf8(bytes, start);
    return {
      ok: false,
      message: `File is not valid UTF-8 (byte 0x${
        (bytes[bad] ?? 0).toString(16).padStart(2, "0")
      } at offset ${bad}); expected UTF-8 text; re-save the file with UTF-8 encoding`,
      position: positionOfByte(bytes, start, bad),
    };
  }
}

/** Line and column of byte `offset` (columns count bytes of the valid prefix, decoded). */
function positionOfByte(bytes: Uint8Array, start: number, offset: number): Position {
  let line = 1;
  let lineStart = start;
  for (let i = start; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  const prefix = new TextDecoder("utf-8").decode(bytes.subarray(lineStart, offset));
  return { line, column: prefix.length + 1 };
}

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array, start: number): number {
  let i = start;
  while (i < bytes.length) {
    const b = bytes[i];
    let need = 0;
    let min = 0;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return Math.min(i, bytes.length - 1);
}
