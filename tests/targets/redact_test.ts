/** Targets: the one redactor (text, recorded requests, rows, diagnostic source lines). */
import assert from "node:assert/strict";
import {
  createRedactor,
  isSecretPath,
  redactSourceLine,
  redactText,
  redactValue,
} from "../../lib/text/redact.ts";
import type { ResultRow } from "../../lib/schema/result.ts";

const LONG = "sk-test-SECRET-123";

Deno.test("redactor: secrets of 8+ characters are replaced in text, also JSON- and URL-escaped", () => {
  const r = createRedactor([LONG, 'quote"secret!', "a b&c=d/e"]);
  assert.equal(r.text(`401 for key ${LONG}.`), "401 for key ***.");
  assert.equal(r.text('{"error":"got quote\\"secret! back"}'), '{"error":"got *** back"}');
  assert.equal(r.text('got quote"secret! back'), "got *** back");
  assert.equal(r.text("http://h/?q=a%20b%26c%3Dd%2Fe"), "http://h/?q=***");
});

Deno.test("redactor: secrets shorter than 8 characters are never searched in free text", () => {
  for (const secret of ["k", "ok", "{", ":", "1", "x", "none", "ollama", "sk-1234"]) {
    const r = createRedactor([secret]);
    const text = `ok: {"status":"ok","n":1} x none ollama sk-1234`;
    assert.equal(r.text(text), text, secret);
  }
});

Deno.test("redactor: credential forms are redacted whatever the key's length", () => {
  const r = createRedactor(["x"]);
  const cases: [string, string][] = [
    ["Authorization: Bearer x", "Authorization: Bearer ***"],
    ["authorization=Basic dXNlcjpwYXNz", "authorization=Basic ***"],
    ['{"Authorization": "Token abc"}', '{"Authorization": "Token ***"}'],
    ["proxy-authorization: x", "proxy-authorization: ***"],
    ["x-api-key: x", "x-api-key: ***"],
    ["api-key: abc123", "api-key: ***"],
    ['"x-goog-api-key":"AIzaXYZ"', '"x-goog-api-key":"***"'],
    ["api_key=abc&model=m", "api_key=***&model=m"],
    ["GET https://h/v1?key=AIza123&alt=json", "GET https://h/v1?key=***&alt=json"],
    ["https://h/?api_key=x#top", "https://h/?api_key=***#top"],
    ["https://h/?access_token=x", "https://h/?access_token=***"],
    ["curl -H 'Bearer sk-abc123456'", "curl -H 'Bearer ***'"],
    ["OPENAI_API_KEY=sk-1 deno task", "OPENAI_API_KEY=*** deno task"],
    ["add `api_key: ${{ ANTHROPIC_API_KEY }}`", "add `api_key: ${{ ANTHROPIC_API_KEY }}`"],
    ["Authorization: ${{ TOKEN }}", "Authorization: ${{ TOKEN }}"],
  ];
  for (const [input, expected] of cases) assert.equal(r.text(input), expected, input);
  // A long secret already replaced keeps its scheme word.
  assert.equal(
    createRedactor([LONG]).text(`Authorization: Bearer ${LONG}`),
    "Authorization: Bearer ***",
  );
});

Deno.test("redactor: prose that merely mentions credentials is left alone", () => {
  const r = createRedactor(["none"]);
  for (
    const text of [
      "Basic arithmetic is fun",
      "The Bearer of bad news",
      "Pass the key to the token ring",
      "keys: 3, tokens: 12",
    ]
  ) {
    assert.equal(r.text(text), text);
  }
});

Deno.test("redactor: a recorded request has secret-named keys replaced whole, other keys kept", () => {
  const request = {
    url: "https://g/v1beta/models/m:generateContent?key=k",
    headers: {
      Authorization: "Bearer k",
      "x-api-key": "k",
      "api-key": "k",
      "x-goog-api-key": "k",
      "content-type": "application/json",
    },
    body: { model: "m", api_key: 5, messages: [{ role: "user", content: `ok ${LONG}` }] },
  };
  assert.deepEqual(redactValue(request, ["k", LONG]), {
    url: "https://g/v1beta/models/m:generateContent?key=***",
    headers: {
      Authorization: "***",
      "x-api-key": "***",
      "api-key": "***",
      "x-goog-api-key": "***",
      "content-type": "application/json",
    },
    body: { model: "m", api_key: "***", messages: [{ role: "user", content: "ok ***" }] },
  });
  assert.equal(request.headers.Authorization, "Bearer k", "the input is not changed");
});

