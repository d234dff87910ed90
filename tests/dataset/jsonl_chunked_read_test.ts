import assert from "node:assert/strict";
import { join } from "node:path";
import { readJsonlLines } from "../../lib/dataset/jsonl_file.ts";
import { EvalLoadError } from "../../lib/dataset/errors.ts";
import { splitJsonlLines } from "../../lib/dataset/jsonl_source.ts";

async function readAll(path: string, chunkBytes: number) {
  const lines = [];
  for await (const batch of readJsonlLines(path, "cases.jsonl", { chunkBytes })) {
    lines.push(...batch);
  }
  return lines;
}

Deno.test("JSONL read in chunks gives the same lines and numbers as the whole text, at any chunk size", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "cases.jsonl");
    // CRLF and LF endings, blank and whitespace-only lines, multi-byte characters that a chunk
    // boundary splits, a BOM, a line that is not an object, no final newline.
    const text = '\uFEFF{"id":"a","input":"héllo — 日本"}\r\n\n   \n{"id":"b"}\n[1, 2]\r\n' +
      '\t\r\n{"id":"c","input":"🙂🙂🙂"}\n\n{"id":"d"}';
    await Deno.writeTextFile(path, text);
    const expected = [...splitJsonlLines(text.slice(1))];
    assert.equal(expected.length, 5);
    for (const chunkBytes of [1, 2, 3, 5, 7, 16, 64, 1 << 20]) {
      assert.deepEqual(await readAll(path, chunkBytes), expected, `chunk of ${chunkBytes} bytes`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("JSONL read in chunks reports bad UTF-8 and NUL bytes with the whole-file reader's position", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "cases.jsonl");
    const head = new TextEncoder().encode('{"id":"a"}\n{"id":"b","input":"');
    await Deno.writeFile(path, new Uint8Array([...head, 0xff, 0x22, 0x7d, 0x0a]));
    const bad = await readAll(path, 4).then(() => undefined, (e) => e);
    assert.ok(bad instanceof EvalLoadError, String(bad));
    assert.equal(bad.diagnostics[0].line, 2);
    assert.match(bad.diagnostics[0].message, /UTF-8/);
    await Deno.writeFile(path, new Uint8Array([...head, 0x00, 0x22, 0x7d, 0x0a]));
    const nul = await readAll(path, 4).then(() => undefined, (e) => e);
    assert.ok(nul instanceof EvalLoadError, String(nul));
    assert.match(nul.diagnostics[0].message, /NUL|binary/i);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("JSONL read in chunks keeps a written U+FFFD and refuses bytes that are not UTF-8 beside one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "cases.jsonl");
    // The character itself (EF BF BD) is text like any other.
    const text = '{"id":"a","input":"\uFFFD"}\n{"id":"b","input":"x\uFFFDy"}\n';
    await Deno.writeTextFile(path, text);
    for (const chunkBytes of [3, 16, 1 << 20]) {
      assert.deepEqual(await readAll(path, chunkBytes), [...splitJsonlLines(text)]);
    }
    // A lone continuation byte in the same chunk as a written U+FFFD is still refused, where it is.
    const head = new TextEncoder().encode('{"id":"a","input":"\uFFFD"}\n{"id":"b","input":"');
    await Deno.writeFile(path, new Uint8Array([...head, 0x80, 0x22, 0x7d, 0x0a]));
    for (const chunkBytes of [4, 1 << 20]) {
      const bad = await readAll(path, chunkBytes).then(() => undefined, (e) => e);
      assert.ok(bad instanceof EvalLoadError, String(bad));
      assert.equal(bad.diagnostics[0].line, 2);
      assert.match(bad.diagnostics[0].message, /UTF-8/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
