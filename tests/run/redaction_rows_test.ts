/**
 * Runner: secret redaction never damages a result row. Whatever the value of a target's key (a
 * `${{ TOKEN }}` that is `ok`, `{`, `1`, `:`...), rows parse, keep their keys and agentv's own
 * fields, the summary counts them and the exit code is right; a long key never appears anywhere.
 * (Every short key as a real run is the fuzz tier's redaction_keys_fuzz_test.ts.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readResults, runEval } from "../../mod.ts";
import { createRedactor } from "../../lib/text/redact.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { cli, FAST_RETRY, project } from "../_helpers/run_project.ts";
import { ANSWER, files, runWith, substrings } from "../_helpers/redaction_project.ts";

Deno.test("every 1-3 character string of a row, as a secret, leaves the row as it is", async () => {
  await using server = startProviderServer("openai", { fallback: { type: "reply", text: ANSWER } });
  await using p = await project(files(server.url));
  const { rows } = await runWith(
    p.dir,
    "sk-reference-key-that-is-nowhere",
    join(p.dir, "ref.jsonl"),
  );
  for (const row of Object.values(rows)) {
    const tokens = substrings(JSON.stringify(row), 3);
    assert.ok(tokens.length > 300, `${tokens.length}`);
    for (const token of tokens) {
      assert.equal(createRedactor([token]).row(row), row, JSON.stringify(token));
    }
  }
});

Deno.test("the CLI exits 0 for a passing case and 1 for a failing one whatever the short key", async () => {
  await using server = startProviderServer("openai", { fallback: { type: "reply", text: ANSWER } });
  await using p = await project(files(server.url));
  const check = async (token: string, slot: number) => {
    const env = { AGENT_TOKEN: token };
    const what = `key ${JSON.stringify(token)}`;
    const [passed, failed] = await Promise.all([
      cli(["run", "evals/pass.yaml", "--allow-run", "--out", `pass${slot}.jsonl`], p.dir, { env }),
      cli(["run", "evals/fail.yaml", "--allow-run", "--out", `fail${slot}.jsonl`], p.dir, { env }),
    ]);
    assert.equal(passed.code, 0, what + passed.out + passed.err);
    assert.match(passed.out, /Verdicts: {2}pass 1 {2}borderline 0 {2}fail 0/, what);
    assert.equal(failed.code, 1, what + failed.out + failed.err);
    assert.match(failed.out, /Verdicts: {2}pass 0 {2}borderline 0 {2}fail 1/, what);
    const [ok] = (await readResults(join(p.dir, `pass${slot}.jsonl`))).rows;
    const [bad] = (await readResults(join(p.dir, `fail${slot}.jsonl`))).rows;
    assert.deepEqual([ok.status, ok.verdict, ok.eval_id], ["ok", "pass", "capital-pass"], what);
    assert.deepEqual([bad.status, bad.verdict, bad.eval_id], ["ok", "fail", "capital-fail"], what);
  };
  await Promise.all(["ok", "{"].map(check));
});

const LONG = "sk-live-0123456789abcdef";

Deno.test("a long key echoed in answers and error bodies never reaches stdout, stderr (--verbose) or results", async () => {
  await using server = startProviderServer("openai", {
    steps: [
      { type: "status", status: 500, message: `upstream rejected ${LONG}` },
      { type: "reply", text: `Paris; your key is ${LONG}; header Authorization: Bearer ${LONG}` },
    ],
    fallback: {
      type: "status",
      status: 401,
      message: `Incorrect API key provided: ${LONG} (see ?key=${LONG})`,
    },
  });
  await using p = await project({
    ...files(server.url),
    ".agentv/targets.yaml": files(server.url)[".agentv/targets.yaml"] + FAST_RETRY +
      "    max_retries: 1\n",
  });
  const r = await cli(
    ["run", "evals", "--verbose", "--workers", "1", "--allow-run", "--out", "o.jsonl"],
    p.dir,
    { env: { AGENT_TOKEN: LONG } },
  );
  assert.equal(r.code, 1, r.out + r.err);
  const file = await Deno.readTextFile(join(p.dir, "o.jsonl"));
  const rows = Object.fromEntries(
    (await readResults(join(p.dir, "o.jsonl"))).rows.map((row) => [row.eval_id, row]),
  );
  assert.equal(Object.keys(rows).length, 2);
  const answered = Object.values(rows).find((row) => row.status === "ok")!;
  assert.equal(
    answered.candidate_answer,
    "Paris; your key is ***; header Authorization: Bearer ***",
  );
  const failed = Object.values(rows).find((row) => row.status === "error")!;
  assert.match(failed.error ?? "", /Incorrect API key provided: \*\*\*/);
  assert.match(r.out, /retry .*upstream rejected \*\*\*/);
  for (const [where, text] of [["stdout", r.out], ["stderr", r.err], ["results", file]]) {
    assert.ok(!text.includes(LONG), `${where} leaks the key:\n${text}`);
    assert.ok(!text.includes(LONG.slice(3)), `${where} leaks part of the key:\n${text}`);
  }
  assert.equal(server.requests[0].headers.authorization, `Bearer ${LONG}`);
});

