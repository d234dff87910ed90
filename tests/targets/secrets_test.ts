import assert from "node:assert/strict";
import { join } from "node:path";
import { createTarget } from "../../lib/targets/registry.ts";
import { redactText, redactValue } from "../../lib/text/redact.ts";
import { invokeWithRetry } from "../../lib/targets/retry.ts";
import type { Target } from "../../lib/targets/types.ts";
import { type ProviderKind, startProviderServer } from "../_helpers/provider_servers.ts";
import { FIXTURES, makeRequest, SECRET } from "./_request.ts";

const ENV = { PROVIDER_API_KEY: SECRET };

function targetFor(kind: ProviderKind, url: string): Target {
  const base = {
    name: `${kind}-t`,
    api_key: "${{ PROVIDER_API_KEY }}",
    model: "m",
    max_retries: 1,
  };
  return createTarget(
    kind === "azure"
      ? { ...base, provider: "azure", endpoint: url }
      : { ...base, provider: kind, base_url: url },
    { env: ENV },
  );
}

/** Everything a caller could print about an outcome. */
function everything(value: unknown): string {
  return [Deno.inspect(value, { depth: 10 }), JSON.stringify(value), String(value)].join("\n");
}

const { request: _r, attempt: _a, ...baseRequest } = { ...makeRequest(), request: undefined };

for (const kind of ["openai", "azure", "anthropic", "gemini"] as const) {
  Deno.test(`${kind}: the API key never appears in errors, recorded requests or results`, async () => {
    await using server = startProviderServer(kind, {
      steps: [
        { type: "status", status: 500, message: `upstream rejected key ${SECRET}` },
        { type: "reply", text: "fine" },
        { type: "status", status: 401, message: `Incorrect API key provided: ${SECRET}` },
        { type: "malformed", body: `<html>Bearer ${SECRET}</html>` },
        { type: "malformed", body: `<html>Bearer ${SECRET}</html>` },
      ],
    });
    const target = targetFor(kind, server.url);
    assert.deepEqual(target.secrets, [SECRET]);
    const seen: string[] = [];
    const options = {
      timeoutMs: 5000,
      signal: new AbortController().signal,
      sleep: () => Promise.resolve(),
      onRetry: (info: unknown) => seen.push(everything(info)),
    };
    const ok = await invokeWithRetry(target, baseRequest, options);
    seen.push(everything(ok));
    for (let i = 0; i < 2; i++) {
      const error = await invokeWithRetry(target, baseRequest, options).then(() => {
        throw new Error("expected a failure");
      }, (e) => e);
      seen.push(everything(error), error.message);
    }
    const text = seen.join("\n");
    assert.ok(!text.includes(SECRET), text);
    assert.match(text, /\*\*\*/);
    // the key did reach the server, in the provider's header
    const header = {
      openai: "authorization",
      azure: "api-key",
      anthropic: "x-api-key",
      gemini: "x-goog-api-key",
    }[kind];
    assert.ok(server.requests[0].headers[header].includes(SECRET));
  });
}

Deno.test("connection refused is a retryable error without the key", async () => {
  const server = startProviderServer("openai");
  const url = server.url;
  await server.close();
  const target = targetFor("openai", url);
  const error = await target.invoke(makeRequest()).then(() => undefined, (e) => e);
  assert.equal(error.retryable, true);
  assert.match(error.message, /OpenAI connection failed/);
  assert.ok(!everything(error).includes(SECRET));
});

Deno.test("cli: secret-named variables are redacted from failure output and recorded commands", async () => {
  const target = createTarget({
    name: "agent",
    provider: "cli",
    command_template: `sh ${
      join(FIXTURES, "bin", "fail.sh")
    } --token \${{ AGENT_TOKEN }}; echo "token was \${{ AGENT_TOKEN }}" >&2; exit 2`,
  }, { env: { AGENT_TOKEN: SECRET } });
  assert.deepEqual(target.secrets, [SECRET]);
  const error = await target.invoke(makeRequest()).then(() => undefined, (e) => e);
  assert.match(error.message, /exited with code 2: .*token was \*\*\*/s);
  assert.ok(!everything(error).includes(SECRET));
});

Deno.test("redactText replaces secrets and credential patterns; redactValue masks secret keys", () => {
  assert.equal(
    redactText(`key ${SECRET} and Authorization: Bearer abc.def-123 ?key=AIzaXYZ&x=1`, [SECRET]),
    "key *** and Authorization: Bearer *** ?key=***&x=1",
  );
  assert.equal(
    redactText('{"x-api-key": "zzz-123"} api-key=qq'),
    '{"x-api-key": "***"} api-key=***',
  );
  assert.equal(redactText("a short ab secret", ["ab"]), "a short ab secret");
  assert.deepEqual(
    redactValue({
      headers: { authorization: "Bearer x", "x-goog-api-key": "k" },
      body: [`${SECRET}!`],
    }, [SECRET]),
    { headers: { authorization: "***", "x-goog-api-key": "***" }, body: ["***!"] },
  );
});
