/** Every key docs/results.md lists for a result row is on every row, `null` when it does not apply. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runEval } from "../../lib/run/run_eval.ts";
import type { ResultRow } from "../../lib/schema/result.ts";
import { project } from "../_helpers/run_project.ts";

/** The keys docs/results.md lists ("Each row has `a`, `b` ... and `z`."). */
async function readmeRowKeys(): Promise<string[]> {
  const readme = await Deno.readTextFile(new URL("../../docs/results.md", import.meta.url));
  const sentence = readme.match(/Each row has ([\s\S]*?`error`)\./);
  assert.ok(sentence, "docs/results.md states the keys of a row");
  // Backticked words that are keys (not values such as `ok` or `pass` in parentheses).
  const withoutNotes = sentence[1].replace(/\([^)]*\)/g, "");
  return [...withoutNotes.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
}

const FILES = {
  ".agentv/targets.yaml": `targets:
  - name: default
    provider: mock
    response: ok
  - name: broken
    provider: openai
    base_url: http://127.0.0.1:1
    api_key: sk-x
    max_retries: 0
`,
  "evals/a.yaml": `evalcases:
  - id: ok-row
    expected_outcome: x
    input: x
    evaluators: [{type: contains, value: ok}]
  - id: with-conversation
    conversation_id: conv-7
    expected_outcome: x
    input: x
    evaluators: [{type: contains, value: ok}]
  - id: unreachable
    expected_outcome: x
    input: x
    execution: {target: broken}
    evaluators: [{type: contains, value: ok}]
  - id: blocked
    expected_outcome: x
    input: x
    execution: {target: nowhere}
    evaluators: [{type: contains, value: ok}]
`,
};

function assertEveryKey(rows: readonly Record<string, unknown>[], keys: readonly string[]) {
  for (const row of rows) {
    for (const key of keys) assert.ok(key in row, `row '${row.eval_id}' lacks '${key}'`);
  }
}

Deno.test("ok, error and blocked rows have every key the docs list, null where it does not apply", async () => {
  const keys = await readmeRowKeys();
  assert.ok(keys.length >= 20, keys.join(" "));
  for (const key of ["run_id", "trial", "conversation_id", "token_usage", "cached", "error"]) {
    assert.ok(keys.includes(key), `docs/results.md lists ${key}`);
  }
  await using p = await project(FILES);
  const out = join(p.dir, "r.jsonl");
  const { rows } = await runEval({
    files: ["evals/a.yaml"],
    env: {},
    cwd: p.dir,
    out,
    timeoutMs: 5_000,
  });
  const by = (id: string) => rows.find((r) => r.eval_id === id) as ResultRow;
  assert.deepEqual(rows.map((r) => r.eval_id).sort(), [
    "blocked",
    "ok-row",
    "unreachable",
    "with-conversation",
  ]);
  assertEveryKey(rows, keys);

  const ok = by("ok-row");
  assert.equal(ok.status, "ok");
  assert.equal(ok.error, null);
  assert.equal(ok.conversation_id, null);
  assert.equal(ok.reasoning, null);
  assert.equal(ok.token_usage, null, "the mock reports no tokens");
  assert.equal(by("with-conversation").conversation_id, "conv-7");
  for (const id of ["unreachable", "blocked"]) {
    const row = by(id);
    assert.equal(row.status, "error", id);
    assert.equal(typeof row.error, "string", id);
    assert.equal(row.trace_summary, null, id);
    assert.equal(row.token_usage, null, id);
  }
  assert.equal(by("blocked").attempts, 0);
  // No cache in this run: no row's answer came from it.
  assert.deepEqual(rows.map((r) => r.cached), [false, false, false, false]);

  // In the file, every key is there too, except `output_messages` when it is only the answer.
  const lines = (await Deno.readTextFile(out)).split("\n").filter(Boolean).map((l) =>
    JSON.parse(l)
  );
  assertEveryKey(lines, keys.filter((k) => k !== "output_messages"));
  for (const line of lines) {
    if (!("output_messages" in line)) {
      assert.equal(line.candidate_answer, "ok", "only a trace that is the answer is left out");
    }
  }
});

Deno.test("dry-run rows have every key the docs list", async () => {
  const keys = await readmeRowKeys();
  await using p = await project(FILES);
  const { rows } = await runEval({
    files: ["evals/a.yaml"],
    env: {},
    cwd: p.dir,
    dryRun: true,
    filter: "{ok-row,with-conversation}",
  });
  assert.equal(rows.length, 2);
  assertEveryKey(rows, keys);
  assert.deepEqual(rows.map((r) => [r.dry_run, r.error]), [[true, null], [true, null]]);
});
