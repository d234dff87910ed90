/**
 * Who decides the cache: flags > the user's config > a dataset's config, which can only
 * restrict; the user's key (a key file made 0600 in the user's folder, or `AGENTV_CACHE_KEY`
 * to share a cache between machines) decides which entries are served; a dataset cannot move
 * the cache out of its root through a link.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadCacheSecret } from "../../lib/run/cache_secret.ts";
import { runEval, type RunEvalOptions } from "../../lib/run/run_eval.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { cli, project, rowsOf } from "../_helpers/run_project.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { userHome } from "./_user.ts";

const TARGETS = (url: string) =>
  `targets:
  - name: default
    provider: openai
    base_url: ${url}
    api_key: sk-test
    model: m
    max_retries: 0
`;

const DATASET = `evalcases:
  - id: one
    expected_outcome: x
    input: first question
    evaluators: [{type: contains, value: ok}]
  - id: two
    expected_outcome: x
    input: second question
    evaluators: [{type: contains, value: ok}]
`;

Deno.test("a dataset config can only restrict the user's cache, and flags win over both", async () => {
  await using server = startProviderServer("openai");
  await using home = await userHome({ "agentv/config.yaml": "cache: readwrite\n" });
  await using p = await project({
    ".agentv/targets.yaml": TARGETS(server.url),
    "evals/d.yaml": DATASET,
  });
  const config = (text: string) => Deno.writeTextFile(join(p.dir, ".agentv/config.yaml"), text);
  const run = async (extra: Partial<RunEvalOptions> = {}) =>
    (await runEval({ files: ["evals/d.yaml"], env: home.env, cwd: p.dir, ...extra })).summary
      .cache;

  // The dataset turns the user's cache off: nothing is kept.
  await config("cache: off\n");
  assert.equal(await run(), undefined);
  await assert.rejects(Deno.stat(join(p.dir, ".agentv/cache")), Deno.errors.NotFound);
  // `read` drops the writes of the user's readwrite.
  await config("cache: read\n");
  assert.deepEqual(await run(), { hits: 0, misses: 2, writes: 0 });
  // A flag decides alone: it records although the dataset says read...
  assert.deepEqual(await run({ cache: "write" }), { hits: 0, misses: 0, writes: 2 });
  // ...and reads although the dataset says off.
  await config("cache: off\n");
  assert.deepEqual(await run({ cache: "readwrite" }), { hits: 2, misses: 0, writes: 0 });
  assert.deepEqual(await run({ replay: true }), { hits: 2, misses: 0, writes: 0 });
  // Without the dataset's restriction the user's readwrite applies.
  await config("cache_dir: .agentv/cache\n");
  assert.deepEqual(await run(), { hits: 2, misses: 0, writes: 0 });
  assert.equal(server.requests.length, 2 + 2 + 2);
});

Deno.test("a user config with an unknown key or a bad mode is an error at its line; nothing runs (exit 2)", async () => {
  await using server = startProviderServer("openai");
  await using p = await project({
    ".agentv/targets.yaml": TARGETS(server.url),
    "evals/d.yaml": DATASET,
  });
  for (
    const [text, message] of [
      ["cahce: readwrite\n", /config\.yaml:1:1: error: .*cahce.*did you mean 'cache'/i],
      [
        "cache: always\n",
        /config\.yaml:1:8: error: cache must be one of off, read, write, readwrite/,
      ],
    ] as const
  ) {
    await using home = await userHome({ "agentv/config.yaml": text });
    const ran = await cli(["run", "evals/d.yaml", "--out", "r.jsonl"], p.dir, { env: home.env });
    assert.equal(ran.code, 2, ran.out);
    assert.match(ran.err, message);
    assert.equal(server.requests.length, 0);
  }
});

Deno.test("a cache folder that a dataset links out of its root is refused before anything runs (exit 2)", async () => {
  await using server = startProviderServer("openai");
  await using outside = await tempTree({});
  await using home = await userHome();
  await using p = await project({
    ".agentv/targets.yaml": TARGETS(server.url),
    "evals/d.yaml": DATASET,
  });
  await Deno.symlink(outside.dir, join(p.dir, ".agentv/cache"));
  const ran = await cli(
    ["run", "evals/d.yaml", "--cache", "readwrite", "--out", "r.jsonl"],
    p.dir,
    { env: home.env },
  );
  assert.equal(ran.code, 2);
  assert.match(ran.err, /cache folder .*\.agentv\/cache leads outside the dataset root/);
  // So is a config's cache_dir below a link out of the root.
  await Deno.remove(join(p.dir, ".agentv/cache"));
  await Deno.symlink(outside.dir, join(p.dir, "shared"));
  await Deno.writeTextFile(join(p.dir, ".agentv/config.yaml"), "cache_dir: shared/cache\n");
  const configured = await cli(
    ["run", "evals/d.yaml", "--cache", "readwrite", "--out", "r.jsonl"],
    p.dir,
    { env: home.env },
  );
  assert.equal(configured.code, 2);
  assert.match(configured.err, /cache folder .*shared\/cache leads outside the dataset root/);
  assert.equal(server.requests.length, 0);
  assert.deepEqual([...Deno.readDirSync(outside.dir)], []);
  // The user may still name any folder on the command line.
  const flagged = await cli(
    ["run", "evals/d.yaml", "--cache", "readwrite", "--cache-dir", outside.dir, "--out", "r.jsonl"],
    p.dir,
    { env: home.env },
  );
  assert.equal(flagged.code, 0, flagged.err);
  assert.match(flagged.out, /Cache: +0 hits, 2 misses, 2 writes/);
});

Deno.test("the user's key file is made once, 0600 in a 0700 folder, by concurrent runs alike", async () => {
  await using home = await userHome();
  const loads = await Promise.all(
    Array.from({ length: 8 }, () => loadCacheSecret(home.env, "linux")),
  );
  const path = join(home.dir, "agentv", "cache.key");
  assert.ok(loads.every((l) => l.source === path && l.secret === loads[0].secret));
  assert.match(loads[0].secret, /^[0-9a-f]{64}$/);
  assert.equal((await Deno.readTextFile(path)).trim(), loads[0].secret);
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  assert.equal((await Deno.stat(join(home.dir, "agentv"))).mode! & 0o777, 0o700);
  assert.deepEqual([...Deno.readDirSync(join(home.dir, "agentv"))].map((e) => e.name), [
    "cache.key",
  ]);
});

Deno.test("AGENTV_CACHE_KEY shares a cache between machines; another user's key file does not", async () => {
  await using server = startProviderServer("openai");
  await using p = await project({
    ".agentv/targets.yaml": TARGETS(server.url),
    "evals/d.yaml": DATASET,
  });
  await using laptop = await userHome();
  await using ci = await userHome();
  const run = (args: string[], env: Record<string, string>) =>
    cli(["run", "evals/d.yaml", ...args], p.dir, { env });
  // Recorded with the laptop's own key file: CI, with another key file, cannot replay it.
  const mine = await run(["--cache", "write", "--out", "a.jsonl"], laptop.env);
  assert.equal(mine.code, 0, mine.err);
  const replayed = await run(["--replay", "--out", "b.jsonl"], ci.env);
  assert.equal(replayed.code, 1);
  for (const row of await rowsOf(join(p.dir, "b.jsonl"))) {
    assert.match(row.error!, /signed with another cache key/);
  }
  // Recorded with a shared key: CI replays every call with the same key, not without it.
  const shared = { AGENTV_CACHE_KEY: "shared-team-secret-0123456789abcdef01" };
  assert.equal(
    (await run(["--cache", "write", "--out", "c.jsonl"], { ...laptop.env, ...shared })).code,
    0,
  );
  const inCi = await run(["--replay", "--out", "d.jsonl"], { ...ci.env, ...shared });
  assert.equal(inCi.code, 0, inCi.err);
  assert.match(inCi.out, /Cache: +2 hits, 0 misses, 0 writes/);
  assert.equal(server.requests.length, 4);
  // A short shared key is refused before anything runs.
  const short = await run(["--replay", "--out", "e.jsonl"], { AGENTV_CACHE_KEY: "hunter2" });
  assert.equal(short.code, 2);
  assert.match(short.err, /AGENTV_CACHE_KEY is too short: 7 characters, at least 32 are needed/);
  assert.doesNotMatch(short.err, /hunter2/);
  // No user folder and no shared key: the cache cannot be used, and says how to fix it.
  const homeless = await run(["--cache", "read", "--out", "f.jsonl"], {});
  assert.equal(homeless.code, 2);
  assert.match(homeless.err, /neither XDG_CONFIG_HOME nor HOME is set/);
  assert.match(homeless.err, /AGENTV_CACHE_KEY/);
});
