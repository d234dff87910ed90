/**
 * `agentv run --cache readwrite` records target and judge responses; `--replay` reproduces the
 * run's scores from the cache alone (servers closed, no API key), and a miss is an error row that
 * names the case and what changed in the request.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { RunSummary } from "../../lib/schema/run_record.ts";
import { startProviderServer } from "../_helpers/provider_servers.ts";
import { byId, cli as runCli, project, rowsOf, SECRET } from "../_helpers/run_project.ts";
import { CACHE_ENV } from "./_user.ts";

/** The CLI with the cache key the recording used (and nothing else: no API key). */
const cli = (args: string[], dir: string, options: { env?: Record<string, string> } = {}) =>
  runCli(args, dir, { env: { ...CACHE_ENV, ...options.env } });

/** The judge's grade: 0.9 for answers naming Paris, 0.3 for others. */
function grade(request: { body: { messages: { content: string }[] } }): string {
  const text = request.body.messages.map((m) => m.content).join("\n");
  const score = /Paris/.test(text.split("Candidate")[1] ?? text) ? 0.9 : 0.3;
  return JSON.stringify({ score, hits: [], misses: [], reasoning: `graded ${score}` });
}

function targets(targetUrl: string, judgeUrl: string, model = "gpt-a"): string {
  return `targets:
  - name: default
    provider: openai
    base_url: ${targetUrl}
    api_key: \${{ OPENAI_API_KEY }}
    model: ${model}
    max_retries: 0
    judge_target: judge
  - name: judge
    provider: openai
    base_url: ${judgeUrl}
    api_key: \${{ OPENAI_API_KEY }}
    model: judge-model
    max_retries: 0
`;
}

function dataset(betaInput = "What is the capital of Spain?"): string {
  return `evalcases:
  - id: alpha
    expected_outcome: Names Paris
    input: What is the capital of France?
    evaluators:
      - {name: grade, type: llm_judge}
      - {name: has, type: contains, value: Paris}
  - id: beta
    expected_outcome: Names Madrid
    input: ${betaInput}
    evaluators:
      - {name: grade, type: llm_judge}
      - {name: has, type: contains, value: Madrid}
`;
}

/** Every file under `dir`, recursively (paths relative to it). */
async function filesUnder(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(dir, prefix))) {
    const rel = prefix === "" ? entry.name : join(prefix, entry.name);
    if (entry.isDirectory) out.push(...await filesUnder(dir, rel));
    else out.push(rel);
  }
  return out;
}

/** Records a run with two servers, then closes them; returns the project and recorded rows. */
async function recordedProject() {
  const target = startProviderServer("openai", {
    fallback: {
      type: "reply",
      text: (r) => /France/.test(JSON.stringify(r.body)) ? "Paris" : "Barcelona",
    },
  });
  const judge = startProviderServer("openai", { fallback: { type: "reply", text: grade } });
  const p = await project({
    ".agentv/targets.yaml": targets(target.url, judge.url),
    "evals/ds.yaml": dataset(),
  });
  const recorded = await cli(
    // --allow-run: ${{ OPENAI_API_KEY }} goes to loopback servers (the dataset's targets file).
    ["run", "evals/ds.yaml", "--cache", "readwrite", "--allow-run", "--out", "rec.jsonl", "--json"],
    p.dir,
    { env: { ...CACHE_ENV, OPENAI_API_KEY: SECRET } },
  );
  const calls = { target: target.requests.length, judge: judge.requests.length };
  await target.close();
  await judge.close();
  return { p, recorded, calls, targetUrl: target.url, judgeUrl: judge.url };
}

