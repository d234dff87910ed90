/**
 * The cache folder: entries are whole JSON files written atomically, safe with several writers
 * (processes included); reads stay inside the folder, are size-bounded, and a bad entry is a miss
 * with its reason, never a crash.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cacheKey, type CacheKeyMaterial } from "../../lib/run/cache_key.ts";
import { type CallOrigin, createCacheStore } from "../../lib/run/cache_store.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { TEST_SIGNER } from "./_user.ts";

const ORIGIN: CallOrigin = { role: "target", target: "t", dataset: "ds", eval_id: "c", trial: 0 };

function material(prompt: string): CacheKeyMaterial {
  return {
    provider: "openai",
    settings: { model: "m" },
    request: {
      messages: [{ role: "user", content: prompt }],
      prompt,
      guidelines: "",
      overrides: null,
      trial: 0,
    },
  };
}

const entryPath = (dir: string, key: string) => join(dir, key.slice(0, 2), `${key}.json`);

Deno.test("an entry is readable JSON with its request, response, writer, version and time", async () => {
  await using tree = await tempTree({});
  const dir = join(tree.dir, "cache");
  const store = createCacheStore({
    dir,
    version: "9.9.9",
    signer: TEST_SIGNER,
    now: () => Date.UTC(2026, 0, 2),
  });
  const key = await store.write(material("hi"), { output_messages: [] }, ORIGIN);
  assert.equal(key, cacheKey(material("hi")));
  const entry = JSON.parse(await Deno.readTextFile(entryPath(dir, key)));
  assert.deepEqual(entry.request, material("hi"));
  assert.deepEqual(entry.written_by, ORIGIN);
  assert.equal(entry.agentv_version, "9.9.9");
  assert.equal(entry.created_at, "2026-01-02T00:00:00.000Z");
  // A later writer of the same key (another case) keeps the first writer.
  await store.write(material("hi"), { output_messages: [] }, { ...ORIGIN, eval_id: "d" });
  const again = JSON.parse(await Deno.readTextFile(entryPath(dir, key)));
  assert.equal(again.written_by.eval_id, "c");
  assert.deepEqual(await store.recorded({ ...ORIGIN, eval_id: "d" }), [material("hi")]);
  assert.deepEqual(await store.recorded({ ...ORIGIN, trial: 1 }), []);
});

Deno.test("a malformed, edited, oversized or misplaced entry is a miss with its reason", async () => {
  await using tree = await tempTree({});
  const dir = join(tree.dir, "cache");
  const store = createCacheStore({ dir, version: "t", signer: TEST_SIGNER, maxEntryBytes: 4096 });
  const key = await store.write(material("a"), { output_messages: [] }, ORIGIN);
  const path = entryPath(dir, key);
  assert.equal((await store.read(key)).hit, true);

  await Deno.writeTextFile(path, "{ not json");
  const malformed = await store.read(key);
  assert.equal(malformed.hit, false);
  assert.match(!malformed.hit ? malformed.reason : "", /malformed JSON/);

  const good = await store.write(material("a"), { output_messages: [] }, ORIGIN);
  const edited = JSON.parse(await Deno.readTextFile(entryPath(dir, good)));
  edited.request.settings.model = "other";
  await Deno.writeTextFile(path, JSON.stringify(edited));
  const changed = await store.read(key);
  assert.match(!changed.hit ? changed.reason : "", /does not hash to its key/);

  await Deno.writeTextFile(path, JSON.stringify({ ...edited, pad: "x".repeat(5000) }));
  const big = await store.read(key);
  assert.match(!big.hit ? big.reason : "", /larger than 4096 bytes/);

  await Deno.writeTextFile(path, JSON.stringify([1, 2]));
  const notObject = await store.read(key);
  assert.match(!notObject.hit ? notObject.reason : "", /not a JSON object/);

  const absent = await store.read(cacheKey(material("never")));
  assert.equal(absent.hit, false);
  assert.equal(!absent.hit && absent.absent, true);
  const bogus = await store.read("../../etc/passwd");
  assert.match(!bogus.hit ? bogus.reason : "", /not a cache key/);
});

Deno.test("links out of the cache folder are refused, for an entry and for its folder", async () => {
  await using tree = await tempTree({});
  const dir = join(tree.dir, "cache");
  const outside = join(tree.dir, "outside");
  await Deno.mkdir(outside);
  // A real entry, recorded elsewhere, is reached through a link: refused, not read.
  const other = createCacheStore({ dir: outside, version: "t", signer: TEST_SIGNER });
  const key = await other.write(material("x"), { output_messages: [] }, ORIGIN);
  const store = createCacheStore({ dir, version: "t", signer: TEST_SIGNER });
  await Deno.mkdir(join(dir, key.slice(0, 2)), { recursive: true });
  await Deno.symlink(entryPath(outside, key), entryPath(dir, key));
  const linked = await store.read(key);
  assert.match(!linked.hit ? linked.reason : "", /is a link \(refused\)/);

  await Deno.remove(join(dir, key.slice(0, 2)), { recursive: true });
  await Deno.symlink(join(outside, key.slice(0, 2)), join(dir, key.slice(0, 2)));
  const linkedFolder = await store.read(key);
  assert.match(!linkedFolder.hit ? linkedFolder.reason : "", /leads outside the cache folder/);
  // Nor is anything written through the linked folder.
  await assert.rejects(store.write(material("x"), { output_messages: [] }, ORIGIN), /not a folder/);
});

Deno.test("many writers of the same keys at once leave whole entries and no temporary file", async () => {
  await using tree = await tempTree({});
  const dir = join(tree.dir, "cache");
  const prompts = ["p0", "p1", "p2", "p3"];
  const writes = [];
  for (let w = 0; w < 8; w++) {
    const store = createCacheStore({ dir, version: "t", signer: TEST_SIGNER });
    for (const prompt of prompts) {
      const response = { output_messages: [{ role: "assistant" as const, content: `${w}` }] };
      writes.push(store.write(material(prompt), response, { ...ORIGIN, eval_id: prompt }));
    }
  }
  await Promise.all(writes);
  const reader = createCacheStore({ dir, version: "t", signer: TEST_SIGNER });
  for (const prompt of prompts) {
    const found = await reader.read(cacheKey(material(prompt)));
    assert.equal(found.hit, true, !found.hit ? found.reason : "");
  }
  const leftovers: string[] = [];
  for await (const sub of Deno.readDir(dir)) {
    if (!sub.isDirectory || sub.name === "cases") continue;
    for await (const f of Deno.readDir(join(dir, sub.name))) {
      if (!f.name.endsWith(".json") || f.name.startsWith(".")) leftovers.push(f.name);
    }
  }
  assert.deepEqual(leftovers, []);
});
