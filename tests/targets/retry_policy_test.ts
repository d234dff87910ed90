/** Targets: the retry policy (429/Retry-After, 5xx, resets, hangs, never 401/403). */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import {
  cli,
  containsSuite,
  FAST_RETRY,
  project,
  rowsOf,
  runOne,
} from "../_helpers/run_project.ts";

Deno.test("retries: 429 honours Retry-After, 500/reset/malformed retried, attempts on rows", async () => {
  await using server = startProviderServer("openai", {
    steps: [
      { type: "status", status: 429, retryAfter: "1" },
      { type: "status", status: 500 },
      { type: "reset" },
      { type: "malformed" },
      "hi",
    ],
  });
  const { rows, events } = await runOne(
    `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: k-1234\n    model: m\n    max_retries: 4\n${FAST_RETRY}`,
  );
  // Retry-After wins over retry_max_delay_ms (50 ms here), which only bounds agentv's own backoff
  const retries = events.flatMap((e) => e.type === "retry" ? [e] : []);
  assert.equal(server.requests.length, 5);
  assert.deepEqual(retries.map((e) => e.attempt), [1, 2, 3, 4]);
  assert.equal(retries[0].delay_ms, 1000, "Retry-After 1s honoured");
  for (const retry of retries.slice(1)) assert.ok(retry.delay_ms <= 50, `${retry.delay_ms}ms`);
  assert.equal(rows[0].status, "ok", rows[0].error ?? "");
  assert.equal(rows[0].attempts, 5);
});

Deno.test("retries: 401 and 403 are never retried; exhausted retries become an error row", async () => {
  for (const status of [401, 403]) {
    await using server = startProviderServer("openai", {
      fallback: { type: "status", status },
    });
    const { rows } = await runOne(
      `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: k-1234\n    model: m\n${FAST_RETRY}`,
    );
    assert.equal(server.requests.length, 1);
    assert.equal(rows[0].status, "error");
    assert.equal(rows[0].attempts, 1);
    assert.match(rows[0].error ?? "", new RegExp(String(status)));
  }
  await using server = startProviderServer("openai", { fallback: { type: "status", status: 503 } });
  const { rows } = await runOne(
    `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: k-1234\n    model: m\n    max_retries: 2\n${FAST_RETRY}`,
  );
  assert.equal(server.requests.length, 3);
  assert.equal(rows[0].attempts, 3);
  assert.equal(rows[0].status, "error");
});

Deno.test("retries: a hanging call is bounded by the timeout and retried", async () => {
  // Every call hangs for good, so the outcome does not depend on how fast the machine is: the
  // run finishing at all shows --timeout bounded each attempt. That a retry after a timeout
  // can succeed is tests/targets/retry_test.ts, with the timer driven by the test.
  await using server = startProviderServer("openai", { fallback: { type: "hang" } });
  await using p = await project({
    ".agentv/targets.yaml":
      `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: k-1234\n    model: m\n    max_retries: 1\n${FAST_RETRY}`,
    "evals/a.yaml": containsSuite("a", [["c1", "hi"]]),
  });
  const r = await cli(["run", "evals", "--timeout", "0.3", "--out", "o.jsonl"], p.dir);
  assert.equal(r.code, 1, r.out + r.err);
  const [row] = await rowsOf(join(p.dir, "o.jsonl"));
  assert.equal(server.requests.length, 2, "the timed-out call was retried once");
  assert.equal(row.attempts, 2);
  assert.equal(row.status, "error");
  assert.match(row.error ?? "", /timed out after 0\.3s/);
});

Deno.test("retries: retry_status_codes replaces the retried statuses", async () => {
  await using server = startProviderServer("openai", {
    steps: [{ type: "status", status: 418 }, "hi"],
  });
  const { rows } = await runOne(
    `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}\n    api_key: k-1234\n    model: m\n    retry_status_codes: [418]\n${FAST_RETRY}`,
  );
  assert.equal(rows[0].status, "ok");
  assert.equal(rows[0].attempts, 2);
});