Deno.test("placeholder keys for local servers (ollama, none, x) leave answers and errors intact", async () => {
  const answer = "Start ollama, pick none of x: Paris";
  for (const token of ["ollama", "none", "x"]) {
    await using server = startProviderServer("openai", {
      steps: [{ type: "reply", text: answer }],
      fallback: { type: "status", status: 400, message: `model x not loaded in ollama: none` },
    });
    await using p = await project(files(server.url));
    const { rows } = await runWith(p.dir, token, join(p.dir, "o.jsonl"));
    assert.equal(rows["capital-pass"].candidate_answer, answer, token);
    assert.equal(rows["capital-pass"].verdict, "pass", token);
    assert.match(rows["capital-fail"].error ?? "", /model x not loaded in ollama: none/, token);
  }
});

Deno.test("rows returned and sent in events without a results file are redacted the same way", async () => {
  await using server = startProviderServer("openai", {
    fallback: { type: "reply", text: `Paris ${LONG}` },
  });
  await using p = await project(files(server.url));
  const seen: unknown[] = [];
  const result = await runEval({
    files: ["evals/pass.yaml", "evals/fail.yaml"],
    env: { AGENT_TOKEN: LONG },
    cwd: p.dir,
    allowRun: true,
    onEvent: (e) => seen.push(e),
  });
  const text = JSON.stringify({ result, seen });
  assert.ok(!text.includes(LONG), text);
  assert.deepEqual(result.rows.map((r) => r.candidate_answer), ["Paris ***", "Paris ***"]);
  assert.deepEqual(result.rows.map((r) => r.verdict).sort(), ["fail", "pass"]);
});

Deno.test("credential forms in answers and errors are redacted even when the key is short", async () => {
  await using server = startProviderServer("openai", {
    steps: [{
      type: "reply",
      text: 'Paris: curl -H "Authorization: Bearer k1" "https://h/?key=k1"',
    }],
    fallback: { type: "status", status: 401, message: "rejected x-api-key: k1" },
  });
  await using p = await project(files(server.url));
  const { rows } = await runWith(p.dir, "k1", join(p.dir, "o.jsonl"));
  assert.equal(
    rows["capital-pass"].candidate_answer,
    'Paris: curl -H "Authorization: Bearer ***" "https://h/?key=***"',
  );
  assert.equal(rows["capital-pass"].verdict, "pass");
  // The error names the URL it came from after the provider's message.
  assert.match(
    rows["capital-fail"].error ?? "",
    /rejected x-api-key: \*\*\* \(POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions\)$/,
  );
  assert.equal(rows["capital-fail"].status, "error");
});
