import assert from "node:assert/strict";
import { createTarget } from "../../lib/targets/registry.ts";
import { invokeWithRetry, retryDelay, type RetryInfo } from "../../lib/targets/retry.ts";
import type { RetryPolicy, Target } from "../../lib/targets/types.ts";
import { manualTimer } from "../_helpers/manual_timer.ts";
import { type ProviderKind, startProviderServer, type Step } from "../_helpers/provider_servers.ts";
import { makeRequest, SECRET } from "./_request.ts";

const POLICY: RetryPolicy = {
  maxRetries: 3,
  initialDelayMs: 1000,
  maxDelayMs: 60_000,
  backoffFactor: 2,
  retryStatusCodes: [408, 429, 500, 502, 503, 504],
};

function targetFor(kind: ProviderKind, url: string, extra: Record<string, unknown> = {}): Target {
  const base = { name: kind, api_key: SECRET, model: "m", ...extra };
  const definition = kind === "azure"
    ? { ...base, provider: "azure", endpoint: url }
    : { ...base, provider: kind, base_url: url };
  return createTarget(definition, { env: {} });
}

/** Records requested sleeps instead of sleeping. */
function fakeSleep() {
  const sleeps: number[] = [];
  return { sleeps, sleep: (ms: number) => (sleeps.push(ms), Promise.resolve()) };
}

const { request: _s, attempt: _a, ...baseRequest } = { ...makeRequest(), request: undefined };

for (const kind of ["openai", "azure", "anthropic", "gemini"] as const) {
  Deno.test(`${kind}: 429 with Retry-After, 500, reset and malformed body are retried, then the reply is parsed`, async () => {
    await using server = startProviderServer(kind, {
      steps: [
        { type: "status", status: 429, retryAfter: "3" },
        { type: "status", status: 500 },
        { type: "reset" },
        { type: "malformed" },
        { type: "reply", text: "finally", usage: { input: 5, output: 1 } },
      ],
    });
    const { sleeps, sleep } = fakeSleep();
    const retries: RetryInfo[] = [];
    const target = targetFor(kind, server.url, { max_retries: 4 });
    const { response, attempts } = await invokeWithRetry(target, baseRequest, {
      timeoutMs: 5000,
      signal: new AbortController().signal,
      sleep,
      random: () => 0.5,
      onRetry: (info) => retries.push(info),
    });
    assert.equal(attempts, 5);
    assert.equal(server.requests.length, 5);
    assert.deepEqual(response.output_messages.at(-1)?.content, "finally");
    assert.deepEqual(response.token_usage, { input: 5, output: 1 });
    // jittered backoff 0.5 * 1000 * 2^k, raised to Retry-After (3 s) on the first retry
    assert.deepEqual(sleeps, [3000, 1000, 2000, 4000]);
    assert.deepEqual(retries.map((r) => r.error.status), [429, 500, undefined, 200]);
    assert.match(retries[2].error.message, /connection failed/);
    assert.match(retries[3].error.message, /malformed body/);
  });
}

Deno.test("a hanging server is cut off by the per-attempt timeout and retried", async () => {
  await using server = startProviderServer("openai", {
    steps: [{ type: "hang" }, { type: "reply", text: "ok" }],
  });
  const { sleeps, sleep } = fakeSleep();
  const clock = manualTimer();
  const call = invokeWithRetry(targetFor("openai", server.url), baseRequest, {
    timeoutMs: 150,
    signal: new AbortController().signal,
    sleep,
    random: () => 0,
    timer: clock.timer,
  });
  // The first call hangs for good: once it has reached the server, its 150 ms pass. The second
  // attempt's timer never fires, however slow the machine.
  await server.waitForRequests(1);
  clock.elapse();
  const { response, attempts } = await call;
  assert.equal(attempts, 2);
  assert.equal(response.output_messages[0].content, "ok");
  assert.deepEqual(sleeps, [0]);
  assert.deepEqual(clock.armed, [
    { ms: 150, fired: true, disarmed: true },
    { ms: 150, fired: false, disarmed: true },
  ]);
});

Deno.test("timeouts on every attempt fail with the timeout message and the attempt count", async () => {
  await using server = startProviderServer("openai", { fallback: { type: "hang" } });
  const target = targetFor("openai", server.url, { max_retries: 1 });
  const error = await invokeWithRetry(target, baseRequest, {
    timeoutMs: 50,
    signal: new AbortController().signal,
    sleep: () => Promise.resolve(),
  }).then(() => undefined, (e) => e);
  assert.match(error.message, /Target 'openai' timed out after 0\.1s/);
  assert.equal(error.attempts, 2);
  assert.equal(server.requests.length, 2);
});

Deno.test("401 and 403 are never retried, even when listed in retry_status_codes", async () => {
  for (const status of [401, 403]) {
    await using server = startProviderServer("openai", { steps: [{ type: "status", status }] });
    const target = targetFor("openai", server.url, { retry_status_codes: [401, 403, 500] });
    const error = await invokeWithRetry(target, baseRequest, {
      timeoutMs: 5000,
      signal: new AbortController().signal,
      sleep: () => Promise.resolve(),
    }).then(() => undefined, (e) => e);
    assert.equal(error.status, status);
    assert.equal(error.attempts, 1);
    assert.equal(server.requests.length, 1);
  }
});

