/**
 * Cache keys: stable for the same request (whatever the attempt, key order, runner settings or
 * API key), different when any request-relevant field changes, and free of secrets.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cacheKey, canonicalJson } from "../../lib/run/cache_key.ts";
import { createCacheStore } from "../../lib/run/cache_store.ts";
import { cachedTarget, type CacheStats } from "../../lib/run/call_cache.ts";
import { createTarget } from "../../lib/targets/registry.ts";
import type { TargetRequest } from "../../lib/targets/types.ts";
import { tempTree } from "../_helpers/temp_tree.ts";
import { fakeTarget, requestOf } from "./_fake_target.ts";
import { TEST_SIGNER } from "./_user.ts";

const SETTINGS = {
  base_url: "http://127.0.0.1:9/v1",
  model: "m1",
  temperature: 0.2,
  max_tokens: 100,
  headers: { "x-team": "a" },
};

/** Calls through a fresh readwrite cache in `dir`; says whether the call was a hit. */
async function hit(
  dir: string,
  settings: Record<string, unknown>,
  request: TargetRequest,
  provider = "openai",
): Promise<boolean> {
  const stats: CacheStats = { hits: 0, misses: 0, writes: 0 };
  const store = createCacheStore({ dir, version: "test", signer: TEST_SIGNER });
  const target = cachedTarget(fakeTarget(provider, settings), {
    store,
    mode: "readwrite",
    replay: false,
    role: "target",
    stats,
  });
  const response = await target.invoke(request);
  return response.cached === true;
}

Deno.test("canonical JSON ignores key order and the key is a SHA-256 of it", async () => {
  const a = { b: [1, { y: 2, x: "s" }], a: null, skip: undefined };
  const b = { a: null, b: [1, { x: "s", y: 2 }] };
  assert.equal(canonicalJson(a), canonicalJson(b));
  assert.equal(canonicalJson(a), '{"a":null,"b":[1,{"x":"s","y":2}]}');
  assert.equal(cacheKey(b), cacheKey({ b: b.b, a: null }));
  assert.notEqual(cacheKey({ a: 1 }), cacheKey({ a: "1" }));
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode('{"a":null,"b":[1,{"x":"s","y":2}]}'),
  );
  const hex = [...new Uint8Array(digest)].map((x) => x.toString(16).padStart(2, "0")).join("");
  assert.equal(cacheKey(b), hex);
});

Deno.test("the same request hits whatever its attempt, runner-only settings or API key", async () => {
  await using tree = await tempTree({});
  const dir = join(tree.dir, "cache");
  assert.equal(await hit(dir, SETTINGS, requestOf("c")), false);
  assert.equal(await hit(dir, SETTINGS, requestOf("c")), true);
  assert.equal(await hit(dir, SETTINGS, requestOf("c", { attempt: 3 })), true);
  assert.equal(await hit(dir, SETTINGS, requestOf("c", { trial: 0 })), true, "absent trial is 0");
  const runnerOnly = {
    ...SETTINGS,
    workers: 9,
    max_retries: 7,
    retry_initial_delay_ms: 5,
    pricing: { input_per_mtok: 1, output_per_mtok: 2 },
    judge_target: "judge",
    timeout_seconds: 3,
    api_key: "sk-other",
    headers: { "x-team": "a", authorization: "Bearer sk-other" },
    cache: true,
  };
  assert.equal(await hit(dir, runnerOnly, requestOf("c")), true);
  // Key order in settings does not matter either.
  const reordered = Object.fromEntries(Object.entries(SETTINGS).reverse());
  assert.equal(await hit(dir, reordered, requestOf("c")), true);
  // An HTTP target's calls are shared by cases with the same request.
  assert.equal(await hit(dir, SETTINGS, requestOf("other-case")), true);
});

