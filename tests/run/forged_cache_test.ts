/**
 * The cache as an attacker sees it: an entry edited by hand (`cost_usd: -1000`, another
 * answer), one forged with a recomputed hash or signed with the attacker's own key, and a
 * dataset that ships a forged cache with a config turning the cache on for the user's own
 * `--targets` target. None is ever served: each is a miss, counted as `rejected` and named with
 * `--verbose`; and a dataset's config cannot turn the cache on at all.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { canonicalJson } from "../../lib/run/cache_key.ts";
import { createCacheSigner } from "../../lib/run/cache_signing.ts";
import { type CallOrigin, createCacheStore } from "../../lib/run/cache_store.ts";
import { runEval, type RunEvalOptions } from "../../lib/run/run_eval.ts";
import type { RunEvent } from "../../lib/results/events.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { cli, project, rowsOf } from "../_helpers/run_project.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { CACHE_ENV, TEST_SIGNER, userHome } from "./_user.ts";

const TARGETS = (url: string) =>
  `targets:
  - name: default
    provider: openai
    base_url: ${url}
    api_key: \${{ OPENAI_API_KEY }}
    model: user-model
    max_retries: 0
    pricing: {input_per_mtok: 1, output_per_mtok: 1}
`;

const DATASET = `evalcases:
  - id: one
    expected_outcome: x
    input: first question
    evaluators: [{type: contains, value: honest}]
  - id: two
    expected_outcome: x
    input: second question
    evaluators: [{type: contains, value: honest}]
`;

/** The entry files under a cache folder (not the `cases/` notes). */
async function entryFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const sub of Deno.readDir(dir)) {
    if (!sub.isDirectory || sub.name === "cases") continue;
    for await (const f of Deno.readDir(join(dir, sub.name))) {
      if (f.name.endsWith(".json")) out.push(join(dir, sub.name, f.name));
    }
  }
  return out.sort();
}

/** An entry as JSON, edited freely by the attacker. */
// deno-lint-ignore no-explicit-any
type EntryJson = Record<string, any>;

async function editEntries(dir: string, edit: (entry: EntryJson) => void) {
  for (const path of await entryFiles(dir)) {
    const entry = JSON.parse(await Deno.readTextFile(path));
    edit(entry);
    await Deno.writeTextFile(path, JSON.stringify(entry, null, 2));
  }
}

Deno.test("an entry edited by hand (cost_usd: -1000, another answer) is rejected, counted and never served", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: "honest", usage: { input: 10, output: 2 } },
  });
  await using p = await project({
    ".agentv/targets.yaml": TARGETS(server.url),
    "evals/d.yaml": DATASET,
  });
  const env = { ...CACHE_ENV, OPENAI_API_KEY: "sk-test-key" };
  const run = (extra: Partial<RunEvalOptions>) =>
    runEval({ files: ["evals/d.yaml"], env, cwd: p.dir, allowRun: true, ...extra });
  const recorded = await run({ cache: "readwrite" });
  assert.deepEqual(recorded.summary.cache, { hits: 0, misses: 2, writes: 2 });
  const cacheDir = join(p.dir, ".agentv", "cache");
  // The edit of the report: a negative cost, a forged answer, the integrity left as it was.
  await editEntries(cacheDir, (entry) => {
    entry.response.cost_usd = -1000;
    entry.response.output_messages = [{ role: "assistant", content: "FORGED" }];
    entry.response.token_usage = { input: 0, output: 0 };
  });

  const events: RunEvent[] = [];
  const { rows, summary } = await run({ cache: "read", onEvent: (e) => events.push(e) });
  assert.equal(server.requests.length, 4, "both calls were made again");
  assert.deepEqual(rows.map((r) => [r.candidate_answer, r.cached]), [
    ["honest", false],
    ["honest", false],
  ]);
  assert.equal(summary.cost_usd, recorded.summary.cost_usd);
  assert.ok(summary.cost_usd! > 0);
  assert.deepEqual(summary.cache, { hits: 0, misses: 2, writes: 0, rejected: 2 });
  const rejected = events.flatMap((e) => e.type === "cache_rejected" ? [e] : []);
  assert.deepEqual(rejected.map((e) => [e.eval_id, e.role]).sort(), [
    ["one", "target"],
    ["two", "target"],
  ]);
  for (const e of rejected) {
    assert.match(e.reason, /does not match its integrity signature: it was edited by hand/);
    assert.ok((await entryFiles(cacheDir)).includes(e.path), e.path);
  }

  // A replay says why in the row; --verbose names the entry; the summary line counts them.
  const replayed = await run({ replay: true });
  for (const row of replayed.rows) {
    assert.equal(row.status, "error");
    assert.match(row.error!, /its entry cannot be used: the entry does not match its integrity/);
  }
  const verbose = await cli(
    ["run", "evals/d.yaml", "--cache", "read", "--verbose", "--out", "v.jsonl", "--allow-run"],
    p.dir,
    { env },
  );
  assert.equal(verbose.code, 0, verbose.err);
  assert.match(
    verbose.out,
    /cache: entry for one \(trial 0\) not used: the entry does not match its integrity signature.*\(\.agentv\/cache\/[0-9a-f]{2}\/[0-9a-f]{64}\.json\)/,
  );
  assert.match(verbose.out, /Cache: +0 hits, 2 misses, 0 writes, 2 rejected/);
  assert.ok((await rowsOf(join(p.dir, "v.jsonl"))).every((r) => r.candidate_answer === "honest"));
});