Deno.test("retry_status_codes and max_retries of the target decide what is retried", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "status", status: 503 },
  });
  const notListed = targetFor("openai", server.url, { retry_status_codes: [429] });
  const e1 = await invokeWithRetry(notListed, baseRequest, {
    timeoutMs: 5000,
    signal: new AbortController().signal,
    sleep: () => Promise.resolve(),
  }).then(() => undefined, (e) => e);
  assert.equal(e1.attempts, 1);
  const twice = targetFor("openai", server.url, { max_retries: 2 });
  const e2 = await invokeWithRetry(twice, baseRequest, {
    timeoutMs: 5000,
    signal: new AbortController().signal,
    sleep: () => Promise.resolve(),
  }).then(() => undefined, (e) => e);
  assert.equal(e2.attempts, 3);
  assert.equal(e2.status, 503);
  assert.equal(server.requests.length, 4);
});

Deno.test("an outer abort stops a hanging call at once and is not retried", async () => {
  await using server = startProviderServer("openai", { fallback: { type: "hang" } });
  const controller = new AbortController();
  // The call hangs for good and the attempt timeout is a minute: returning shows the abort ended it.
  const call = invokeWithRetry(targetFor("openai", server.url), baseRequest, {
    timeoutMs: 60_000,
    signal: controller.signal,
  }).then(() => undefined, (e) => e);
  await server.waitForRequests(1);
  controller.abort(new Error("interrupted by user"));
  const error = await call;
  assert.match(error.message, /Interrupted: interrupted by user/);
  assert.equal(error.attempts, 1);
  assert.equal(server.requests.length, 1);
});

Deno.test("an outer abort during the backoff sleep ends the loop without another attempt", async () => {
  await using server = startProviderServer("openai", { fallback: { type: "status", status: 500 } });
  const controller = new AbortController();
  const target = targetFor("openai", server.url, { retry_initial_delay_ms: 600_000 });
  // Abort as the 10-minute backoff begins (onRetry fires just before the sleep).
  await assert.rejects(
    invokeWithRetry(target, baseRequest, {
      timeoutMs: 5000,
      signal: controller.signal,
      random: () => 1,
      onRetry: () => controller.abort(),
    }),
    /Interrupted/,
  );
  assert.equal(server.requests.length, 1);
});

Deno.test("Retry-After: 1 makes the second attempt wait a second", async () => {
  await using server = startProviderServer("openai", {
    steps: [{ type: "status", status: 429, retryAfter: "1" }, "ok"],
  });
  const target = targetFor("openai", server.url, { retry_initial_delay_ms: 10 });
  const { sleeps, sleep } = fakeSleep();
  const { attempts } = await invokeWithRetry(target, baseRequest, {
    timeoutMs: 5000,
    signal: new AbortController().signal,
    sleep,
  });
  assert.equal(attempts, 2);
  assert.deepEqual(sleeps, [1000]);
});

Deno.test("Retry-After as an HTTP date is honoured", async () => {
  const date = new Date(Date.now() + 30_000).toUTCString();
  await using server = startProviderServer("openai", {
    steps: [{ type: "status", status: 503, retryAfter: date }, "ok"],
  });
  const { sleeps, sleep } = fakeSleep();
  await invokeWithRetry(targetFor("openai", server.url), baseRequest, {
    timeoutMs: 5000,
    signal: new AbortController().signal,
    sleep,
    random: () => 0,
  });
  assert.equal(sleeps.length, 1);
  assert.ok(sleeps[0] > 28_000 && sleeps[0] <= 30_000, String(sleeps[0]));
});

Deno.test("retryDelay: full jitter over min(max, initial * factor^k), Retry-After honoured up to 60 s", () => {
  assert.equal(retryDelay(0, undefined, POLICY, () => 0.999), 999);
  assert.equal(retryDelay(3, undefined, POLICY, () => 0.5), 4000);
  assert.equal(retryDelay(10, undefined, POLICY, () => 1), 60_000);
  assert.equal(retryDelay(0, 5000, POLICY, () => 0.1), 5000);
  assert.equal(retryDelay(0, 120_000, POLICY, () => 0.1), 60_000);
  assert.equal(retryDelay(2, 10, POLICY, () => 0), 10);
  // retry_max_delay_ms bounds agentv's own backoff, not the server's Retry-After
  assert.equal(retryDelay(0, 1000, { ...POLICY, maxDelayMs: 50 }, () => 1), 1000);
  assert.equal(retryDelay(0, 90_000, { ...POLICY, maxDelayMs: 50 }, () => 1), 60_000);
  assert.equal(retryDelay(0, 90_000, { ...POLICY, maxDelayMs: 120_000 }, () => 0), 90_000);
});

Deno.test("a provider that ignores its signal is still bounded by the attempt timeout", async () => {
  const stubborn: Target = {
    name: "stubborn",
    provider: "mock",
    retry: { ...POLICY, maxRetries: 0 },
    secrets: [],
    // Never settles and ignores its signal: only the attempt timeout can end the call.
    invoke: () => new Promise(() => {}),
  };
  await assert.rejects(
    invokeWithRetry(stubborn, baseRequest, { timeoutMs: 30, signal: new AbortController().signal }),
    /timed out/,
  );
});

Deno.test("steps can be queued after start and replies can depend on the request", async () => {
  await using server = startProviderServer("openai");
  const echo: Step = {
    type: "reply",
    text: (req) => `model=${req.body.model}`,
  };
  server.enqueue(echo);
  const { response } = await invokeWithRetry(targetFor("openai", server.url), baseRequest, {
    timeoutMs: 5000,
    signal: new AbortController().signal,
  });
  assert.equal(response.output_messages[0].content, "model=m");
});

Deno.test("timeoutMs 0 means no per-attempt bound", async () => {
  const slow = createTarget({ name: "s", provider: "mock", response: "late", delay_ms: 30 }, {
    env: {},
  });
  const { response } = await invokeWithRetry(slow, baseRequest, {
    timeoutMs: 0,
    signal: new AbortController().signal,
  });
  assert.equal(response.output_messages[0].content, "late");
});
