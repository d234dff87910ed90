/**
 * What a cache folder gives away: a `cli` target's `env` values key the cache as digests and
 * are in no file; a secret header value (from `${{ VAR }}`, however short) is in no file either,
 * yet still keys the cache; entries are 0600 in 0700 folders whatever the umask, and the key
 * file too (modes are asserted themselves: the tests run as root, who can read anything).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type CallOrigin, createCacheStore } from "../../lib/run/cache_store.ts";
import { cachedTarget, type CacheStats } from "../../lib/run/call_cache.ts";
import { runEval } from "../../lib/run/run_eval.ts";
import { createTarget } from "../../lib/targets/registry.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { project } from "../_helpers/run_project.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { requestOf } from "./_fake_target.ts";
import { CACHE_ENV, TEST_SECRET, TEST_SIGNER, userHome } from "./_user.ts";

/** Every file and folder under `dir` (itself included), with its mode bits. */
async function modesUnder(dir: string): Promise<{ path: string; folder: boolean; mode: number }[]> {
  const info = await Deno.lstat(dir);
  const out = [{ path: dir, folder: info.isDirectory, mode: info.mode! & 0o777 }];
  if (info.isDirectory) {
    for await (const entry of Deno.readDir(dir)) {
      out.push(...await modesUnder(join(dir, entry.name)));
    }
  }
  return out;
}

/** The text of every file under `dir`. */
async function textsUnder(dir: string): Promise<string[]> {
  const all = await modesUnder(dir);
  return await Promise.all(all.filter((e) => !e.folder).map((e) => Deno.readTextFile(e.path)));
}

