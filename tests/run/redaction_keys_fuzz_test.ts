/**
 * Runner, fuzz tier: a key of any short value (every character of the rows' JSON, every 1-2
 * character string of agentv's own fields and keys, agentv's words) never damages a row, its keys,
 * agentv's fields or the summary. Each key is a real run: a few hundred of them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { summarizeResults } from "../../mod.ts";
import { runPassed } from "../../lib/results/summary.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { project } from "../_helpers/run_project.ts";
import {
  ANSWER,
  files,
  NAMED,
  runWith,
  stable,
  substrings,
} from "../_helpers/redaction_project.ts";

Deno.test("a short key of any value never damages rows, their keys, agentv's fields or the summary", async () => {
  await using server = startProviderServer("openai", { fallback: { type: "reply", text: ANSWER } });
  await using p = await project(files(server.url));
  const reference = await runWith(
    p.dir,
    "sk-reference-key-that-is-nowhere",
    join(p.dir, "ref.jsonl"),
  );
  const pass = reference.rows["capital-pass"];
  const fail = reference.rows["capital-fail"];
  assert.equal(pass.status, "ok");
  assert.equal(pass.verdict, "pass");
  assert.equal(fail.status, "ok");
  assert.equal(fail.verdict, "fail");
  // Every character of the rows' JSON, every 1-2 character string of agentv's own fields and
  // keys, plus words agentv writes: each one a real run (all 1-3 character strings of the rows
  // go through the redactor in the next test).
  const own = [pass, fail].flatMap((row) => [
    ...Object.keys(row),
    row.eval_id,
    row.dataset,
    row.conversation_id ?? "",
    row.target,
    row.status,
    row.verdict,
    row.evaluator_results[0].name,
    row.evaluator_results[0].type,
  ]).join(" ");
  const json = JSON.stringify(pass) + JSON.stringify(fail);
  const tokens = [...new Set([...substrings(json, 1), ...substrings(own, 2), ...NAMED])];
  assert.ok(tokens.length >= 120, `${tokens.length} tokens`);
  // Six runs at a time (each its own results file) keep the matrix quick on a busy machine.
  const check = async (token: string, slot: number) => {
    const { rows, summary } = await runWith(p.dir, token, join(p.dir, `r${slot}.jsonl`));
    const what = `key ${JSON.stringify(token)}`;
    assert.deepEqual(stable(rows["capital-pass"]), stable(pass), what);
    assert.deepEqual(stable(rows["capital-fail"]), stable(fail), what);
    assert.deepEqual(summary.verdicts, { pass: 1, borderline: 0, fail: 1 }, what);
    assert.equal(summary.errors.length, 0, what);
    assert.equal(runPassed(summarizeResults([rows["capital-pass"]])), true, what);
    assert.equal(runPassed(summarizeResults([rows["capital-fail"]])), false, what);
  };
  for (let i = 0; i < tokens.length; i += 6) {
    await Promise.all(tokens.slice(i, i + 6).map((token, slot) => check(token, slot)));
  }
  // Each key did reach the server.
  const sent = new Set(server.requests.map((r) => r.headers.authorization));
  for (const token of tokens) assert.ok(sent.has(`Bearer ${token}`), token);
});