Deno.test("every request-relevant field and the trial index change the key", async () => {
  await using tree = await tempTree({});
  const dir = join(tree.dir, "cache");
  const base = requestOf("c");
  assert.equal(await hit(dir, SETTINGS, base), false);
  const variants: [string, Record<string, unknown>, TargetRequest, string?][] = [
    ["model", { ...SETTINGS, model: "m2" }, base],
    ["endpoint", { ...SETTINGS, base_url: "http://127.0.0.1:10/v1" }, base],
    ["temperature", { ...SETTINGS, temperature: 0.3 }, base],
    ["max_tokens", { ...SETTINGS, max_tokens: 101 }, base],
    ["a request header", { ...SETTINGS, headers: { "x-team": "b" } }, base],
    ["the provider", SETTINGS, base, "azure"],
    ["the system message", SETTINGS, {
      ...base,
      messages: [{ role: "system", content: "Be long" }, base.messages[1]],
    }],
    ["the user message", SETTINGS, {
      ...base,
      messages: [base.messages[0], { role: "user", content: "What is 3+3?" }],
    }],
    ["a message role", SETTINGS, {
      ...base,
      messages: [{ role: "user", content: "Be brief" }, base.messages[1]],
    }],
    ["the prompt", SETTINGS, { ...base, prompt: "other" }],
    ["the guidelines", SETTINGS, { ...base, guidelines: "Be kind" }],
    ["a model override", SETTINGS, { ...base, overrides: { model: "judge-2" } }],
    ["a temperature override", SETTINGS, { ...base, overrides: { temperature: 0 } }],
    ["a max_tokens override", SETTINGS, { ...base, overrides: { max_tokens: 5 } }],
    ["the trial", SETTINGS, { ...base, trial: 1 }],
    ["another trial", SETTINGS, { ...base, trial: 2 }],
  ];
  for (const [what, settings, request, provider] of variants) {
    assert.equal(await hit(dir, settings, request, provider), false, `${what} changes the key`);
    assert.equal(await hit(dir, settings, request, provider), true, `${what}: then it hits`);
  }
});

Deno.test("a command target's key includes the case id and files; an HTTP target's does not", async () => {
  await using tree = await tempTree({});
  const dir = join(tree.dir, "cache");
  const cli = { command_template: "agent {PROMPT}", cache: true };
  assert.equal(await hit(dir, cli, requestOf("a"), "cli"), false);
  assert.equal(await hit(dir, cli, requestOf("a"), "cli"), true);
  assert.equal(await hit(dir, cli, requestOf("b"), "cli"), false, "{EVAL_ID} differs");
});

Deno.test("the call identity of a real target holds no secret and no runner setting", () => {
  const key = "sk-live-THE-KEY-42";
  const target = createTarget({
    name: "t",
    provider: "openai",
    base_url: "http://127.0.0.1:9/v1?key=${{ OPENAI_API_KEY }}",
    api_key: "${{ OPENAI_API_KEY }}",
    model: "gpt-4o",
    workers: 3,
    max_retries: 1,
    headers: { "x-api-key": "${{ OPENAI_API_KEY }}", "x-team": "t" },
    pricing: { input_per_mtok: 1, output_per_mtok: 1 },
  }, { env: { OPENAI_API_KEY: key } });
  const identity = target.callIdentity!();
  assert.equal(identity.cacheable, true);
  const text = JSON.stringify(identity);
  assert.ok(!text.includes(key), text);
  assert.deepEqual(Object.keys(identity.settings).sort(), ["base_url", "headers", "model"]);
  assert.deepEqual(identity.settings.headers, { "x-team": "t" });
  assert.equal(identity.settings.base_url, "http://127.0.0.1:9/v1?key=***");
});

Deno.test("cli and agent targets are cacheable only with cache: true; any target can opt out", () => {
  const make = (provider: string, extra: Record<string, unknown> = {}) =>
    createTarget({ name: "t", provider, ...extra }, { env: {} }).callIdentity!().cacheable;
  assert.equal(make("cli", { command_template: "echo {PROMPT}" }), false);
  assert.equal(make("cli", { command_template: "echo {PROMPT}", cache: true }), true);
  assert.equal(make("codex"), false);
  assert.equal(make("codex", { cache: true }), true);
  assert.equal(make("claude-code"), false);
  assert.equal(make("mock", { response: "x" }), true);
  assert.equal(make("mock", { response: "x", cache: false }), false);
});