Deno.test("a cli target's env values key the cache as digests: other values miss, and no value is in any cache file", async () => {
  await using tree = await tempTree({});
  const dir = join(tree.dir, "cache");
  const store = createCacheStore({ dir, version: "t", signer: TEST_SIGNER });
  const stats: CacheStats = { hits: 0, misses: 0, writes: 0 };
  const call = async (mode: string, token: string) => {
    const agent = createTarget({
      name: "agent",
      provider: "cli",
      command_template: "printf answer",
      cache: true,
      env: { AGENT_MODE: "${{ MODE }}", AGENT_REGION: "eu-west-7", AGENT_TOKEN: "${{ TOKEN }}" },
    }, { env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", MODE: mode, TOKEN: token } });
    const target = cachedTarget(agent, {
      store,
      mode: "readwrite",
      replay: false,
      role: "target",
      stats,
    });
    const response = await target.invoke(requestOf("c", { evalDir: tree.dir }));
    assert.equal(response.output_messages.at(-1)?.content, "answer");
    return response.cached === true;
  };
  assert.equal(await call("blue7", "tok-A-0123456789"), false);
  assert.equal(await call("blue7", "tok-A-0123456789"), true);
  assert.equal(await call("green", "tok-A-0123456789"), false, "same names, another value: a miss");
  assert.equal(await call("green", "tok-A-0123456789"), true);
  // A credential (a secret-named variable) is named only: rotating it keeps the cache.
  assert.equal(await call("blue7", "tok-B-9876543210"), true);
  assert.deepEqual(stats, { hits: 3, misses: 2, writes: 2 });

  const texts = await textsUnder(dir);
  for (const value of ["blue7", "green", "eu-west-7", "tok-A-0123456789", "tok-B-9876543210"]) {
    assert.ok(texts.every((t) => !t.includes(value)), `'${value}' is in a cache file`);
  }
  const entries = texts.map((t) => JSON.parse(t)).filter((e) => e.request !== undefined);
  assert.equal(entries.length, 2);
  for (const entry of entries) {
    assert.deepEqual(entry.request.settings.env, ["AGENT_MODE", "AGENT_REGION", "AGENT_TOKEN"]);
    assert.deepEqual(Object.keys(entry.request.sealed), ["env.AGENT_MODE", "env.AGENT_REGION"]);
    for (const digest of Object.values(entry.request.sealed)) {
      assert.match(String(digest), /^hmac-sha256:[0-9a-f]{64}$/);
    }
  }
});

Deno.test("a secret header value from ${{ VAR }}, short or long, is in no file under the cache folder, and still keys the cache", async () => {
  const long = "org-LONG-header-value-42";
  await using server = startProviderServer("openai", {
    // The model echoes the long header value: it must be redacted from the stored answer too.
    fallback: { type: "reply", text: (r) => `ok for ${r.headers["x-org"]}` },
  });
  await using p = await project({
    ".agentv/targets.yaml": `targets:
  - name: default
    provider: openai
    base_url: ${server.url}
    api_key: sk-test
    model: m
    max_retries: 0
    headers:
      x-tenant: \${{ TENANT }}
      x-org: \${{ ORG_ID }}
      x-team: blue
`,
    "evals/d.yaml": `evalcases:
  - id: one
    expected_outcome: x
    input: question
    evaluators: [{type: contains, value: ok}]
`,
  });
  const run = async (tenant: string) =>
    (await runEval({
      files: ["evals/d.yaml"],
      env: { ...CACHE_ENV, TENANT: tenant, ORG_ID: long },
      cwd: p.dir,
      cache: "readwrite",
      allowRun: true, // the dataset sends ${{ VAR }} values to a loopback host
    })).summary.cache;
  assert.deepEqual(await run("acme7"), { hits: 0, misses: 1, writes: 1 });
  assert.equal(server.requests[0].headers["x-tenant"], "acme7");
  assert.deepEqual(await run("acme7"), { hits: 1, misses: 0, writes: 0 });
  assert.deepEqual(await run("beta9"), { hits: 0, misses: 1, writes: 1 }, "another tenant");
  const texts = await textsUnder(join(p.dir, ".agentv", "cache"));
  assert.equal(texts.length, 3, "two entries and the case's note");
  for (const value of ["acme7", "beta9", long]) {
    assert.ok(texts.every((t) => !t.includes(value)), `'${value}' is in a cache file`);
  }
  const entry = texts.map((t) => JSON.parse(t)).find((e) => e.request !== undefined);
  assert.deepEqual(entry.request.settings.headers, { "x-team": "blue" });
  assert.deepEqual(Object.keys(entry.request.sealed).sort(), ["headers.x-org", "headers.x-tenant"]);
  assert.equal(entry.response.request.headers["x-tenant"], "***");
  assert.equal(entry.response.request.headers["x-team"], "blue");
});

const ORIGIN: CallOrigin = { role: "target", target: "t", dataset: "ds", eval_id: "c", trial: 0 };
const MATERIAL = {
  provider: "openai",
  settings: { model: "m" },
  request: { messages: [], prompt: "p", guidelines: "", overrides: null, trial: 0 },
};

Deno.test("entries, their folders and the key file are 0600 / 0700 under umask 000, and a checked-out cache is made private", async () => {
  await using tree = await tempTree({});
  await using home = await userHome();
  const dir = join(tree.dir, "cache");
  const lib = (path: string) => new URL(`../../lib/${path}`, import.meta.url).href;
  const script = `
    import { createCacheStore } from ${JSON.stringify(lib("run/cache_store.ts"))};
    import { createCacheSigner } from ${JSON.stringify(lib("run/cache_signing.ts"))};
    import { loadCacheSecret } from ${JSON.stringify(lib("run/cache_secret.ts"))};
    const [dir, home, secret, control] = Deno.args;
    const store = createCacheStore({ dir, version: "t", signer: createCacheSigner(secret) });
    await store.write(${JSON.stringify(MATERIAL)}, { output_messages: [] }, ${
    JSON.stringify(ORIGIN)
  });
    await loadCacheSecret({ XDG_CONFIG_HOME: home });
    await Deno.writeTextFile(control, "made with the default mode");
  `;
  const control = join(tree.dir, "control");
  const child = await new Deno.Command("sh", {
    args: [
      "-c",
      'umask 000 && exec "$@"',
      "sh",
      Deno.execPath(),
      "eval",
      "--no-check",
      "--ext=ts",
      script,
      dir,
      home.dir,
      TEST_SECRET,
      control,
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(child.code, 0, new TextDecoder().decode(child.stderr));
  // The child's umask was really 000: a file made without a mode is world-writable there.
  assert.equal((await Deno.stat(control)).mode! & 0o777, 0o666);
  const made = await modesUnder(dir);
  assert.ok(made.filter((e) => !e.folder).length >= 2, "an entry and its case note");
  for (const e of made) assert.equal(e.mode, e.folder ? 0o700 : 0o600, e.path);
  assert.equal((await Deno.stat(join(home.dir, "agentv"))).mode! & 0o777, 0o700);
  assert.equal((await Deno.stat(join(home.dir, "agentv", "cache.key"))).mode! & 0o777, 0o600);

  // A cache as a checkout leaves it (0755 / 0777 folders, 0644 files) is made private on write:
  // the cache folder (which closes everything below it to others), the entry's folder and file.
  const store = createCacheStore({ dir, version: "t", signer: TEST_SIGNER });
  for (const e of made) {
    await Deno.chmod(e.path, e.folder ? (e.path === dir ? 0o755 : 0o777) : 0o644);
  }
  const key = await store.write(MATERIAL, { output_messages: [] }, ORIGIN);
  const entry = store.path(key);
  assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o700);
  assert.equal((await Deno.stat(join(entry, ".."))).mode! & 0o777, 0o700);
  assert.equal((await Deno.stat(entry)).mode! & 0o777, 0o600);
});