Deno.test("a replay reproduces a recorded run's scores from the cache with no server and no key", async () => {
  const { p, recorded, calls, targetUrl, judgeUrl } = await recordedProject();
  await using _ = p;
  assert.deepEqual(calls, { target: 2, judge: 2 });
  const recordedSummary = JSON.parse(recorded.out) as RunSummary;
  assert.deepEqual(recordedSummary.cache, { hits: 0, misses: 4, writes: 4 });
  const before = byId(await rowsOf(join(p.dir, "rec.jsonl")));
  assert.equal(before.alpha.status, "ok", before.alpha.error ?? "");
  assert.equal(before.alpha.cached, false);

  // The servers are closed and no key is set: every call must come from the cache.
  const replayed = await cli(
    ["run", "evals/ds.yaml", "--replay", "--out", "replay.jsonl", "--json"],
    p.dir,
  );
  assert.equal(replayed.code, recorded.code, replayed.err);
  const summary = JSON.parse(replayed.out) as RunSummary;
  assert.deepEqual(summary.cache, { hits: 4, misses: 0, writes: 0 });
  const after = byId(await rowsOf(join(p.dir, "replay.jsonl")));
  for (const id of ["alpha", "beta"]) {
    assert.equal(after[id].status, "ok", after[id].error ?? "");
    assert.equal(after[id].cached, true);
    assert.equal(after[id].score, before[id].score);
    assert.equal(after[id].candidate_answer, before[id].candidate_answer);
    assert.deepEqual(
      after[id].evaluator_results.map((e) => [e.name, e.score]),
      before[id].evaluator_results.map((e) => [e.name, e.score]),
    );
  }
  // The grades really came from the recorded judge: 0.9 for Paris, 0.3 for Barcelona.
  assert.equal(after.alpha.evaluator_results.find((e) => e.name === "grade")?.score, 0.9);
  assert.equal(after.beta.evaluator_results.find((e) => e.name === "grade")?.score, 0.3);
  const record = JSON.parse(await Deno.readTextFile(join(p.dir, "replay.jsonl.run.json")));
  assert.equal(record.options.cache, "read");
  assert.equal(record.options.replay, true);
  assert.deepEqual(record.summary.cache, { hits: 4, misses: 0, writes: 0 });

  // Entries are readable JSON holding their request; the key's value is nowhere in the cache.
  const cacheDir = join(p.dir, ".agentv", "cache");
  const files = await filesUnder(cacheDir);
  const entries = files.filter((f) => /^[0-9a-f]{2}\/[0-9a-f]{64}\.json$/.test(f));
  assert.equal(entries.length, 4, files.join(" "));
  for (const f of files) {
    const text = await Deno.readTextFile(join(cacheDir, f));
    assert.ok(!text.includes(SECRET), `${f} holds the API key`);
  }
  const roles = [];
  for (const f of entries) {
    const entry = JSON.parse(await Deno.readTextFile(join(cacheDir, f)));
    assert.equal(entry.request.provider, "openai");
    assert.ok(["gpt-a", "judge-model"].includes(entry.request.settings.model));
    assert.ok(
      entry.request.settings.base_url === targetUrl || entry.request.settings.base_url === judgeUrl,
    );
    assert.equal(entry.request.request.trial, 0);
    assert.ok(Array.isArray(entry.response.output_messages));
    roles.push(`${entry.written_by.role}:${entry.written_by.eval_id}`);
  }
  assert.deepEqual(roles.sort(), ["judge:alpha", "judge:beta", "target:alpha", "target:beta"]);
});

Deno.test("a replay miss is an error row naming the case and what changed in the request", async () => {
  const { p, targetUrl, judgeUrl } = await recordedProject();
  await using _ = p;
  await Deno.writeTextFile(
    join(p.dir, ".agentv/targets.yaml"),
    targets(targetUrl, judgeUrl, "gpt-b"),
  );
  await Deno.writeTextFile(join(p.dir, "evals/ds.yaml"), dataset("Capital of Spain, please?"));
  const replayed = await cli(["run", "evals/ds.yaml", "--replay", "--out", "miss.jsonl"], p.dir);
  assert.equal(replayed.code, 1, replayed.err);
  const rows = byId(await rowsOf(join(p.dir, "miss.jsonl")));
  assert.equal(rows.alpha.status, "error");
  assert.equal(rows.alpha.cached, false);
  assert.match(rows.alpha.error!, /case 'alpha' \(dataset 'ds', trial 0\)/);
  assert.match(rows.alpha.error!, /model changed: 'gpt-a' -> 'gpt-b'/);
  assert.doesNotMatch(rows.alpha.error!, /messages/);
  assert.match(rows.beta.error!, /case 'beta'/);
  assert.match(rows.beta.error!, /model changed: 'gpt-a' -> 'gpt-b'/);
  assert.match(rows.beta.error!, /messages\[0\]\.content changed/);
  assert.match(replayed.out, /Cache: +0 hits, 2 misses, 0 writes/);
});

Deno.test("a replay of a case never recorded says no entry was recorded for it", async () => {
  const { p } = await recordedProject();
  await using _ = p;
  await Deno.writeTextFile(
    join(p.dir, "evals/ds.yaml"),
    dataset() + `  - id: gamma
    expected_outcome: Names Rome
    input: What is the capital of Italy?
    evaluators: [{type: contains, value: Rome}]
`,
  );
  const replayed = await cli(["run", "evals/ds.yaml", "--replay", "--out", "new.jsonl"], p.dir);
  assert.equal(replayed.code, 1);
  const rows = byId(await rowsOf(join(p.dir, "new.jsonl")));
  assert.equal(rows.alpha.status, "ok");
  assert.equal(rows.gamma.status, "error");
  assert.match(
    rows.gamma.error!,
    /Replay miss for case 'gamma' \(dataset 'ds', trial 0\): no cache entry was recorded for it/,
  );
});

Deno.test("a judge's replay miss names the judge, the case and what changed", async () => {
  const { p, targetUrl, judgeUrl } = await recordedProject();
  await using _ = p;
  const changed = targets(targetUrl, judgeUrl).replace("model: judge-model", "model: judge-2");
  await Deno.writeTextFile(join(p.dir, ".agentv/targets.yaml"), changed);
  const replayed = await cli(
    ["run", "evals/ds.yaml", "--replay", "--filter", "alpha", "--out", "j.jsonl"],
    p.dir,
  );
  assert.equal(replayed.code, 1);
  const [row] = await rowsOf(join(p.dir, "j.jsonl"));
  assert.equal(row.status, "error");
  assert.equal(row.cached, true, "the target's answer still came from the cache");
  assert.match(
    row.error!,
    /Replay miss for judge 'judge' of case 'alpha' \(dataset 'ds', trial 0\): model changed: 'judge-model' -> 'judge-2'/,
  );
});
