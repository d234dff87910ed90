/**
 * The results file of a resumed run: which rows are finished, and what `prepareResumeFile` keeps
 * (every whole finished row and every line that is not a row, byte for byte) and drops
 * (interrupted and skipped rows, a torn last line).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { prepareResumeFile, readResumeFile } from "../../lib/results/resume_file.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { row } from "./_rows.ts";

const line = (value: unknown) => JSON.stringify(value) + "\n";

Deno.test("prepareResumeFile only truncates when the file ends in a torn line", async () => {
  await using t = await tempTree({});
  const path = join(t.dir, "r.jsonl");
  const whole = line(row("a", 1)) + line(row("b", 0, { status: "error", error: "HTTP 500" }));
  await Deno.writeTextFile(path, whole + '{"eval_id": "c", "st');
  const inode = (await Deno.stat(path)).ino;
  const found = await prepareResumeFile(path);
  assert.equal(await Deno.readTextFile(path), whole);
  assert.equal((await Deno.stat(path)).ino, inode, "the file was cut, not replaced");
  assert.deepEqual(found.finished.map((r) => r.eval_id), ["a", "b"]);
  assert.equal(found.tornLine, true);
  assert.equal(found.unfinished.length, 0);
});

Deno.test("prepareResumeFile drops interrupted and skipped rows and keeps other lines as they were", async () => {
  await using t = await tempTree({});
  const path = join(t.dir, "r.jsonl");
  const a = line(row("a", 1));
  const stopped = line(row("b", 0, { status: "error", error: "interrupted" }));
  const bad = "not a row\n";
  const skipped = line(row("c", 0, { status: "skipped", error: "budget reached" }));
  // A whole last row whose newline was lost is kept (with a newline).
  const d = JSON.stringify(row("d", 0.7));
  await Deno.writeTextFile(path, a + stopped + bad + skipped + d);
  const read = await readResumeFile(path);
  assert.equal(
    await Deno.readTextFile(path),
    a + stopped + bad + skipped + d,
    "reading changes nothing",
  );
  assert.deepEqual(read.unfinished.map((r) => r.eval_id), ["b", "c"]);
  const found = await prepareResumeFile(path);
  assert.equal(await Deno.readTextFile(path), a + bad + d + "\n");
  assert.deepEqual(found.finished.map((r) => r.eval_id), ["a", "d"]);
  assert.equal(found.tornLine, false);
});

Deno.test("prepareResumeFile leaves a file of finished rows untouched", async () => {
  await using t = await tempTree({});
  const path = join(t.dir, "r.jsonl");
  const text = line(row("a", 1)) + line(row("b", 0.2));
  await Deno.writeTextFile(path, text);
  const { mtime } = await Deno.stat(path);
  const found = await prepareResumeFile(path);
  assert.equal(found.changes, false);
  assert.equal(await Deno.readTextFile(path), text);
  assert.deepEqual((await Deno.stat(path)).mtime, mtime);
});
