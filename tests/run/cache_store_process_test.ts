/**
 * The cache folder shared by processes (shards): several Deno processes writing the same entries at
 * once leave every entry whole.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cacheKey, type CacheKeyMaterial } from "../../lib/run/cache_key.ts";
import { createCacheStore } from "../../lib/run/cache_store.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { TEST_SECRET, TEST_SIGNER } from "./_user.ts";

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

Deno.test("processes writing one cache at once (shards) leave every entry whole", async () => {
  await using tree = await tempTree({});
  const dir = join(tree.dir, "cache");
  const storeUrl = new URL("../../lib/run/cache_store.ts", import.meta.url).href;
  const signingUrl = new URL("../../lib/run/cache_signing.ts", import.meta.url).href;
  // Each process writes the same 30 keys with its own answers, as shards sharing a cache would.
  const script = `
    import { createCacheStore } from ${JSON.stringify(storeUrl)};
    import { createCacheSigner } from ${JSON.stringify(signingUrl)};
    const [dir, who, secret] = Deno.args;
    const store = createCacheStore({ dir, version: "t", signer: createCacheSigner(secret) });
    const writes = [];
    for (let i = 0; i < 30; i++) {
      const prompt = "p" + i;
      writes.push(store.write(
        { provider: "openai", settings: { model: "m" }, request: { messages: [{ role: "user", content: prompt }], prompt, guidelines: "", overrides: null, trial: 0 } },
        { output_messages: [{ role: "assistant", content: who }] },
        { role: "target", target: "t", dataset: "ds", eval_id: prompt, trial: 0 },
      ));
    }
    await Promise.all(writes);
  `;
  const children = ["a", "b", "c"].map((who) =>
    new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-check", "--ext=ts", script, dir, who, TEST_SECRET],
      stdout: "null",
      stderr: "piped",
    }).output()
  );
  for (const result of await Promise.all(children)) {
    assert.equal(result.code, 0, new TextDecoder().decode(result.stderr));
  }
  const reader = createCacheStore({ dir, version: "t", signer: TEST_SIGNER });
  for (let i = 0; i < 30; i++) {
    const found = await reader.read(cacheKey(material(`p${i}`)));
    assert.equal(found.hit, true, !found.hit ? found.reason : "");
    if (found.hit) assert.match(String(found.entry.response.output_messages[0].content), /^[abc]$/);
  }
});