const ORIGIN: CallOrigin = { role: "target", target: "t", dataset: "ds", eval_id: "c", trial: 0 };
const MATERIAL = {
  provider: "openai",
  settings: { model: "m" },
  request: {
    messages: [{ role: "user", content: "2+2?" }],
    prompt: "2+2?",
    guidelines: "",
    overrides: null,
    trial: 0,
  },
};
const RESPONSE = {
  output_messages: [{ role: "assistant" as const, content: "4" }],
  token_usage: { input: 3, output: 1 },
  cost_usd: 0.25,
  duration_ms: 12,
  request: { url: "http://127.0.0.1:9/v1", body: { model: "m" } },
  turns: 1,
};

Deno.test("every field of an entry is under its signature: editing any one makes it a miss", async () => {
  await using tree = await tempTree({});
  const dir = join(tree.dir, "cache");
  const store = createCacheStore({ dir, version: "1.0.0", signer: TEST_SIGNER });
  const edits: [string, (e: EntryJson) => void][] = [
    ["the answer", (e) => e.response.output_messages[0].content = "5"],
    ["a message role", (e) => e.response.output_messages[0].role = "tool"],
    ["the token usage", (e) => e.response.token_usage.output = 0],
    ["the cost", (e) => e.response.cost_usd = -1000],
    ["a removed cost", (e) => delete e.response.cost_usd],
    ["the duration", (e) => e.response.duration_ms = 1],
    ["the recorded request", (e) => e.response.request.body.model = "other"],
    ["the turns", (e) => e.response.turns = 9],
    ["an added response field", (e) => e.response.tool_calls = [{ tool: "rm" }]],
    ["the writer", (e) => e.written_by.eval_id = "other"],
    ["the time", (e) => e.created_at = "2000-01-01T00:00:00.000Z"],
    ["the agentv version", (e) => e.agentv_version = "9.9.9"],
    ["an added top-level field", (e) => e.note = "hi"],
  ];
  for (const [what, edit] of edits) {
    const key = await store.write(MATERIAL, RESPONSE, ORIGIN);
    assert.equal((await store.read(key)).hit, true);
    const path = store.path(key);
    const entry = JSON.parse(await Deno.readTextFile(path));
    edit(entry);
    await Deno.writeTextFile(path, JSON.stringify(entry));
    const found = await store.read(key);
    assert.equal(found.hit, false, `${what}: served after an edit`);
    assert.equal(!found.hit && found.absent, undefined, what);
    assert.match(!found.hit ? found.reason : "", /does not match its integrity signature/, what);
  }
});

Deno.test("a forged entry is rejected: a recomputed plain hash, the attacker's own key, no signature, or the old unsigned format", async () => {
  await using tree = await tempTree({});
  const dir = join(tree.dir, "cache");
  const mine = createCacheStore({ dir, version: "1.0.0", signer: TEST_SIGNER });
  const key = await mine.write(MATERIAL, RESPONSE, ORIGIN);
  const path = mine.path(key);
  const genuine = JSON.parse(await Deno.readTextFile(path));
  const forged = {
    ...genuine,
    response: { ...RESPONSE, output_messages: [{ role: "assistant", content: "5" }] },
  };
  const { integrity: _, ...body } = forged;
  const reason = async (entry: unknown) => {
    await Deno.writeTextFile(path, JSON.stringify(entry));
    const found = await mine.read(key);
    assert.equal(found.hit, false);
    return !found.hit ? found.reason : "";
  };
  // The key id is public (it is in every committed entry): a forger copies it.
  const sha = "sha256:" + createHash("sha256").update(canonicalJson(body)).digest("hex");
  assert.match(await reason({ ...body, integrity: sha }), /does not match its integrity/);
  const attacker = createCacheSigner("attacker-secret-0123456789abcdef0123");
  const attackerHmac = attacker.sign(canonicalJson(body));
  assert.match(await reason({ ...body, integrity: attackerHmac }), /does not match its integrity/);
  // Signed whole by the attacker's own store: another key.
  const theirs = createCacheStore({
    dir: join(tree.dir, "theirs"),
    version: "1.0.0",
    signer: attacker,
  });
  await theirs.write(MATERIAL, forged.response, ORIGIN);
  const signedByThem = JSON.parse(await Deno.readTextFile(theirs.path(key)));
  assert.match(
    await reason(signedByThem),
    new RegExp(
      `signed with another cache key \\('${attacker.keyId}', yours is '${TEST_SIGNER.keyId}'\\)`,
    ),
  );
  assert.match(await reason(body), /has no integrity signature/);
  // An entry as agentv wrote them before they were signed (format 1) is recorded again.
  const { signed_by: _s, ...old } = body;
  assert.match(await reason({ ...old, version: 1 }), /format 1, not 2 .*record it again/);
  await mine.write(MATERIAL, RESPONSE, ORIGIN);
  const again = await mine.read(key);
  assert.equal(again.hit, true);
  assert.deepEqual(again.hit && again.entry.response, RESPONSE);
});

