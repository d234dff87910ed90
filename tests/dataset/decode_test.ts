/** decodeText(): UTF-8 with positions for what is not UTF-8 text. */
import assert from "node:assert/strict";
import { decodeText } from "../../lib/fs/decode.ts";

const enc = new TextEncoder();

Deno.test("decodeText() strips a UTF-8 BOM and keeps everything else", () => {
  assert.deepEqual(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode("é\r\n")])), {
    ok: true,
    text: "é\r\n",
  });
});

Deno.test("decodeText() locates invalid UTF-8, NUL bytes and refuses UTF-16", () => {
  const bad = decodeText(new Uint8Array([...enc.encode("ab\nxé"), 0xff, 0x41]));
  assert.equal(bad.ok, false);
  assert.ok(!bad.ok && bad.position);
  assert.deepEqual(!bad.ok && bad.position, { line: 2, column: 3 });
  const overlong = decodeText(new Uint8Array([0xc0, 0xaf]));
  assert.ok(!overlong.ok && /not valid UTF-8/.test(overlong.message));
  const nul = decodeText(new Uint8Array([...enc.encode("a\nbc"), 0]));
  assert.deepEqual(!nul.ok && nul.position, { line: 2, column: 3 });
  const wide = decodeText(new Uint8Array([0xfe, 0xff, 0, 0x61]));
  assert.ok(!wide.ok && /UTF-16/.test(wide.message));
});
