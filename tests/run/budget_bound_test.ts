/**
 * The worst case the budget reserves for a call: an input bound of UTF-8 bytes plus the format's
 * margin, and the output limit of the request, else of the target.
 */
import assert from "node:assert/strict";
import { createBudget } from "../../lib/run/budget.ts";
import {
  inputTokenBound,
  MESSAGE_OVERHEAD_TOKENS,
  REQUEST_OVERHEAD_TOKENS,
  worstCaseCost,
} from "../../lib/run/budget_cost.ts";
import { createTarget } from "../../lib/targets/registry.ts";
import { type ChatMessage, TargetError } from "../../lib/targets/types.ts";

const bytes = (text: string) => new TextEncoder().encode(text).length;

Deno.test("the input bound is the UTF-8 bytes of every message plus the chat format's margin", () => {
  const messages: ChatMessage[] = [
    { role: "system", content: "Réponds en français 🇫🇷" },
    { role: "user", content: "日本語で? 👍🏽 and ascii" },
  ];
  let expected = REQUEST_OVERHEAD_TOKENS;
  for (const m of messages) expected += bytes(m.role) + bytes(m.content) + MESSAGE_OVERHEAD_TOKENS;
  assert.equal(inputTokenBound({ prompt: "", messages }), expected);
  // A request without chat messages (a cli target) is bounded by its prompt.
  assert.equal(
    inputTokenBound({ prompt: "€uro", messages: [] }),
    bytes("€uro") + MESSAGE_OVERHEAD_TOKENS + REQUEST_OVERHEAD_TOKENS,
  );
});

Deno.test("the output limit is the request's max_tokens override, else the target's; anthropic's default is 4096", () => {
  const pricing = { input_per_mtok: 1_000_000, output_per_mtok: 1_000_000 };
  const request = { prompt: "", messages: [{ role: "user" as const, content: "hi" }] };
  const input = 4 + 2 + MESSAGE_OVERHEAD_TOKENS + REQUEST_OVERHEAD_TOKENS;
  const openai = createTarget(
    { name: "o", provider: "openai", model: "m", api_key: "k", max_tokens: 50, pricing },
    { env: {} },
  );
  assert.equal(openai.maxOutputTokens, 50);
  assert.deepEqual(worstCaseCost(openai, request), { usd: input + 50, bounded: true });
  assert.deepEqual(
    worstCaseCost(openai, { ...request, overrides: { max_tokens: 7 } }),
    { usd: input + 7, bounded: true },
  );
  const anthropic = createTarget(
    { name: "a", provider: "anthropic", model: "m", api_key: "k", pricing },
    { env: {} },
  );
  assert.equal(anthropic.maxOutputTokens, 4096);
  assert.deepEqual(worstCaseCost(anthropic, request), { usd: input + 4096, bounded: true });
  // No limit, or a target that makes calls of its own: only the input is bounded.
  const open = createTarget({ name: "x", provider: "openai", model: "m", api_key: "k", pricing }, {
    env: {},
  });
  assert.deepEqual(worstCaseCost(open, request), { usd: input, bounded: false });
  const unpriced = createTarget({ name: "u", provider: "openai", model: "m", api_key: "k" }, {
    env: {},
  });
  assert.equal(worstCaseCost(unpriced, request), undefined);
});

Deno.test("a failed call releases its reservation but keeps the cost of the usage it reported", () => {
  const target = {
    name: "agent",
    provider: "codex",
    pricing: { input_per_mtok: 1_000_000, output_per_mtok: 1_000_000 },
  };
  const request = { prompt: "p", messages: [] };
  const budget = createBudget({ capUsd: 1000 });
  const ticket = budget.admit({ target, request, role: "target" });
  ticket.failed(
    new TargetError("timed out", {
      partial: { output_messages: [], token_usage: { input: 30, output: 12 } },
    }),
  );
  budget.admit({ target, request, role: "target" }).failed(new Error("connection refused"));
  const summary = budget.summary();
  assert.equal(summary.spent_usd, 30 + 12);
  assert.equal(summary.unbounded_calls, 2);
  assert.deepEqual(summary.unbounded_targets, ["agent"]);
  assert.equal(summary.exhausted, false);
});