function sampleRow(answer: string): ResultRow {
  return {
    run_id: "ok",
    trial: 0,
    timestamp: "2026-01-01T00:00:00.000Z",
    eval_id: "ok",
    dataset: "ok",
    conversation_id: "ok",
    target: "ok",
    status: "ok",
    score: 1,
    verdict: "pass",
    hits: [`said ${answer}`],
    misses: [],
    candidate_answer: answer,
    evaluator_results: [{
      name: "ok",
      type: "contains",
      status: "ok",
      score: 1,
      weight: 1,
      verdict: "pass",
      hits: [answer],
      misses: [],
      details: { [answer]: answer },
      evaluator_provider_request: { headers: { authorization: "Bearer ok" }, user: answer },
      evaluator_results: [{
        name: "ok",
        type: "ok",
        status: "ok",
        score: 1,
        weight: 1,
        verdict: "pass",
        hits: [],
        misses: [],
        reasoning: answer,
      }],
    }],
    output_messages: [{ role: "assistant", content: answer }],
    reasoning: null,
    trace_summary: null,
    token_usage: null,
    duration_ms: 1,
    attempts: 1,
    error: null,
  };
}

Deno.test("redactor.row walks string values only: keys and agentv's own fields are kept", () => {
  const row = sampleRow(`ok ${LONG}`);
  const safe = createRedactor([LONG, "ok"]).row(row);
  const masked = "ok ***";
  assert.deepEqual(safe, {
    ...row,
    hits: [`said ${masked}`],
    candidate_answer: masked,
    evaluator_results: [{
      ...row.evaluator_results[0],
      hits: [masked],
      details: { [`ok ${LONG}`]: masked },
      evaluator_provider_request: { headers: { authorization: "***" }, user: masked },
      evaluator_results: [{ ...row.evaluator_results[0].evaluator_results![0], reasoning: masked }],
    }],
    output_messages: [{ role: "assistant", content: masked }],
  });
  assert.equal(row.candidate_answer, `ok ${LONG}`, "the input row is not changed");
});

Deno.test("redactor.row returns the same row when there is nothing to redact", () => {
  const row = sampleRow("Paris");
  delete row.evaluator_results[0].evaluator_provider_request;
  for (const secret of ["ok", "pass", "{", '"', "1", "Paris", "none"]) {
    assert.equal(createRedactor([secret]).row(row), row, secret);
  }
});

Deno.test("redactText and redactValue are the redactor's text and value", () => {
  assert.equal(redactText(`key ${LONG}`, [LONG]), createRedactor([LONG]).text(`key ${LONG}`));
  assert.deepEqual(redactValue({ api_key: "k" }), { api_key: "***" });
});

Deno.test("redactSourceLine masks secret-named values and, from a column, the rest of the line", () => {
  const cases: [string, string][] = [
    ["    api_key: 12345678901", "    api_key: ***"],
    ["    api_key: [sk-abcdefgh12345, b]", "    api_key: ***"],
    ["  - {name: t, api_key: [a, b], model: m}", "  - {name: t, api_key: ***, model: m}"],
    ['{"name": "d", "api_key": 1234567890123}', '{"name": "d", "api_key": ***}'],
    ["      Authorization: Bearer xyz", "      Authorization: ***"],
    ["export OPENAI_API_KEY=sk-1", "export OPENAI_API_KEY=***"],
    ["    api_key: ${{ OPENAI_API_KEY }}", "    api_key: ${{ OPENAI_API_KEY }}"],
    ["    max_tokens: 12", "    max_tokens: 12"],
    ["    model: gpt-4o", "    model: gpt-4o"],
  ];
  for (const [line, expected] of cases) assert.equal(redactSourceLine(line), expected, line);
  assert.equal(redactSourceLine("      - sk-live-123", { fromColumn: 9 }), "      - ***");
  assert.equal(redactSourceLine("  x: ${{ KEY }}", { fromColumn: 6 }), "  x: ${{ KEY }}");
});

Deno.test("isSecretPath recognises secret settings and headers in a document path", () => {
  assert.ok(isSecretPath("targets[0].api_key"));
  assert.ok(isSecretPath("targets[1].headers.Authorization"));
  assert.ok(isSecretPath("targets[0].headers.x-api-key"));
  assert.ok(!isSecretPath("targets[0].max_tokens"));
  assert.ok(!isSecretPath("targets[0].model"));
});
