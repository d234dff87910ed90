import assert from "node:assert/strict";
import { azureChatUrl } from "../../lib/targets/azure.ts";
import { createTarget } from "../../lib/targets/registry.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { makeRequest, SECRET } from "./_request.ts";

Deno.test("openai target posts Chat Completions with a Bearer key and reads text and usage", async () => {
  await using server = startProviderServer("openai", {
    steps: [{ type: "reply", text: "4", usage: { input: 20, output: 1, cached: 5 } }],
  });
  const target = createTarget({
    name: "gpt",
    provider: "OpenAI",
    base_url: server.url,
    api_key: "${{ OPENAI_API_KEY }}",
    model: "gpt-4o-mini",
    temperature: 0.2,
    max_tokens: 64,
  }, { env: { OPENAI_API_KEY: SECRET } });
  assert.equal(target.provider, "openai");
  const response = await target.invoke(makeRequest());
  const [req] = server.requests;
  assert.equal(req.method, "POST");
  assert.equal(req.path, "/v1/chat/completions");
  assert.equal(req.headers.authorization, `Bearer ${SECRET}`);
  assert.equal(req.headers["content-type"], "application/json");
  assert.deepEqual(req.body, {
    model: "gpt-4o-mini",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "What is 2+2?" },
    ],
    temperature: 0.2,
    max_tokens: 64,
  });
  assert.deepEqual(response.output_messages, [{ role: "assistant", content: "4" }]);
  assert.deepEqual(response.token_usage, { input: 20, output: 1, cached: 5 });
  assert.equal(response.cost_usd, undefined);
});

Deno.test("openai target works without api_key (local OpenAI-compatible servers)", async () => {
  await using server = startProviderServer("openai");
  const target = createTarget(
    { name: "local", provider: "openai", base_url: `${server.url}/`, model: "qwen" },
    { env: {} },
  );
  await target.invoke(makeRequest());
  assert.equal(server.requests[0].headers.authorization, undefined);
  assert.equal(server.requests[0].path, "/v1/chat/completions");
});

Deno.test("openai target applies judge overrides and turns tool calls into the trace", async () => {
  await using server = startProviderServer("openai", {
    steps: [{
      type: "reply",
      text: "",
      toolCalls: [{ name: "search", input: { q: "deno" }, id: "call_9" }],
    }],
  });
  const target = createTarget(
    { name: "gpt", provider: "openai", base_url: server.url, model: "gpt-4o", temperature: 1 },
    { env: {} },
  );
  const response = await target.invoke(
    makeRequest({ overrides: { model: "gpt-judge", temperature: 0, max_tokens: 10 } }),
  );
  assert.equal(server.requests[0].body.model, "gpt-judge");
  assert.equal(server.requests[0].body.temperature, 0);
  assert.equal(server.requests[0].body.max_tokens, 10);
  assert.deepEqual(response.output_messages, [{
    role: "assistant",
    content: "",
    tool_calls: [{ tool: "search", input: { q: "deno" }, id: "call_9" }],
  }]);
});

Deno.test("pricing turns token usage into cost_usd", async () => {
  await using server = startProviderServer("openai", {
    steps: [{ type: "reply", text: "ok", usage: { input: 1_000_000, output: 500_000 } }],
  });
  const target = createTarget({
    name: "gpt",
    provider: "openai",
    base_url: server.url,
    model: "m",
    pricing: { input_per_mtok: 2.5, output_per_mtok: 10 },
  }, { env: {} });
  const response = await target.invoke(makeRequest());
  assert.equal(response.cost_usd, 7.5);
});

Deno.test("azure target builds the deployments URL and sends the api-key header", async () => {
  await using server = startProviderServer("azure", {
    steps: [{ type: "reply", text: "hi", usage: { input: 3, output: 1 } }],
  });
  const target = createTarget({
    name: "az",
    provider: "azure-openai",
    endpoint: "${{ AZURE_OPENAI_ENDPOINT }}",
    api_key: "${{ AZURE_OPENAI_API_KEY }}",
    model: "${{ AZURE_DEPLOYMENT_NAME }}",
    version: "${{ AZURE_OPENAI_API_VERSION }}",
  }, {
    env: {
      AZURE_OPENAI_ENDPOINT: `${server.url}/`,
      AZURE_OPENAI_API_KEY: SECRET,
      AZURE_DEPLOYMENT_NAME: "gpt-4o-dep",
    },
  });
  assert.equal(target.provider, "azure");
  const response = await target.invoke(makeRequest());
  const [req] = server.requests;
  assert.equal(req.path, "/openai/deployments/gpt-4o-dep/chat/completions");
  assert.deepEqual(req.query, { "api-version": "2024-12-01-preview" });
  assert.equal(req.headers["api-key"], SECRET);
  assert.equal(req.headers.authorization, undefined);
  assert.equal(req.body.messages.length, 2);
  assert.deepEqual(response.output_messages, [{ role: "assistant", content: "hi" }]);
  assert.deepEqual(response.token_usage, { input: 3, output: 1 });
});