Deno.test("a dataset config cannot turn the cache on: the forged cache it ships is never served for the user's --targets target", async () => {
  // The attacker's server answers FORGED to the attacker's recording, then honestly.
  await using server = startProviderServer("openai", {
    steps: ["FORGED", "FORGED"],
    fallback: { type: "reply", text: "honest" },
  });
  await using home = await userHome({ "my-targets.yaml": TARGETS(server.url) });
  const myTargets = join(home.dir, "my-targets.yaml");
  await using p = await project({
    ".agentv/config.yaml": "cache: readwrite\n",
    "evals/d.yaml": DATASET,
  });
  // The attacker guesses the user's target (same endpoint and model) and records with a key of
  // their own: well-formed, signed entries, shipped in the dataset's .agentv/cache/.
  const forged = await runEval({
    files: ["evals/d.yaml"],
    env: { AGENTV_CACHE_KEY: "attacker-secret-0123456789abcdef0123", OPENAI_API_KEY: "sk-a" },
    cwd: p.dir,
    targetsFile: myTargets,
    cache: "write",
  });
  assert.deepEqual(forged.rows.map((r) => r.candidate_answer), ["FORGED", "FORGED"]);
  const cacheDir = join(p.dir, ".agentv", "cache");
  const shipped = await entryFiles(cacheDir);
  assert.equal(shipped.length, 2);
  const before = await Promise.all(shipped.map((f) => Deno.readTextFile(f)));

  // The user runs the dataset against their own target with no cache flag: the dataset's
  // `cache: readwrite` does not turn the cache on. Nothing is read, written, or even keyed.
  const env = { ...home.env, OPENAI_API_KEY: "sk-user" };
  const plain = await cli(
    ["run", "evals/d.yaml", "--targets", myTargets, "--out", "plain.jsonl"],
    p.dir,
    { env },
  );
  assert.equal(plain.code, 0, plain.err);
  assert.doesNotMatch(plain.out, /Cache:/);
  assert.match(
    plain.out + plain.err,
    /config\.yaml:1:8: warning: cache: readwrite in a dataset's config does not turn the cache on/,
  );
  assert.deepEqual((await rowsOf(join(p.dir, "plain.jsonl"))).map((r) => r.candidate_answer), [
    "honest",
    "honest",
  ]);
  assert.equal(server.requests.length, 4);
  assert.deepEqual(await Promise.all(shipped.map((f) => Deno.readTextFile(f))), before);
  await assert.rejects(Deno.stat(join(home.dir, "agentv", "cache.key")), Deno.errors.NotFound);

  // Even when the user turns the cache on, entries signed with another key are not served.
  const read = await cli(
    ["run", "evals/d.yaml", "--targets", myTargets, "--cache", "read", "--out", "read.jsonl"],
    p.dir,
    { env },
  );
  assert.equal(read.code, 0, read.err);
  assert.match(read.out, /Cache: +0 hits, 2 misses, 0 writes, 2 rejected/);
  assert.deepEqual((await rowsOf(join(p.dir, "read.jsonl"))).map((r) => r.candidate_answer), [
    "honest",
    "honest",
  ]);
  const replay = await cli(
    ["run", "evals/d.yaml", "--targets", myTargets, "--replay", "--out", "replay.jsonl"],
    p.dir,
    { env },
  );
  assert.equal(replay.code, 1);
  for (const row of await rowsOf(join(p.dir, "replay.jsonl"))) {
    assert.equal(row.status, "error");
    assert.notEqual(row.candidate_answer, "FORGED");
    assert.match(
      row.error!,
      /signed with another cache key .*recorded by another user or machine, or forged/,
    );
  }
});
