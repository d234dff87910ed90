import assert from "node:assert/strict";
import { join } from "node:path";
import { openResultsWriter } from "../../lib/results/results_writer.ts";
import { parseResults, readResults } from "../../lib/results/read_results.ts";
import { row } from "./_rows.ts";

Deno.test("openResultsWriter() writes one JSON line per row and creates parent folders", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "a", "b", "results.jsonl");
    const writer = await openResultsWriter(path);
    writer.write(row("one", 1));
    // The line is on disk before close: a crash after write() loses nothing.
    assert.equal((await Deno.readTextFile(path)).split("\n").length, 2);
    writer.write(row("two", 0.5));
    writer.close();
    writer.close();
    const text = await Deno.readTextFile(path);
    assert.ok(text.endsWith("\n"));
    const { rows, partial_line, bad_lines } = await readResults(path);
    assert.deepEqual(rows.map((r) => r.eval_id), ["one", "two"]);
    assert.equal(partial_line, undefined);
    assert.deepEqual(bad_lines, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openResultsWriter() truncates an existing file unless append is set", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "r.jsonl");
    await Deno.writeTextFile(path, "old\n");
    const w1 = await openResultsWriter(path);
    w1.write(row("a", 1));
    w1.close();
    const w2 = await openResultsWriter(path, { append: true });
    w2.write(row("b", 1));
    w2.close();
    assert.deepEqual((await readResults(path)).rows.map((r) => r.eval_id), ["a", "b"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseResults() skips a torn final line and reports it", () => {
  const good = JSON.stringify(row("a", 1));
  const out = parseResults(`${good}\n${good.slice(0, 40)}`);
  assert.equal(out.rows.length, 1);
  assert.equal(out.partial_line, good.slice(0, 40));
  assert.deepEqual(out.bad_lines, []);
});

Deno.test("parseResults() lists unparsable lines in the middle and ignores blank lines", () => {
  const good = JSON.stringify(row("a", 1));
  const other = JSON.stringify(row("b", 1));
  const out = parseResults(`${good}\r\n\nnot json\n[1]\n${other}\n`);
  assert.equal(out.rows.length, 2);
  assert.deepEqual(out.bad_lines, [3, 4]);
  assert.equal(out.partial_line, undefined);
});
