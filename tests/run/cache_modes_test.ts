/**
 * Cache modes: `read` looks up and never writes, `write` calls and records and never looks up,
 * `readwrite` does both, `off` adds nothing; errors and timed-out calls are never recorded;
 * command targets are cached only when they opt in; the config's `cache:` applies unless a flag
 * says otherwise.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createCacheStore } from "../../lib/run/cache_store.ts";
import { cachedTarget, type CacheStats } from "../../lib/run/call_cache.ts";
import { runEval } from "../../lib/run/run_eval.ts";
import type { CacheMode } from "../../lib/schema/config.ts";
import { TargetError } from "../../lib/targets/types.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { byId, cli, cli as runCli, project, rowsOf } from "../_helpers/run_project.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { type FakeTarget, fakeTarget, requestOf } from "./_fake_target.ts";
import { CACHE_ENV, TEST_SIGNER, userHome } from "./_user.ts";

function wrap(inner: FakeTarget, dir: string, mode: Exclude<CacheMode, "off">, replay = false) {
  const stats: CacheStats = { hits: 0, misses: 0, writes: 0 };
  const store = createCacheStore({ dir, version: "test", signer: TEST_SIGNER });
  return {
    stats,
    target: cachedTarget(inner, { store, mode, replay, role: "target", stats }),
  };
}

async function entryCount(dir: string): Promise<number> {
  let n = 0;
  try {
    for await (const sub of Deno.readDir(dir)) {
      if (!sub.isDirectory || sub.name === "cases") continue;
      for await (const f of Deno.readDir(join(dir, sub.name))) {
        if (f.name.endsWith(".json")) n++;
      }
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return n;
}

Deno.test("readwrite records a miss and answers the same request from the cache next time", async () => {
  await using tree = await tempTree({});
  const dir = join(tree.dir, "cache");
  const inner = fakeTarget("openai", { model: "m" });
  const { target, stats } = wrap(inner, dir, "readwrite");
  const first = await target.invoke(requestOf("c"));
  const second = await target.invoke(requestOf("c"));
  assert.equal(inner.calls.length, 1);
  assert.equal(first.cached, undefined);
  assert.equal(second.cached, true);
  assert.deepEqual(second.output_messages, first.output_messages);
  assert.deepEqual(second.token_usage, first.token_usage);
  assert.equal(second.cost_usd, first.cost_usd);
  assert.deepEqual(stats, { hits: 1, misses: 1, writes: 1 });
  assert.equal(await entryCount(dir), 1);
});

Deno.test("read never writes and write never reads", async () => {
  await using tree = await tempTree({});
  const dir = join(tree.dir, "cache");
  const reader = wrap(fakeTarget("openai", { model: "m" }), dir, "read");
  await reader.target.invoke(requestOf("c"));
  await reader.target.invoke(requestOf("c"));
  assert.deepEqual(reader.stats, { hits: 0, misses: 1, writes: 0 }, "a retried miss counts once");
  assert.equal(await entryCount(dir), 0);

  const writerInner = fakeTarget("openai", { model: "m" });
  const writer = wrap(writerInner, dir, "write");
  await writer.target.invoke(requestOf("c"));
  const again = await writer.target.invoke(requestOf("c"));
  assert.equal(writerInner.calls.length, 2, "write mode always calls");
  assert.equal(again.cached, undefined);
  assert.deepEqual(writer.stats, { hits: 0, misses: 0, writes: 2 });
  assert.equal(await entryCount(dir), 1, "the same key is rewritten in place");

  // What `write` recorded (its latest answer) is what `read` now returns.
  const readInner = fakeTarget("openai", { model: "m" });
  const read = wrap(readInner, dir, "read");
  const answer = await read.target.invoke(requestOf("c"));
  assert.equal(readInner.calls.length, 0);
  assert.deepEqual(answer.output_messages, [{ role: "assistant", content: "answer:2" }]);
});

Deno.test("errors and timed-out calls are never recorded", async () => {
  await using tree = await tempTree({});
  const dir = join(tree.dir, "cache");
  const inner = fakeTarget("openai", { model: "m" });
  const { target, stats } = wrap(inner, dir, "readwrite");
  inner.failNext.push(new TargetError("HTTP 500", { status: 500, retryable: true }));
  await assert.rejects(target.invoke(requestOf("c")), /HTTP 500/);
  assert.equal(await entryCount(dir), 0);
  // A call whose attempt timed out (its signal aborted) but answered anyway is not kept either.
  const timedOut = new AbortController();
  timedOut.abort(new DOMException("Timed out", "TimeoutError"));
  await target.invoke(requestOf("c", { signal: timedOut.signal }));
  assert.equal(await entryCount(dir), 0);
  const ok = await target.invoke(requestOf("c"));
  assert.equal(ok.cached, undefined);
  assert.equal(await entryCount(dir), 1);
  assert.equal(inner.calls.length, 3);
  assert.deepEqual(stats, { hits: 0, misses: 1, writes: 1 });
});

Deno.test("a command target without cache: true is called every time, and cannot be replayed", async () => {
  await using tree = await tempTree({});
  const dir = join(tree.dir, "cache");
  const inner = fakeTarget("cli", { command_template: "agent {PROMPT}" });
  const { target, stats } = wrap(inner, dir, "readwrite");
  await target.invoke(requestOf("c"));
  await target.invoke(requestOf("c"));
  assert.equal(inner.calls.length, 2);
  assert.deepEqual(stats, { hits: 0, misses: 0, writes: 0 });
  assert.equal(await entryCount(dir), 0);
  const replay = wrap(fakeTarget("cli", { command_template: "agent {PROMPT}" }), dir, "read", true);
  await assert.rejects(
    replay.target.invoke(requestOf("c")),
    /Cannot replay case 'c' \(dataset 'ds', trial 0\): target 'fake' \(cli\) is not cached; set `cache: true`/,
  );

  const optedIn = fakeTarget("cli", { command_template: "agent {PROMPT}", cache: true });
  const cached = wrap(optedIn, dir, "readwrite");
  await cached.target.invoke(requestOf("c"));
  assert.equal((await cached.target.invoke(requestOf("c"))).cached, true);
  assert.equal(optedIn.calls.length, 1);
});

const TARGETS = (url: string, extra = "") =>
  `targets:
  - name: default
    provider: openai
    base_url: ${url}
    api_key: sk-test
    model: m
    max_retries: 0
${extra}`;

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

Deno.test("with the cache off a run writes no cache, rows say cached: false and the summary has no cache", async () => {
  await using server = startProviderServer("openai");
  await using p = await project({
    ".agentv/targets.yaml": TARGETS(server.url),
    "evals/d.yaml": DATASET,
  });
  const { rows, summary } = await runEval({ files: ["evals/d.yaml"], env: {}, cwd: p.dir });
  assert.equal(server.requests.length, 2);
  assert.deepEqual(rows.map((r) => r.cached), [false, false]);
  assert.equal(summary.cache, undefined);
  await assert.rejects(Deno.stat(join(p.dir, ".agentv", "cache")), Deno.errors.NotFound);
});

Deno.test("a replay through runEval makes no network call (fetch throws) and needs no key variable", async () => {
  await using server = startProviderServer("openai");
  await using p = await project({
    ".agentv/targets.yaml": TARGETS(server.url).replace("sk-test", "${{ OPENAI_API_KEY }}"),
    "evals/d.yaml": DATASET,
  });
  const recorded = await runEval({
    files: ["evals/d.yaml"],
    env: { ...CACHE_ENV, OPENAI_API_KEY: "sk-rec" },
    cwd: p.dir,
    // ${{ OPENAI_API_KEY }} goes to a loopback server: the dataset's targets file needs consent.
    allowRun: true,
    cache: "write",
  });
  assert.deepEqual(recorded.summary.cache, { hits: 0, misses: 0, writes: 2 });
  let fetched = 0;
  const { rows, summary } = await runEval({
    files: ["evals/d.yaml"],
    env: { ...CACHE_ENV },
    cwd: p.dir,
    replay: true,
    fetch: () => {
      fetched++;
      throw new Error("network used");
    },
  });
  assert.equal(fetched, 0);
  assert.equal(server.requests.length, 2);
  assert.deepEqual(rows.map((r) => [r.status, r.cached]), [["ok", true], ["ok", true]]);
  assert.deepEqual(summary.cache, { hits: 2, misses: 0, writes: 0 });
  // Without --replay the missing key is still an error: the target cannot be used.
  const plain = await runEval({
    files: ["evals/d.yaml"],
    env: { ...CACHE_ENV },
    cwd: p.dir,
    cache: "read",
  })
    .then(() => "ran", (e) => (e as Error).message);
  assert.match(plain, /OPENAI_API_KEY/);
});

Deno.test("the user config's cache and the dataset config's cache_dir apply to a run; --cache and --cache-dir win", async () => {
  await using server = startProviderServer("openai");
  await using p = await project({
    ".agentv/targets.yaml": TARGETS(server.url),
    ".agentv/config.yaml": "cache_dir: shared-cache\n",
    "evals/d.yaml": DATASET,
  });
  // The cache is the user's to turn on (a dataset's config can only restrict it).
  await using home = await userHome({ "agentv/config.yaml": "cache: readwrite\n" });
  const cli = (args: string[], dir: string) => runCli(args, dir, { env: home.env });
  const first = await cli(["run", "evals/d.yaml", "--out", "a.jsonl"], p.dir);
  assert.equal(first.code, 0, first.err);
  assert.match(first.out, /Cache: +0 hits, 2 misses, 2 writes/);
  assert.equal(await entryCount(join(p.dir, "shared-cache")), 2);
  const second = await cli(["run", "evals/d.yaml", "--out", "b.jsonl"], p.dir);
  assert.match(second.out, /Cache: +2 hits, 0 misses, 0 writes/);
  assert.equal(server.requests.length, 2);
  assert.deepEqual((await rowsOf(join(p.dir, "b.jsonl"))).map((r) => r.cached), [true, true]);
  const record = JSON.parse(await Deno.readTextFile(join(p.dir, "b.jsonl.run.json")));
  assert.equal(record.options.cache, "readwrite");
  assert.equal(record.options.replay, false);

  const off = await cli(["run", "evals/d.yaml", "--cache", "off", "--out", "c.jsonl"], p.dir);
  assert.doesNotMatch(off.out, /Cache:/);
  assert.equal(server.requests.length, 4);
  const elsewhere = await cli(
    ["run", "evals/d.yaml", "--cache-dir", "other", "--out", "d.jsonl"],
    p.dir,
  );
  assert.match(elsewhere.out, /Cache: +0 hits, 2 misses, 2 writes/);
  assert.equal(await entryCount(join(p.dir, "other")), 2);
  assert.deepEqual(
    Object.values(byId(await rowsOf(join(p.dir, "c.jsonl")))).map((r) => r.cached),
    [false, false],
  );
});

Deno.test("bad cache flags are usage errors (exit 2)", async () => {
  await using p = await project({ "evals/d.yaml": DATASET });
  const bad = await cli(["run", "evals/d.yaml", "--cache", "sometimes"], p.dir);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--cache must be one of off, read, write, readwrite, got 'sometimes'/);
  const clash = await cli(["run", "evals/d.yaml", "--replay", "--cache", "write"], p.dir);
  assert.equal(clash.code, 2);
  assert.match(clash.err, /--replay cannot be used with --cache write/);
});

Deno.test("each trial of a case is its own call and its own entry", async () => {
  await using server = startProviderServer("openai");
  await using p = await project({
    ".agentv/targets.yaml": TARGETS(server.url),
    "evals/d.yaml": DATASET,
  });
  const first = await runEval({
    files: ["evals/d.yaml"],
    env: { ...CACHE_ENV },
    cwd: p.dir,
    trials: 3,
    cache: "readwrite",
  });
  assert.equal(server.requests.length, 6);
  assert.deepEqual(first.summary.cache, { hits: 0, misses: 6, writes: 6 });
  assert.equal(await entryCount(join(p.dir, ".agentv", "cache")), 6);
  const again = await runEval({
    files: ["evals/d.yaml"],
    env: { ...CACHE_ENV },
    cwd: p.dir,
    trials: 3,
    replay: true,
  });
  assert.equal(server.requests.length, 6);
  assert.deepEqual(again.summary.cache, { hits: 6, misses: 0, writes: 0 });
  assert.deepEqual(
    again.rows.map((r) => `${r.eval_id}:${r.trial}:${r.cached}`).sort(),
    ["one:0:true", "one:1:true", "one:2:true", "two:0:true", "two:1:true", "two:2:true"],
  );
});

Deno.test("an invalid cache setting in the config is reported with its position and ignored", async () => {
  await using server = startProviderServer("openai");
  await using p = await project({
    ".agentv/targets.yaml": TARGETS(server.url),
    ".agentv/config.yaml": "cache: sometimes\n",
    "evals/d.yaml": DATASET,
  });
  const validated = await cli(["validate", "."], p.dir);
  assert.equal(validated.code, 1);
  assert.match(
    validated.out + validated.err,
    /config\.yaml:1:\d+: .*cache must be one of off, read, write, readwrite/,
  );
  const ran = await cli(["run", "evals/d.yaml", "--out", "r.jsonl"], p.dir);
  assert.match(
    ran.out + ran.err,
    /cache must be one of off, read, write, readwrite; the setting is ignored/,
  );
  assert.doesNotMatch(ran.out, /Cache:/);
  await assert.rejects(Deno.stat(join(p.dir, ".agentv", "cache")), Deno.errors.NotFound);
});

Deno.test("a cache hit is answered before the budget: it costs nothing and is never refused", async () => {
  await using server = startProviderServer("openai");
  await using p = await project({
    ".agentv/targets.yaml": TARGETS(
      server.url,
      "    pricing: {input_per_mtok: 1000, output_per_mtok: 1000}\n    max_tokens: 10\n",
    ),
    "evals/d.yaml": DATASET,
  });
  await runEval({ files: ["evals/d.yaml"], env: { ...CACHE_ENV }, cwd: p.dir, cache: "readwrite" });
  assert.equal(server.requests.length, 2);
  const { rows, summary } = await runEval({
    files: ["evals/d.yaml"],
    env: { ...CACHE_ENV },
    cwd: p.dir,
    cache: "readwrite",
    budgetUsd: 0.000001,
  });
  assert.equal(server.requests.length, 2);
  assert.deepEqual(rows.map((r) => [r.status, r.cached]), [["ok", true], ["ok", true]]);
  assert.equal(summary.budget?.spent_usd, 0);
  assert.equal(summary.budget?.refused_calls, 0);
});

Deno.test("an API key never reaches the cache, even when the model echoes it", async () => {
  const key = "sk-live-ECHOED-7f3a";
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: (r) => `you sent ${r.headers.authorization}` },
  });
  await using p = await project({
    ".agentv/targets.yaml": TARGETS(server.url).replace("sk-test", "${{ OPENAI_API_KEY }}"),
    "evals/d.yaml": DATASET,
  });
  const { summary } = await runEval({
    files: ["evals/d.yaml"],
    env: { ...CACHE_ENV, OPENAI_API_KEY: key },
    cwd: p.dir,
    allowRun: true,
    cache: "readwrite",
  });
  assert.deepEqual(summary.cache, { hits: 0, misses: 2, writes: 2 });
  const dir = join(p.dir, ".agentv", "cache");
  let files = 0;
  for await (const sub of Deno.readDir(dir)) {
    for await (const f of Deno.readDir(join(dir, sub.name))) {
      const path = join(dir, sub.name, f.name);
      const text = f.isFile ? await Deno.readTextFile(path) : "";
      assert.ok(!text.includes(key), `${path} holds the key`);
      files++;
    }
  }
  assert.ok(files >= 2);
});

Deno.test("a config's cache_dir outside the dataset root is refused before anything runs (exit 2)", async () => {
  await using server = startProviderServer("openai");
  await using p = await project({
    ".agentv/targets.yaml": TARGETS(server.url),
    ".agentv/config.yaml": "cache_dir: ../elsewhere\n",
    "evals/d.yaml": DATASET,
  });
  const cli = (args: string[], dir: string) =>
    runCli([...args, "--cache", "readwrite"], dir, { env: { ...CACHE_ENV } });
  const ran = await cli(["run", "evals/d.yaml", "--out", "r.jsonl"], p.dir);
  assert.equal(ran.code, 2);
  assert.match(ran.err, /cache_dir '\.\.\/elsewhere' leads outside the dataset root/);
  assert.equal(server.requests.length, 0);
  // A folder the user names on the command line may be anywhere.
  await using outside = await tempTree({});
  const flagged = await cli(
    ["run", "evals/d.yaml", "--cache-dir", join(outside.dir, "cache"), "--out", "r.jsonl"],
    p.dir,
  );
  assert.equal(flagged.code, 0, flagged.err);
  assert.equal(await entryCount(join(outside.dir, "cache")), 2);
});
