/** Targets: the HTTP providers' wire formats, through `runEval` against local servers. */
import assert from "node:assert/strict";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { runOne, SECRET } from "../_helpers/run_project.ts";

Deno.test("openai: Chat Completions at {base_url}/chat/completions, bearer key, usage read", async () => {
  await using server = startProviderServer("openai", {
    steps: [{ type: "reply", text: "hi there", usage: { input: 11, output: 2 } }],
  });
  const { rows } = await runOne(
    `targets:\n  - name: default\n    provider: openai\n    base_url: ${server.url}/\n    api_key: \${{ OPENAI_API_KEY }}\n    model: gpt-x\n    temperature: 0.3\n    max_tokens: 77\n`,
    { env: { OPENAI_API_KEY: SECRET } },
  );
  const [req] = server.requests;
  assert.equal(req.method, "POST");
  assert.equal(req.path, "/v1/chat/completions");
  assert.equal(req.headers.authorization, `Bearer ${SECRET}`);
  assert.equal(req.body.model, "gpt-x");
  assert.equal(req.body.temperature, 0.3);
  assert.equal(req.body.max_tokens, 77);
  assert.deepEqual(req.body.messages.map((m: { role: string }) => m.role).at(-1), "user");
  assert.ok(JSON.stringify(req.body.messages).includes("Say hi"));
  const [row] = rows;
  assert.equal(row.candidate_answer, "hi there");
  assert.deepEqual(row.token_usage, { input: 11, output: 2 });
  assert.equal(typeof row.duration_ms, "number");
  assert.equal(row.attempts, 1);
});

Deno.test("openai: base_url defaults to https://api.openai.com/v1", async () => {
  const urls: string[] = [];
  const fakeFetch: typeof fetch = (input) => {
    urls.push(String(input instanceof Request ? input.url : input));
    return Promise.resolve(Response.json({
      choices: [{ message: { role: "assistant", content: "hi" } }],
      usage: { prompt_tokens: 1, completion_tokens: 1 },
    }));
  };
  await runOne(
    `targets:\n  - name: default\n    provider: openai\n    api_key: k-123456\n    model: m\n`,
    { fetch: fakeFetch },
  );
  assert.deepEqual(urls, ["https://api.openai.com/v1/chat/completions"]);
});

Deno.test("azure: endpoint URL or resource name, deployment, default api-version, api-key header", async () => {
  await using server = startProviderServer("azure", { steps: ["hi"] });
  await runOne(
    `targets:\n  - name: default\n    provider: azure\n    endpoint: ${server.url}\n    api_key: ${SECRET}\n    model: my-deploy\n`,
  );
  const [req] = server.requests;
  assert.equal(req.path, "/openai/deployments/my-deploy/chat/completions");
  assert.equal(req.query["api-version"], "2024-12-01-preview");
  assert.equal(req.headers["api-key"], SECRET);
  const urls: string[] = [];
  const fakeFetch: typeof fetch = (input) => {
    urls.push(String(input instanceof Request ? input.url : input));
    return Promise.resolve(Response.json({
      choices: [{ message: { role: "assistant", content: "hi" } }],
    }));
  };
  await runOne(
    `targets:\n  - name: default\n    provider: azure\n    endpoint: my-resource\n    api_key: k-1234\n    model: dep\n    version: 2025-01-01\n`,
    { fetch: fakeFetch },
  );
  assert.deepEqual(urls, [
    "https://my-resource.openai.azure.com/openai/deployments/dep/chat/completions?api-version=2025-01-01",
  ]);
});

Deno.test("anthropic: Messages API at {base_url}/v1/messages, x-api-key, system, usage", async () => {
  await using server = startProviderServer("anthropic", {
    steps: [{ type: "reply", text: "hi", usage: { input: 9, output: 4 } }],
  });
  const { rows } = await runOne(
    `targets:\n  - name: default\n    provider: anthropic\n    base_url: ${server.url}\n    api_key: ${SECRET}\n    model: claude-x\n    max_tokens: 2000\n    thinking_budget: 1024\n`,
  );
  const [req] = server.requests;
  assert.equal(req.path, "/v1/messages");
  assert.equal(req.headers["x-api-key"], SECRET);
  assert.ok(req.headers["anthropic-version"]);
  assert.equal(req.body.model, "claude-x");
  assert.equal(req.body.max_tokens, 2000);
  assert.equal(req.body.thinking?.budget_tokens, 1024);
  assert.ok(JSON.stringify(req.body.system ?? "").includes("Be brief."));
  assert.ok(!JSON.stringify(req.body.messages).includes('"system"'));
  assert.deepEqual(rows[0].token_usage, { input: 9, output: 4 });
  const urls: string[] = [];
  await runOne(
    `targets:\n  - name: default\n    provider: anthropic\n    api_key: k-1234\n    model: c\n`,
    {
      fetch: (input) => {
        urls.push(String(input));
        return Promise.resolve(Response.json({
          content: [{ type: "text", text: "hi" }],
          usage: { input_tokens: 1, output_tokens: 1 },
        }));
      },
    },
  );
  assert.deepEqual(urls, ["https://api.anthropic.com/v1/messages"]);
});

Deno.test("gemini: generateContent at {base_url}/v1beta/models/<model>, default model, usage", async () => {
  await using server = startProviderServer("gemini", {
    steps: [{ type: "reply", text: "hi", usage: { input: 5, output: 3 } }],
  });
  const { rows } = await runOne(
    `targets:\n  - name: default\n    provider: gemini\n    base_url: ${server.url}\n    api_key: ${SECRET}\n`,
  );
  const [req] = server.requests;
  assert.equal(req.path, "/v1beta/models/gemini-2.5-flash:generateContent");
  assert.equal(req.headers["x-goog-api-key"], SECRET);
  assert.ok(Array.isArray(req.body.contents));
  assert.deepEqual(rows[0].token_usage, { input: 5, output: 3 });
  const urls: string[] = [];
  await runOne(
    `targets:\n  - name: default\n    provider: gemini\n    api_key: k-1234\n    model: gemini-pro\n`,
    {
      fetch: (input) => {
        urls.push(String(input));
        return Promise.resolve(Response.json({
          candidates: [{ content: { parts: [{ text: "hi" }] } }],
        }));
      },
    },
  );
  assert.deepEqual(urls.map((u) => u.split("?")[0]), [
    "https://generativelanguage.googleapis.com/v1beta/models/gemini-pro:generateContent",
  ]);
});

Deno.test("HTTP providers' tool calls become the trace that tool_trajectory grades", async () => {
  for (const kind of ["openai", "anthropic", "gemini"] as const) {
    await using server = startProviderServer(kind, {
      steps: [{
        type: "reply",
        text: "hi",
        toolCalls: [{ name: "lookupOrder", input: { orderId: 7, opts: { deep: true } } }],
      }],
    });
    const { rows } = await runOne(
      `targets:\n  - name: default\n    provider: ${kind}\n    base_url: ${server.url}\n    api_key: k-1234\n    model: m\n`,
      {
        evaluators: `      - type: tool_trajectory
        mode: exact
        expected:
          - tool: lookupOrder
            input: {orderId: 7}
`,
      },
    );
    assert.equal(rows[0].score, 1, `${kind}: ${JSON.stringify(rows[0].evaluator_results)}`);
    const calls = rows[0].output_messages.flatMap((m) => m.tool_calls ?? []);
    assert.deepEqual(calls.map((c) => [c.tool, c.input]), [[
      "lookupOrder",
      { orderId: 7, opts: { deep: true } },
    ]]);
  }
});