Deno.test("azureChatUrl accepts resource names, URLs with /openai and api-version= prefixes", () => {
  assert.equal(
    azureChatUrl("my-res", "dep", "2024-10-21"),
    "https://my-res.openai.azure.com/openai/deployments/dep/chat/completions?api-version=2024-10-21",
  );
  assert.equal(
    azureChatUrl("https://x.example.com/openai/", "d", "api-version=2025-01-01"),
    "https://x.example.com/openai/deployments/d/chat/completions?api-version=2025-01-01",
  );
});

Deno.test("anthropic target sends the Messages API shape, system prompt and thinking", async () => {
  await using server = startProviderServer("anthropic", {
    steps: [{
      type: "reply",
      text: "Four.",
      toolCalls: [{ name: "calc", input: { expr: "2+2" }, id: "toolu_1" }],
      usage: { input: 11, output: 2, cached: 4 },
    }],
  });
  const target = createTarget({
    name: "claude",
    provider: "anthropic",
    base_url: server.url,
    api_key: SECRET,
    model: "claude-sonnet-4-5",
    thinking_budget: 2048,
  }, { env: {} });
  const response = await target.invoke(makeRequest());
  const [req] = server.requests;
  assert.equal(req.path, "/v1/messages");
  assert.equal(req.headers["x-api-key"], SECRET);
  assert.equal(req.headers["anthropic-version"], "2023-06-01");
  assert.deepEqual(req.body, {
    model: "claude-sonnet-4-5",
    max_tokens: 4096,
    system: "Be brief.",
    messages: [{ role: "user", content: "What is 2+2?" }],
    thinking: { type: "enabled", budget_tokens: 2048 },
  });
  assert.deepEqual(response.output_messages, [{
    role: "assistant",
    content: "Four.",
    tool_calls: [{ tool: "calc", input: { expr: "2+2" }, id: "toolu_1" }],
  }]);
  assert.deepEqual(response.token_usage, { input: 11, output: 2, cached: 4 });
});

Deno.test("gemini target posts generateContent with x-goog-api-key and reads usageMetadata", async () => {
  await using server = startProviderServer("gemini", {
    steps: [{ type: "reply", text: "4", usage: { input: 7, output: 1 } }],
  });
  const target = createTarget({
    name: "gem",
    provider: "google",
    base_url: server.url,
    api_key: SECRET,
    temperature: 0,
    max_tokens: 100,
  }, { env: {} });
  assert.equal(target.provider, "gemini");
  const response = await target.invoke(makeRequest());
  const [req] = server.requests;
  assert.equal(req.path, "/v1beta/models/gemini-2.5-flash:generateContent");
  assert.equal(req.headers["x-goog-api-key"], SECRET);
  assert.deepEqual(req.body, {
    contents: [{ role: "user", parts: [{ text: "What is 2+2?" }] }],
    systemInstruction: { parts: [{ text: "Be brief." }] },
    generationConfig: { temperature: 0, maxOutputTokens: 100 },
  });
  assert.deepEqual(response.output_messages, [{ role: "assistant", content: "4" }]);
  assert.deepEqual(response.token_usage, { input: 7, output: 1 });
});

Deno.test("HTTP errors carry the status and the provider's message", async () => {
  await using server = startProviderServer("anthropic", {
    steps: [{ type: "status", status: 400, message: "max_tokens: too large" }],
  });
  const target = createTarget(
    { name: "c", provider: "anthropic", base_url: server.url, api_key: SECRET, model: "m" },
    { env: {} },
  );
  const error = await target.invoke(makeRequest()).then(() => undefined, (e) => e);
  assert.equal(error.name, "TargetError");
  assert.equal(error.status, 400);
  assert.equal(error.retryable, false);
  assert.match(error.message, /Anthropic API returned HTTP 400: max_tokens: too large/);
});

Deno.test("mock target answers with response, echo, tool_calls and honours delay and abort", async () => {
  const fixed = createTarget({
    name: "m",
    provider: "mock",
    response: { risk: "High" },
    tool_calls: [{ tool: "lookup", input: { id: 1 } }],
    token_usage: { input: 1, output: 2 },
  }, { env: {} });
  const r = await fixed.invoke(makeRequest());
  assert.deepEqual(r.output_messages, [
    { role: "assistant", tool_calls: [{ tool: "lookup", input: { id: 1 } }] },
    { role: "assistant", content: '{"risk":"High"}' },
  ]);
  assert.deepEqual(r.token_usage, { input: 1, output: 2 });

  const echo = createTarget({ name: "e", provider: "mock", echo: true }, { env: {} });
  const e = await echo.invoke(makeRequest({ prompt: "say this back" }));
  assert.deepEqual(e.output_messages, [{ role: "assistant", content: "say this back" }]);

  // A 10-minute delay: the call returning at all shows the abort ended it.
  const slow = createTarget({ name: "s", provider: "mock", delay_ms: 600_000 }, { env: {} });
  const controller = new AbortController();
  const pending = slow.invoke(makeRequest({ signal: controller.signal }));
  controller.abort();
  await assert.rejects(pending, /aborted/);
});
